import { SECOND_FACTOR_ERRORS, type MfaChallenge } from '@exame/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { TEST_USER as user } from '../../../test/fixtures';
import { secondStepScreen } from '../../../test/login-second-step';
import { json } from '../../../test/stub-server';

const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const challenge: MfaChallenge = {
  ticket: 'ticket-de-segundo-fator-0123456789',
  enrolment: false,
  methods: ['totp', 'passkey', 'recovery'],
  expiresAt: '2026-11-21T10:10:00.000Z',
};

const mfaRequired = (mfa: MfaChallenge = challenge) =>
  json(401, {
    Error: SECOND_FACTOR_ERRORS['multi-factor-auth-required'].message,
    code: 'multi-factor-auth-required',
    mfa,
  });

describe('login, second step', () => {
  const { renderLogin, signInWithPassword } = secondStepScreen(
    challenge,
    'Verificação em duas etapas',
  );

  it('after the right password asks for the app code, then signs in with the ticket', async () => {
    const { router, calls } = renderLogin({
      'POST /api/Auth/mfa/verify': () => json(200, user),
    });
    const heading = await signInWithPassword();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.queryByLabelText(/^Senha/)).toBeNull();
    expect(screen.queryByTestId('login-error')).toBeNull();
    const code = screen.getByRole('textbox', { name: /Código do aplicativo autenticador/ });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');

    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls.find((call) => call.path === '/api/Auth/mfa/verify')?.body).toEqual({
      ticket: challenge.ticket,
      method: 'totp',
      code: '123456',
    });
    expect(appStore.getState().user?.email).toBe(user.email);
  });

  it('a wrong code shows its text and keeps the panel for another try', async () => {
    let attempts = 0;
    const { router } = renderLogin({
      'POST /api/Auth/mfa/verify': () =>
        ++attempts === 1 ? json(400, { Error: 'x', code: 'mfa-invalid-code' }) : json(200, user),
    });
    await signInWithPassword();
    const code = screen.getByRole('textbox', { name: /Código do aplicativo autenticador/ });
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(screen.getByText('Informe o código.')).toBeInTheDocument();
    expect(attempts).toBe(0);

    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      SECOND_FACTOR_ERRORS['mfa-invalid-code'].message,
    );
    expect(screen.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeInTheDocument();
    expect(code).toHaveValue('');
    expect(appStore.getState().user).toBeNull();

    await userEvent.type(code, '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('switches to a recovery code, sent as method "recovery"', async () => {
    const { calls, router } = renderLogin({
      'POST /api/Auth/mfa/verify': () => json(200, user),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Usar um código de recuperação' }));
    expect(screen.queryByRole('textbox', { name: /Código do aplicativo/ })).toBeNull();
    const code = screen.getByRole('textbox', { name: 'Código de recuperação' });
    await waitFor(() => expect(code).toHaveFocus());
    await userEvent.type(code, 'ABCD-EFGH-23');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(calls.find((call) => call.path === '/api/Auth/mfa/verify')?.body).toEqual({
      ticket: challenge.ticket,
      method: 'recovery',
      code: 'ABCD-EFGH-23',
    });
  });

  it('a ticket no longer valid goes back to the password form with its text', async () => {
    renderLogin({
      'POST /api/Auth/mfa/verify': () => json(401, { Error: 'x', code: 'mfa-ticket-invalid' }),
    });
    await signInWithPassword();
    await userEvent.type(
      screen.getByRole('textbox', { name: /Código do aplicativo autenticador/ }),
      '123456',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      SECOND_FACTOR_ERRORS['mfa-ticket-invalid'].message,
    );
    expect(screen.getByLabelText(/^Senha/)).toHaveValue('');
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('ana@exemplo.gov.br');
  });

  it('"Voltar" returns to the password form without an error', async () => {
    renderLogin({});
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).toBeNull();
  });

  it('signs in with a passkey: options, the browser, then the answer', async () => {
    const requestOptions = { challenge: 'abc', rpId: 'localhost', allowCredentials: [] };
    webauthn.startAuthentication.mockResolvedValue({ id: 'cred-1', type: 'public-key' });
    const { router, calls } = renderLogin({
      'POST /api/Auth/mfa/passkey/options': () => json(200, requestOptions),
      'POST /api/Auth/mfa/passkey': () => json(200, user),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Usar chave de acesso' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: requestOptions });
    expect(calls.find((call) => call.path === '/api/Auth/mfa/passkey')?.body).toEqual({
      ticket: challenge.ticket,
      credential: { id: 'cred-1', type: 'public-key' },
    });
  });

  it('a passkey cancelled in the browser says so, and the code still works', async () => {
    webauthn.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    renderLogin({
      'POST /api/Auth/mfa/passkey/options': () => json(200, { challenge: 'abc' }),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Usar chave de acesso' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A chave de acesso não foi usada: a janela foi fechada ou o tempo acabou.',
    );
    expect(
      screen.getByRole('textbox', { name: /Código do aplicativo autenticador/ }),
    ).toBeInTheDocument();
  });

  it('offers no passkey button when the account has none', async () => {
    renderLogin({
      'POST /api/Auth': () => mfaRequired({ ...challenge, methods: ['totp', 'recovery'] }),
    });
    await signInWithPassword();
    expect(screen.queryByRole('button', { name: 'Usar chave de acesso' })).toBeNull();
  });
});
