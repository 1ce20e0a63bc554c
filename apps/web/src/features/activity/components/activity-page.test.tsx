import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityItemOf } from '../../../test/activity-data';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { ActivityPage } from './activity-page';

afterEach(() => vi.unstubAllGlobals());

describe('activity screen', () => {
  it('lists the events, filters biometric accesses by CPF, shows details and the chain check', async () => {
    const user = userEvent.setup();
    const calls = stubServer({
      'GET /api/ActivityLog': (call) =>
        json(200, {
          items: call.query.type
            ? [
                activityItemOf(7, {
                  type: 'face_image_view',
                  target: '***.456.789-**',
                  details: { purpose: 'auditoria' },
                }),
              ]
            : [activityItemOf(2), activityItemOf(1)],
          total: call.query.type ? 1 : 2,
          page: 1,
          pageSize: 50,
        }),
      'GET /api/ActivityLog/verify': () =>
        json(200, {
          ok: false,
          checked: 12,
          firstBroken: {
            id: 'x-1',
            seq: 5,
            createdAt: '2026-11-26T08:00:00.000Z',
            reason: 'hash não confere',
          },
        }),
    });
    renderWithProviders(<ActivityPage />);

    const table = await screen.findByTestId('activity-table');
    expect(within(table).getAllByText('Página acessada')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Acessos a dados biométricos' }));
    await user.type(screen.getByLabelText('Alvo'), '12345678909');
    await waitFor(() =>
      expect(calls.at(-1)?.query).toMatchObject({
        type: 'face_image_view,photo_view,cpf_view',
        target: '12345678909',
        page: '1',
        pageSize: '50',
      }),
    );
    expect(
      await within(screen.getByTestId('activity-table')).findByText('Imagem facial vista'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Detalhes do evento 7' }));
    const details = await screen.findByTestId('activity-details');
    expect(within(details).getByText('a'.repeat(64))).toBeInTheDocument();
    expect(within(details).getByTestId('activity-details-json').textContent).toContain(
      '"purpose": "auditoria"',
    );
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Verificar integridade' }));
    const verdict = await screen.findByTestId('verify-result');
    expect(verdict).toHaveTextContent('Registro violado');
    expect(verdict).toHaveTextContent('evento 5');
    expect(verdict).toHaveTextContent('hash não confere');
  });

  it('filters by who and by period, and pages; a new filter goes back to page 1', async () => {
    const user = userEvent.setup();
    const calls = stubServer({
      'GET /api/ActivityLog': (call) =>
        json(200, {
          items: [activityItemOf(Number(call.query.page ?? 1) * 100)],
          total: 120,
          page: Number(call.query.page ?? 1),
          pageSize: 50,
        }),
    });
    renderWithProviders(<ActivityPage />);
    await screen.findByTestId('activity-table');

    const pages = screen.getByLabelText('Páginas');
    await user.click(within(pages).getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(calls.at(-1)?.query).toMatchObject({ page: '2' }));

    await user.type(screen.getByLabelText('Quem'), 'ana@exemplo');
    await waitFor(() =>
      expect(calls.at(-1)?.query).toMatchObject({ actor: 'ana@exemplo', page: '1' }),
    );

    await user.click(screen.getByLabelText('Período'));
    await user.click(await screen.findByRole('button', { name: 'Últimos 7 dias' }));
    await waitFor(() => expect(calls.at(-1)?.query.from).toMatch(/^\d{4}-\d{2}-\d{2}$/));
    const { from, to, actor } = calls.at(-1)!.query;
    expect(actor).toBe('ana@exemplo');
    expect(Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)).toBe(6 * 86_400_000);
  });

  it('says so when nothing is found, and shows the error of a failed search', async () => {
    stubServer({
      'GET /api/ActivityLog': () => json(200, { items: [], total: 0, page: 1, pageSize: 50 }),
    });
    renderWithProviders(<ActivityPage />);
    expect(
      await screen.findByText('Nenhuma atividade encontrada com esses filtros.'),
    ).toBeInTheDocument();
  });

  it('shows the server refusal', async () => {
    stubServer({
      'GET /api/ActivityLog': () =>
        json(403, { Error: 'Acesso restrito ao administrador.', code: 'FORBIDDEN' }),
    });
    renderWithProviders(<ActivityPage />);
    expect(await screen.findByText('Acesso restrito ao administrador.')).toBeInTheDocument();
  });

  it("lists by the server's time, and shows the browser's clock beside it when they disagree", async () => {
    stubServer({
      'GET /api/ActivityLog': () =>
        json(200, {
          items: [
            activityItemOf(3, { occurredAt: '2001-01-01T12:00:00.000Z' }),
            activityItemOf(2, {
              type: 'user_add',
              target: 'user:1',
              occurredAt: '2001-01-01T12:00:00.000Z',
            }),
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        }),
    });
    renderWithProviders(<ActivityPage />);
    const table = await screen.findByTestId('activity-table');
    const [browser, server] = within(table).getAllByRole('row').slice(1);
    expect(browser).toHaveTextContent(/26\/11\/2026/);
    expect(browser).toHaveTextContent(/no navegador: 01\/01\/2001/);
    expect(server).not.toHaveTextContent(/no navegador/);
  });
});
