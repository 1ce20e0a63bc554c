import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEDERATIVE_UNITS } from '@exame/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { renderWithProviders } from '../../../test/render';
import { UnitSelector } from './unit-selector';

describe('unit selector', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the active units and selecting one applies and keeps its theme', async () => {
    const active = FEDERATIVE_UNITS.filter((unit) => unit.isActive);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(active), { status: 200 }));
    renderWithProviders(<UnitSelector />);
    const input = await screen
      .findByRole('textbox', { name: /Unidade federativa/ })
      .catch(() => screen.getByPlaceholderText('Selecione a sua unidade'));
    await waitFor(() => expect(input).toBeEnabled());
    await userEvent.click(input);
    await userEvent.click(await screen.findByRole('option', { name: 'DF — Distrito Federal' }));
    expect(appStore.getState().theme).toBe('valid-df-theme');
    expect(localStorage.getItem('theme')).toBe('valid-df-theme');
    expect(appStore.getState().federativeUnitSelected).toBe('DF');
  });
});
