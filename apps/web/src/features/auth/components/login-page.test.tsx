import { AUTH_ERRORS } from '@exame/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { TEST_USER as user } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { LoginPage } from './login-page';

function renderLogin() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/home', element: <p>início</p> },
    ],
    '/login',
  );
}

async function fillAndSubmit() {
  await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@exemplo.gov.br');
  await userEvent.type(screen.getByLabelText(/^Senha/), 'segredo');
  await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('login page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('asks for a valid e-mail and the password before calling the server', async () => {
    const fetchMock = vi.fn(async (_input: string) => new Response('[]', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByText('Informe um e-mail válido.')).toBeInTheDocument();
    expect(screen.getByText('Informe a senha.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map((call) => String(call[0]))).not.toContainEqual(
      expect.stringContaining('api/Auth'),
    );
  });

  it('shows the identity text of a refused sign-in, and clears it on the next try', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer = () =>
      new Response(JSON.stringify({ Error: 'x', code: 'invalid-credentials' }), { status: 401 });
    vi.stubGlobal('fetch', async () => answer());
    const { router } = renderLogin();
    await fillAndSubmit();
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      AUTH_ERRORS['invalid-credentials'].message,
    );

    answer = () => new Response(JSON.stringify(user), { status: 200 });
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(appStore.getState().user?.email).toBe(user.email);
  });

  it('a disabled account, after its right password: names it and whom to ask, not "wrong password"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(
          JSON.stringify({ Error: AUTH_ERRORS['user-disabled'].message, code: 'user-disabled' }),
          { status: 403 },
        ),
    );
    const { router } = renderLogin();
    await fillAndSubmit();
    const alert = await screen.findByTestId('login-error');
    expect(alert).toHaveTextContent('Conta desativada');
    expect(alert).toHaveTextContent(
      'Esta conta está desativada. Para voltar a usá-la, peça ao administrador da sua unidade que a reative.',
    );
    expect(alert).not.toHaveTextContent(AUTH_ERRORS['invalid-credentials'].message);
    expect(router.state.location.pathname).toBe('/login');
    expect(appStore.getState().user).toBeNull();
  });
});
