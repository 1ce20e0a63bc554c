/**
 * `/demo-register/`: the demonstration candidate (step 1) is the default
 * tab; the demonstration user of the unit (`POST api/User`) stays one tab away.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appStore } from '../../lib/app-store';
import { TEST_USER } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { DemoRegisterPage } from './demo-register';

describe('demo register tabs', () => {
  beforeEach(() => appStore.setUser({ ...TEST_USER, federativeUnit: 'DEMO' }));
  afterEach(() => appStore.clearSession());

  it('opens on the candidate; the demonstration user is the other tab', async () => {
    const { router } = renderRoutes(
      [{ path: '/demo-register', element: <DemoRegisterPage /> }],
      '/demo-register',
    );
    expect(await screen.findByText('Cadastrar e continuar')).toBeInTheDocument();
    expect(screen.getByTestId('demo-steps')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByText('Usuário de demonstração'));
    expect(await screen.findByText('Perfil')).toBeInTheDocument();
    expect(screen.queryByText('Cadastrar e continuar')).toBeNull();
    expect(router.state.location.search).toBe('?aba=usuario');
  });
});
