/**
 * "Configurações da unidade" (ADMIN): the switch of entry by face alone says
 * the risk, asks for a confirmation before turning it on (Cancelar changes
 * nothing), turns off without one, and works from the keyboard; the unit is
 * never sent (the server takes the ADMIN's own).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { TEST_USER } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { UnitSettings } from './unit-settings';

function server(initial: boolean) {
  let allowed = initial;
  return stubServer({
    'GET /api/FederativeUnit/settings': () =>
      json(200, { federativeUnit: 'DF', faceAloneAllowed: allowed }),
    'PUT /api/FederativeUnit/settings': (call) => {
      allowed = (call.body as { faceAloneAllowed: boolean }).faceAloneAllowed;
      return json(200, { federativeUnit: 'DF', faceAloneAllowed: allowed });
    },
  });
}
/** The switch, named by its label (Mantine reads its description after it). */
const findToggle = async () => {
  const toggle = await screen.findByRole('switch');
  expect(toggle).toHaveAccessibleName(/^Permitir entrada só com o rosto \(sem senha\)/);
  return toggle;
};
const puts = (calls: ReturnType<typeof stubServer>) =>
  calls.filter((call) => call.method === 'PUT').map((call) => call.body);

describe('unit settings: entry by face alone', () => {
  beforeEach(() => {
    appStore.setUser(TEST_USER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    appStore.clearSession();
  });

  it('turning it on asks first and says the risk; Cancelar changes nothing; Permitir saves it', async () => {
    const calls = server(false);
    renderWithProviders(<UnitSettings />);
    expect(
      await screen.findByRole('heading', { name: 'Configurações da unidade' }),
    ).toBeInTheDocument();
    const toggle = await findToggle();
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/o rosto sozinho não prova quem está diante da câmera/)).toBeVisible();

    await userEvent.click(toggle);
    let confirm = await screen.findByTestId('alert-modal');
    expect(confirm).toHaveTextContent('Permitir entrada só com o rosto?');
    expect(confirm).toHaveTextContent('Admitido só pelo rosto (sem senha)');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());
    expect(puts(calls)).toEqual([]);
    expect(toggle).not.toBeChecked();

    // From the keyboard: the switch is focusable and Space toggles it.
    toggle.focus();
    await userEvent.keyboard(' ');
    confirm = await screen.findByTestId('alert-modal');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Permitir' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ faceAloneAllowed: true }]));
    await waitFor(() => expect(toggle).toBeChecked());
    expect(await screen.findByTestId('face-alone-on')).toBeInTheDocument();
  });

  it('turning it off needs no confirmation', async () => {
    const calls = server(true);
    renderWithProviders(<UnitSettings />);
    const toggle = await findToggle();
    await waitFor(() => expect(toggle).toBeChecked());
    await userEvent.click(toggle);
    await waitFor(() => expect(puts(calls)).toEqual([{ faceAloneAllowed: false }]));
    expect(screen.queryByTestId('alert-modal')).toBeNull();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(screen.queryByTestId('face-alone-on')).toBeNull();
  });
});
