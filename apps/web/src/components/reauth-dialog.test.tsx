import { AUTH_ERRORS, SECOND_FACTOR_ERRORS } from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The browser's side of a passkey, answered here as an authenticator would.
vi.mock('../lib/passkeys', () => ({
  signWithPasskey: vi.fn(async (options: { challenge: string }) => ({
    id: 'chave',
    signed: options.challenge,
  })),
  createPasskey: vi.fn(),
}));
import { api } from '../lib/api';
import { REAUTH_DECLINED } from '../lib/api-client';
import { appStore } from '../lib/app-store';
import { TEST_USER } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { json, stubServer } from '../test/stub-server';

// The app's providers mount the dialog (app/providers.tsx).
describe('re-authentication before a sensitive action', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('asks for the password, then makes the refused call again', async () => {
    appStore.setUser(TEST_USER);
    let proved = false;
    const calls = stubServer({
      'POST /api/Integration/keys': () =>
        proved
          ? json(201, { key: 'k' })
          : json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
      'POST /api/Auth/reauthenticate': (call) => {
        const { password } = call.body as { password: string };
        if (password !== 'Certa#2026') {
          return json(400, { Error: 'x', code: 'reauth-invalid-credentials' });
        }
        proved = true;
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<p>tela</p>);
    const created = api.post<{ key: string }>('api/Integration/keys', { name: 'Nova' });
    const dialog = await screen.findByRole('dialog', { name: 'Confirme a sua identidade' });
    expect(within(dialog).getByLabelText('E-mail')).toHaveValue(TEST_USER.email);
    // An account without a second factor is asked only for the password.
    expect(within(dialog).queryByRole('button', { name: /Usar código/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Usar chave de acesso' })).toBeNull();

    await userEvent.type(within(dialog).getByLabelText(/^Senha/), 'Errada#1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      AUTH_ERRORS['reauth-invalid-credentials'].message,
    );
    await userEvent.type(within(dialog).getByLabelText(/^Senha/), 'Certa#2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    await expect(created).resolves.toEqual({ key: 'k' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.path === '/api/Integration/keys')).toHaveLength(2);
    expect(appStore.getState().user?.email).toBe(TEST_USER.email);
  });

  it("another account's credentials are refused with the user-mismatch text; cancelling leaves the action undone", async () => {
    appStore.setUser(TEST_USER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubServer({
      'PUT /api/User/u1/role': () =>
        json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
      'POST /api/Auth/reauthenticate': () =>
        json(403, { Error: AUTH_ERRORS['user-mismatch'].message, code: 'user-mismatch' }),
    });
    renderWithProviders(<p>tela</p>);
    const change = api
      .put('api/User/u1/role', { role: 'auditor' })
      .catch((error: unknown) => error);
    const dialog = await screen.findByRole('dialog');
    const email = within(dialog).getByLabelText('E-mail');
    await userEvent.clear(email);
    await userEvent.type(email, 'outra.pessoa@exemplo.gov.br');
    await userEvent.type(within(dialog).getByLabelText(/^Senha/), 'Dela#2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'As credenciais informadas não pertencem ao usuário atual.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await change).toMatchObject({ code: 'reauth-required', message: REAUTH_DECLINED });
  });

  it('accepts the authenticator code or a recovery code instead of the password', async () => {
    appStore.setUser(TEST_USER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let proved = false;
    const calls = stubServer({
      'GET /api/Auth/factors': () =>
        json(200, {
          factors: [
            {
              id: 'f1',
              kind: 'totp',
              label: 'Celular',
              createdAt: '2026-11-28T10:00:00.000Z',
              lastUsedAt: null,
            },
          ],
          recoveryCodesLeft: 10,
          required: false,
        }),
      'DELETE /api/Auth/factors/f1': () =>
        proved
          ? new Response(null, { status: 204 })
          : json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
      'POST /api/Auth/reauthenticate': (call) => {
        const { code } = call.body as { code?: string };
        if (code !== 'ABCD-EFGH-23') return json(400, { Error: 'x', code: 'mfa-invalid-code' });
        proved = true;
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<p>tela</p>);
    const removal = api.delete('api/Auth/factors/f1');
    const dialog = await screen.findByRole('dialog', { name: 'Confirme a sua identidade' });
    await userEvent.click(
      await within(dialog).findByRole('button', {
        name: 'Usar código do aplicativo autenticador ou código de recuperação',
      }),
    );
    expect(within(dialog).queryByLabelText(/^Senha/)).toBeNull();
    const code = within(dialog).getByRole('textbox', {
      name: /Código do aplicativo autenticador ou de recuperação/,
    });
    await userEvent.type(code, '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      SECOND_FACTOR_ERRORS['mfa-invalid-code'].message,
    );
    await userEvent.type(code, 'ABCD-EFGH-23');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    await expect(removal).resolves.toBeUndefined();
    const proofs = calls.filter((call) => call.path === '/api/Auth/reauthenticate');
    expect(proofs.map((call) => call.body)).toEqual([
      { method: 'totp', code: '123456' },
      { method: 'recovery', code: 'ABCD-EFGH-23' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("offers the unit's identity providers: the browser leaves for the provider, remembering the page", async () => {
    appStore.setUser(TEST_USER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const assign = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      assign,
      origin: window.location.origin,
      pathname: '/auditoria/42',
      search: '',
    });
    stubServer({
      'GET /api/Auth/sso/providers': () =>
        json(200, [{ id: '7b0f1b9e-3f4c-4b7a-9a3e-1f2d3c4b5a69', name: 'gov.br' }]),
      'POST /api/Audit/42/reopen': () =>
        json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
    });
    renderWithProviders(<p>tela</p>);
    const reopen = api.post('api/Audit/42/reopen', {}).catch((error: unknown) => error);
    const dialog = await screen.findByRole('dialog', { name: 'Confirme a sua identidade' });
    await userEvent.click(
      await within(dialog).findByRole('button', { name: 'Confirmar com gov.br' }),
    );
    expect(assign).toHaveBeenCalledWith(
      expect.stringMatching(
        /api\/Auth\/sso\/7b0f1b9e-3f4c-4b7a-9a3e-1f2d3c4b5a69\/start\?purpose=reauth$/,
      ),
    );
    expect(JSON.parse(sessionStorage.getItem('exame_sso_reauth') ?? '{}')).toEqual({
      returnTo: '/auditoria/42',
    });
    // The action waits for the person to do it again, once back.
    expect(await reopen).toMatchObject({ code: 'reauth-required' });
    sessionStorage.clear();
  });

  it('an account with a passkey confirms with it', async () => {
    appStore.setUser(TEST_USER);
    let proved = false;
    const calls = stubServer({
      'GET /api/Auth/factors': () =>
        json(200, {
          factors: [
            {
              id: 'p1',
              kind: 'passkey',
              label: 'Notebook',
              createdAt: '2026-11-28T10:00:00.000Z',
              lastUsedAt: null,
            },
          ],
          recoveryCodesLeft: 0,
          required: false,
        }),
      'POST /api/Auth/recovery-codes': () =>
        proved
          ? json(200, { codes: [] })
          : json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
      'POST /api/Auth/reauthenticate/passkey/options': () => json(200, { challenge: 'desafio' }),
      'POST /api/Auth/reauthenticate': () => {
        proved = true;
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<p>tela</p>);
    const renewed = api.post('api/Auth/recovery-codes');
    const dialog = await screen.findByRole('dialog', { name: 'Confirme a sua identidade' });
    await userEvent.click(
      await within(dialog).findByRole('button', { name: 'Usar chave de acesso' }),
    );
    await expect(renewed).resolves.toEqual({ codes: [] });
    expect(calls.find((call) => call.path === '/api/Auth/reauthenticate')?.body).toEqual({
      credential: { id: 'chave', signed: 'desafio' },
    });
  });
});
