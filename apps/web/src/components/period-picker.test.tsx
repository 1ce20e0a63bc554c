import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { PeriodPicker } from './period-picker';

describe('period picker', () => {
  it('its calendar is a dialog named by the field that opens it (axe aria-dialog-name)', async () => {
    renderWithProviders(<PeriodPicker value={['2026-11-01', '2026-11-07']} onChange={() => {}} />);
    const field = screen.getByRole('button', { name: 'Período' });
    await userEvent.click(field);
    const dialog = await screen.findByRole('dialog');
    const labelledBy = dialog.getAttribute('aria-labelledby') ?? '';
    expect(document.getElementById(labelledBy)).toBe(field);
    expect(field).toHaveAttribute('aria-controls', dialog.id);
  });
});
