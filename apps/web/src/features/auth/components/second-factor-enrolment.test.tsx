import { SECOND_FACTOR_ERRORS, type MfaChallenge } from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
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

const ticket = 'ticket-de-cadastro-0123456789abcdef';
const challenge: MfaChallenge = {
  ticket,
  enrolment: true,
  methods: [],
  expiresAt: '2026-11-21T10:10:00.000Z',
};
const codes = Array.from({ length: 10 }, (_, index) => `CODE-${index}000-XY`);
const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
  otpauthUri: 'otpauth://totp/Exame:ana@exemplo.gov.br?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
};

describe('enrolment of a second factor at sign-in', () => {
  const { renderLogin, signInWithPassword } = secondStepScreen(
    challenge,
    'Cadastre a verificação em duas etapas',
  );

  it('sets up the app (QR code and secret), shows the recovery codes, and signs in once they are kept', async () => {
    const { router, calls } = renderLogin({
      'POST /api/Auth/mfa/enrol/totp': () => json(200, setup),
      'POST /api/Auth/mfa/enrol': () => json(200, { ...user, recoveryCodes: codes }),
    });
    const heading = await signInWithPassword();
    await waitFor(() => expect(heading).toHaveFocus());
    expect(
      screen.getByText(SECOND_FACTOR_ERRORS['multi-factor-enrolment-required'].message),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Aplicativo autenticador/ }));
    expect(
      await screen.findByRole('img', { name: 'Código QR para o aplicativo autenticador' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    await userEvent.type(
      screen.getByRole('textbox', { name: /Código do aplicativo autenticador/ }),
      '123456',
    );
    await userEvent.type(screen.getByRole('textbox', { name: /Nome do dispositivo/ }), 'Celular');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));

    const panel = await screen.findByTestId('recovery-codes');
    expect(
      within(panel).getByRole('heading', { name: 'Guarde os códigos de recuperação' }),
    ).toBeInTheDocument();
    const list = within(panel).getByRole('list', { name: 'Códigos de recuperação' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(within(panel).getByRole('button', { name: 'Copiar' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Baixar (.txt)' })).toBeInTheDocument();
    // No session before the codes are kept.
    expect(appStore.getState().user).toBeNull();
    const next = within(panel).getByRole('button', { name: 'Continuar' });
    expect(next).toBeDisabled();
    await userEvent.click(within(panel).getByLabelText('Guardei os códigos em lugar seguro'));
    expect(next).toBeEnabled();
    await userEvent.click(next);

    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(appStore.getState().user?.email).toBe(user.email);
    expect(appStore.getState().user).not.toHaveProperty('recoveryCodes');
    expect(calls.find((call) => call.path === '/api/Auth/mfa/enrol')?.body).toEqual({
      ticket,
      method: 'totp',
      code: '123456',
      label: 'Celular',
    });
  });

  it('a wrong first code shows its text and keeps the set-up', async () => {
    renderLogin({
      'POST /api/Auth/mfa/enrol/totp': () => json(200, setup),
      'POST /api/Auth/mfa/enrol': () => json(400, { Error: 'x', code: 'mfa-invalid-code' }),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: /Aplicativo autenticador/ }));
    const code = await screen.findByRole('textbox', { name: /Código do aplicativo autenticador/ });
    await userEvent.type(code, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(screen.getByText('Informe os 6 dígitos do código.')).toBeInTheDocument();
    await userEvent.type(code, '3456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      SECOND_FACTOR_ERRORS['mfa-invalid-code'].message,
    );
    expect(screen.getByTestId('totp-qr')).toBeInTheDocument();
  });

  it('enrols a passkey made by the browser', async () => {
    const creation = { challenge: 'xyz', rp: { name: 'Exame' }, user: { id: 'u', name: 'ana' } };
    webauthn.startRegistration.mockResolvedValue({ id: 'new-cred', type: 'public-key' });
    const { calls } = renderLogin({
      'POST /api/Auth/mfa/enrol/passkey/options': () => json(200, creation),
      'POST /api/Auth/mfa/enrol': () => json(200, { ...user, recoveryCodes: codes }),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: /Chave de acesso/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Criar chave de acesso' }));
    expect(await screen.findByTestId('recovery-codes')).toBeInTheDocument();
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: creation });
    expect(calls.find((call) => call.path === '/api/Auth/mfa/enrol')?.body).toEqual({
      ticket,
      method: 'passkey',
      credential: { id: 'new-cred', type: 'public-key' },
    });
  });

  it('an expired ticket goes back to the password form with its text', async () => {
    renderLogin({
      'POST /api/Auth/mfa/enrol/totp': () => json(401, { Error: 'x', code: 'mfa-ticket-invalid' }),
    });
    await signInWithPassword();
    await userEvent.click(screen.getByRole('button', { name: /Aplicativo autenticador/ }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent(
      SECOND_FACTOR_ERRORS['mfa-ticket-invalid'].message,
    );
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeInTheDocument();
  });
});
