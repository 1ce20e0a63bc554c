import type { IdentityProvider } from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { IdentityProvidersPage } from './identity-providers-page';

const govbr: IdentityProvider = {
  id: '7b0f1b9e-3f4c-4b7a-9a3e-1f2d3c4b5a69',
  name: 'gov.br',
  issuer: 'https://sso.acesso.gov.br',
  clientId: 'exame-df',
  hasClientSecret: true,
  allowedDomains: [],
  cpfClaim: 'sub',
  enabled: true,
  redirectUri: 'https://exame.df.gov.br/api/Auth/sso/callback',
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
};

describe('identity providers page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each provider with the return address to register at the provider', async () => {
    stubServer({ 'GET /api/IdentityProvider': () => json(200, [govbr]) });
    renderWithProviders(<IdentityProvidersPage />);
    const list = await screen.findByRole('list', { name: 'Provedores de identidade' });
    expect(within(list).getByText('gov.br', { selector: 'p' })).toBeInTheDocument();
    expect(within(list).getByText(govbr.redirectUri)).toBeInTheDocument();
    expect(within(list).getByText('Qualquer e-mail')).toBeInTheDocument();
    expect(within(list).getByText('Oferecido')).toBeInTheDocument();
  });

  it('says when there is none', async () => {
    stubServer({ 'GET /api/IdentityProvider': () => json(200, []) });
    renderWithProviders(<IdentityProvidersPage />);
    expect(
      await screen.findByText('Nenhum provedor cadastrado: todos entram com e-mail e senha.'),
    ).toBeInTheDocument();
  });

  it('checks the form with the server rules, then saves domains one per line', async () => {
    const calls = stubServer({
      'GET /api/IdentityProvider': () => json(200, []),
      'POST /api/IdentityProvider': (call) => json(201, { ...govbr, ...(call.body as object) }),
    });
    renderWithProviders(<IdentityProvidersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Novo provedor' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Nome no botão/), 'Rede do Estado');
    await userEvent.type(within(dialog).getByLabelText(/Emissor/), 'sso.df.gov.br');
    await userEvent.type(within(dialog).getByLabelText(/Client id/), 'exame');
    await userEvent.type(
      within(dialog).getByLabelText(/Domínios autorizados/),
      'df.gov.br\n@detran',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(within(dialog).getByText(/começando com https:\/\//)).toBeInTheDocument();
    expect(within(dialog).getByText(/Domínio inválido/)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    const issuer = within(dialog).getByLabelText(/Emissor/);
    await userEvent.clear(issuer);
    await userEvent.type(issuer, 'https://sso.df.gov.br/realms/detran');
    const domains = within(dialog).getByLabelText(/Domínios autorizados/);
    await userEvent.clear(domains);
    await userEvent.type(domains, 'df.gov.br\ndetran.df.gov.br');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Rede do Estado',
      issuer: 'https://sso.df.gov.br/realms/detran',
      clientId: 'exame',
      allowedDomains: ['df.gov.br', 'detran.df.gov.br'],
      cpfClaim: null,
      enabled: true,
    });
  });

  it('removes a provider only after a confirmation', async () => {
    const calls = stubServer({
      'GET /api/IdentityProvider': () => json(200, [govbr]),
      [`DELETE /api/IdentityProvider/${govbr.id}`]: () => new Response(null, { status: 204 }),
    });
    renderWithProviders(<IdentityProvidersPage />);
    await screen.findByRole('list', { name: 'Provedores de identidade' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remover gov.br' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('passam a entrar com e-mail e senha');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });
});
