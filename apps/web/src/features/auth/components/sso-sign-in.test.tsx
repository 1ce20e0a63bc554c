import { findFederativeUnit, SSO_ERRORS, type SignInProvider } from '@exame/shared';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { TEST_USER as user } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { LoginPage } from './login-page';
import { SsoReturnPage } from './sso-return-page';

const providers: SignInProvider[] = [
  { id: '7b0f1b9e-3f4c-4b7a-9a3e-1f2d3c4b5a69', name: 'gov.br' },
  { id: '8c1e2a0f-4d5b-4c8b-8b4f-2e3d4c5b6a70', name: 'Rede do Estado' },
];

function render(path: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/login/sso', element: <SsoReturnPage /> },
      { path: '/home', element: <p>início</p> },
    ],
    path,
  );
}

describe('sign-in through the unit identity providers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
    window.history.replaceState(null, '', '/');
  });

  it("offers one button per provider of the selected unit, each starting that provider's sign-in", async () => {
    appStore.selectFederativeUnit(findFederativeUnit('DF')!);
    const calls = stubServer({
      'GET /api/Auth/sso/providers': () => json(200, providers),
      'GET /api/FederativeUnit': () => json(200, []),
    });
    render('/login');
    const govbr = await screen.findByRole('link', { name: 'Entrar com gov.br' });
    expect(govbr.getAttribute('href')).toMatch(
      new RegExp(`api/Auth/sso/${providers[0]!.id}/start$`),
    );
    expect(screen.getByRole('link', { name: 'Entrar com Rede do Estado' })).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/Auth/sso/providers')?.query).toEqual({
      federativeUnit: 'DF',
    });
  });

  it('shows no provider button when the unit has none, and the password form still works', async () => {
    appStore.selectFederativeUnit(findFederativeUnit('SP')!);
    stubServer({
      'GET /api/Auth/sso/providers': () => json(200, []),
      'GET /api/FederativeUnit': () => json(200, []),
    });
    render('/login');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toBeEnabled());
    expect(screen.queryByTestId('sso-providers')).toBeNull();
  });

  it("says why the provider's sign-in was refused, in pt-BR, and drops the code from the address", async () => {
    stubServer({ 'GET /api/FederativeUnit': () => json(200, []) });
    // The unit chosen before leaving for the provider comes back selected.
    sessionStorage.setItem('ssoUnit', 'DEMO');
    const { router } = render('/login?sso_error=unauthorized-domain');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      SSO_ERRORS['unauthorized-domain'].message,
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(appStore.getState().federativeUnitSelected).toBe('DEMO');
  });

  it('a code the screen does not know reads as the generic failure', async () => {
    stubServer({ 'GET /api/FederativeUnit': () => json(200, []) });
    render('/login?sso_error=codigo-novo');
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      SSO_ERRORS['sso-failed'].message,
    );
  });

  it('the return page trades the hand-off for the session, clears it from the address and opens the home page', async () => {
    window.history.replaceState(null, '', '/login/sso#handoff=passagem-de-uso-unico-123456');
    const calls = stubServer({ 'POST /api/Auth/sso/session': () => json(200, user) });
    const { router } = render('/login/sso');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls.find((call) => call.path === '/api/Auth/sso/session')?.body).toEqual({
      handoff: 'passagem-de-uso-unico-123456',
    });
    expect(appStore.getState().user?.email).toBe(user.email);
    expect(window.location.hash).toBe('');
  });

  it('an expired or used hand-off is said as such, with the way back to the sign-in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/login/sso#handoff=passagem-vencida-1234567890');
    stubServer({
      'POST /api/Auth/sso/session': () =>
        json(400, { Error: SSO_ERRORS['sso-expired'].message, code: 'sso-expired' }),
    });
    render('/login/sso');
    expect(await screen.findByTestId('sso-error')).toHaveTextContent(
      SSO_ERRORS['sso-expired'].message,
    );
    expect(screen.getByRole('link', { name: 'Voltar para a tela de entrada' })).toBeInTheDocument();
    expect(appStore.getState().user).toBeNull();
  });

  it('a proof through the provider before a sensitive action renews the session and goes back to its page', async () => {
    appStore.setUser(user);
    sessionStorage.setItem('exame_sso_reauth', JSON.stringify({ returnTo: '/auditoria/42' }));
    window.history.replaceState(null, '', '/login/sso#handoff=passagem-da-prova-1234567890');
    const calls = stubServer({
      'POST /api/Auth/sso/reauthenticate': () => new Response(null, { status: 204 }),
    });
    const { router } = renderRoutes(
      [
        { path: '/login/sso', element: <SsoReturnPage /> },
        { path: '/auditoria/:id', element: <p>auditoria</p> },
      ],
      '/login/sso',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auditoria/42'));
    expect(calls.find((call) => call.path === '/api/Auth/sso/reauthenticate')?.body).toEqual({
      handoff: 'passagem-da-prova-1234567890',
    });
    expect(calls.some((call) => call.path === '/api/Auth/sso/session')).toBe(false);
    expect(sessionStorage.getItem('exame_sso_reauth')).toBeNull();
    expect(appStore.getState().user?.email).toBe(user.email);
  });

  it('a proof through the provider that was refused brings the signed-in person back to the page that asked', async () => {
    appStore.setUser(user);
    stubServer({ 'GET /api/FederativeUnit': () => json(200, []) });
    sessionStorage.setItem('exame_sso_reauth', JSON.stringify({ returnTo: '/list-users' }));
    const { router } = renderRoutes(
      [
        { path: '/login', element: <LoginPage /> },
        { path: '/list-users', element: <p>usuários</p> },
        { path: '/home', element: <p>início</p> },
      ],
      '/login?sso_error=sso-cancelled',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/list-users'));
    expect(sessionStorage.getItem('exame_sso_reauth')).toBeNull();
  });
});
