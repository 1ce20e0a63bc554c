import {
  AUTH_ERRORS,
  SECOND_FACTOR_ERRORS,
  type SecondFactor,
  type SecondFactorStatus,
} from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TEST_USER } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { signInForEachTest } from '../../../test/signed-in';
import { json, stubServer } from '../../../test/stub-server';
import { SecurityPage } from './security-page';

const webauthn = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => false),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const phone: SecondFactor = {
  id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  kind: 'totp',
  label: 'Celular pessoal',
  createdAt: '2026-11-20T12:30:00.000Z',
  lastUsedAt: null,
};
const laptop: SecondFactor = {
  id: '6b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
  kind: 'passkey',
  label: 'Notebook',
  createdAt: '2026-11-21T09:00:00.000Z',
  lastUsedAt: '2026-11-21T10:00:00.000Z',
};
const status = (factors: SecondFactor[], extra: Partial<SecondFactorStatus> = {}) =>
  json(200, { factors, recoveryCodesLeft: 8, required: true, ...extra });
const codes = Array.from({ length: 10 }, (_, index) => `NEW-${index}AAA-BB`);

describe('account security page', () => {
  signInForEachTest(TEST_USER);

  it('lists the factors with their kind, dates and the recovery codes left', async () => {
    stubServer({ 'GET /api/Auth/factors': () => status([phone, laptop]) });
    renderWithProviders(<SecurityPage />);
    const list = await screen.findByRole('list', { name: 'Segundos fatores' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Celular pessoal');
    expect(cards[0]).toHaveTextContent('Aplicativo autenticador');
    expect(cards[0]).toHaveTextContent('Nunca');
    expect(cards[1]).toHaveTextContent('Chave de acesso (passkey)');
    expect(screen.getByText('Obrigatória para o seu perfil')).toBeInTheDocument();
    expect(screen.getByTestId('recovery-codes-left')).toHaveTextContent(
      'Restam 8 de 10 códigos de recuperação.',
    );
    // jsdom has no WebAuthn: the button says why it is off.
    expect(screen.getByRole('button', { name: 'Adicionar chave de acesso' })).toBeDisabled();
    expect(screen.getByText(/Este navegador não oferece chaves de acesso/)).toBeInTheDocument();
  });

  it('says when there is no factor yet', async () => {
    stubServer({
      'GET /api/Auth/factors': () => status([], { required: false, recoveryCodesLeft: 0 }),
    });
    renderWithProviders(<SecurityPage />);
    expect(
      await screen.findByText(
        'Nenhum segundo fator cadastrado: hoje a sua conta entra só com a senha.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Opcional para o seu perfil')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gerar novos códigos' })).toBeDisabled();
  });

  it('removes a factor only after a confirmation', async () => {
    let factors = [phone, laptop];
    const calls = stubServer({
      'GET /api/Auth/factors': () => status(factors),
      [`DELETE /api/Auth/factors/${phone.id}`]: () => {
        factors = [laptop];
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<SecurityPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Celular pessoal' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('deixa de servir para entrar');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remover Celular pessoal' })).toBeNull(),
    );
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('the last factor of a role that requires one stays, with the reason', async () => {
    stubServer({
      'GET /api/Auth/factors': () => status([phone]),
      [`DELETE /api/Auth/factors/${phone.id}`]: () =>
        json(409, { Error: 'x', code: 'mfa-last-factor' }),
    });
    renderWithProviders(<SecurityPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Celular pessoal' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remover' }),
    );
    expect(
      await screen.findByText(SECOND_FACTOR_ERRORS['mfa-last-factor'].message),
    ).toBeInTheDocument();
  });

  it('asks for the password again before a removal when the server wants it', async () => {
    let proved = false;
    const calls = stubServer({
      'GET /api/Auth/factors': () => status([phone, laptop]),
      [`DELETE /api/Auth/factors/${phone.id}`]: () =>
        proved
          ? new Response(null, { status: 204 })
          : json(403, { Error: AUTH_ERRORS['reauth-required'].message, code: 'reauth-required' }),
      'POST /api/Auth/reauthenticate': () => {
        proved = true;
        return new Response(null, { status: 204 });
      },
    });
    renderWithProviders(<SecurityPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Celular pessoal' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remover' }),
    );
    const reauth = await screen.findByRole('dialog', { name: 'Confirme a sua identidade' });
    await userEvent.type(within(reauth).getByLabelText(/^Senha/), 'Certa#2026');
    await userEvent.click(within(reauth).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(2));
  });

  it('adds an authenticator app; the first factor shows its recovery codes once', async () => {
    const calls = stubServer({
      'GET /api/Auth/factors': () => status([], { required: false, recoveryCodesLeft: 0 }),
      'POST /api/Auth/factors/totp': () =>
        json(200, {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
        }),
      'POST /api/Auth/factors': () => json(201, { factor: phone, recoveryCodes: codes }),
    });
    renderWithProviders(<SecurityPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Adicionar aplicativo autenticador' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Adicionar aplicativo autenticador' });
    expect(
      await within(dialog).findByRole('img', { name: 'Código QR para o aplicativo autenticador' }),
    ).toBeInTheDocument();
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Código do aplicativo autenticador/ }),
      '123456',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    const panel = await within(dialog).findByTestId('recovery-codes');
    expect(within(panel).getAllByRole('listitem')).toHaveLength(10);
    expect(
      calls.find((call) => call.path === '/api/Auth/factors' && call.method === 'POST')?.body,
    ).toEqual({
      method: 'totp',
      code: '123456',
    });
    await userEvent.click(within(panel).getByLabelText('Guardei os códigos em lugar seguro'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Concluir' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('makes new recovery codes after a confirmation, shown once', async () => {
    const calls = stubServer({
      'GET /api/Auth/factors': () => status([phone]),
      'POST /api/Auth/recovery-codes': () => json(200, { codes }),
    });
    renderWithProviders(<SecurityPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Gerar novos códigos' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('deixam de funcionar');
    expect(calls.some((call) => call.path === '/api/Auth/recovery-codes')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Gerar novos códigos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Novos códigos de recuperação' });
    expect(within(dialog).getByText('NEW-0AAA-BB')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Concluir' })).toBeDisabled();
  });
});
