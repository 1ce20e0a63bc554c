/**
 * Toasts open at the bottom right: not over the header (the user's name and
 * "Sair") nor over the actions at the top of a screen.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { act } from 'react';
import { toast } from '../components/toast';
import { renderWithProviders } from '../test/render';

describe('toasts', () => {
  it('show at the bottom right', async () => {
    renderWithProviders(<p>tela</p>);
    act(() => toast.success('Arquivo gerado.'));
    const message = await screen.findByText('Arquivo gerado.');
    expect(message.closest('[data-position]')).toHaveAttribute('data-position', 'bottom-right');
  });
});
