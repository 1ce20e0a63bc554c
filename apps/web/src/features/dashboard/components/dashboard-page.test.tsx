/**
 * The dashboard: one card per post named by its name and its own identifier,
 * the summary, search and filters, the exams behind a counter, the load
 * failure, the refresh timer, how much of a counter came from the delivery
 * system's metadata, and a chart that names every post.
 */
import { emptyCounters, emptyMetadataCounts, type LocalReport, type Role } from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { renderRoutes } from '../../../test/render';
import { DashboardPage } from './dashboard-page';
import { TEST_USER } from '../../../test/fixtures';

const LOCALS: LocalReport[] = [
  {
    id: 'DF.POSTO01',
    identifier: 'DEMO.POSTO01',
    name: 'Posto Centro',
    fromMetadata: emptyMetadataCounts(),
    report: {
      ...emptyCounters(),
      total: 12,
      finished: 9,
      approved: 6,
      reproved: 2,
      disqualified: 1,
    },
  },
  {
    id: 'DF.POSTO02',
    identifier: 'DEMO.POSTO02',
    name: 'Posto São Sebastião',
    fromMetadata: emptyMetadataCounts(),
    report: { ...emptyCounters(), total: 5, scheduled: 5 },
  },
];

function signIn(role: Role) {
  appStore.setUser({ ...TEST_USER, roleDescription: role });
}

type Call = { url: URL; authorization: string | null };

function stubApi(report: (url: URL) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const headers = new Headers(init?.headers);
    calls.push({ url, authorization: headers.get('authorization') });
    if (url.pathname === '/api/ExamReport/occurrences') {
      return new Response(JSON.stringify({ items: [], total: 0, page: 1, pageSize: 10 }), {
        status: 200,
      });
    }
    return report(url);
  });
  return calls;
}

function renderDashboard() {
  return renderRoutes(
    [
      { path: '/home', element: <DashboardPage /> },
      { path: '/exam-report/:id', element: <p>relatório</p> },
    ],
    '/home',
  );
}

describe('dashboard page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('asks for today in São Paulo with the offset and shows one card per post with its counters', async () => {
    signIn('ADMIN');
    const calls = stubApi(() => new Response(JSON.stringify(LOCALS), { status: 200 }));
    renderDashboard();
    const cards = await screen.findAllByTestId('local-card');
    expect(cards).toHaveLength(2);
    const first = cards[0];
    if (!first) throw new Error('sem card');
    expect(within(first).getByText('Posto Centro')).toBeInTheDocument();
    expect(within(first).getByText('Aprovados').closest('[data-counter]')).toHaveTextContent('6');
    const reportCall = calls.find((call) => call.url.pathname === '/api/ExamReport');
    expect(reportCall?.authorization).toBe(`Bearer ${TEST_USER.token}`);
    // The API's period contract: São Paulo days, sent as they are.
    expect(reportCall?.url.searchParams.get('startDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(reportCall?.url.searchParams.get('endDate')).toBe(
      reportCall?.url.searchParams.get('startDate'),
    );
    expect(screen.getByTestId('resume-total')).toHaveTextContent('17');
    expect(
      within(first).getByRole('link', { name: 'Abrir o relatório de Posto Centro' }),
    ).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/exam-report\/DF\.POSTO01\?startDate=\d{4}-\d{2}-\d{2}&endDate=/),
    );
  });

  it('searches the posts and filters them by counter', async () => {
    signIn('auditor');
    stubApi(() => new Response(JSON.stringify(LOCALS), { status: 200 }));
    renderDashboard();
    await screen.findAllByTestId('local-card');
    // AUDITOR sees the dashboard but not the admin-only report.
    expect(screen.queryByRole('link', { name: /Abrir o relatório/ })).toBeNull();

    await userEvent.type(screen.getByRole('textbox', { name: 'Buscar posto' }), 'sao seb');
    expect(screen.getAllByTestId('local-card').map((card) => card.dataset.localId)).toEqual([
      'DF.POSTO02',
    ]);
    await userEvent.clear(screen.getByRole('textbox', { name: 'Buscar posto' }));

    await userEvent.click(screen.getByTestId('resume-approved'));
    expect(screen.getAllByTestId('local-card').map((card) => card.dataset.localId)).toEqual([
      'DF.POSTO01',
    ]);
    expect(screen.getByRole('combobox', { name: 'Filtrar por' })).toHaveValue('Aprovados');
    // Keyboard: the summary counters are buttons.
    screen.getByTestId('resume-total').focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getAllByTestId('local-card')).toHaveLength(2);
    expect(screen.getByRole('combobox', { name: 'Filtrar por' })).toHaveValue('Todos os exames');
  });

  it('an auditor opens, page by page, the exams behind a counter of a post', async () => {
    signIn('auditor');
    const calls = stubApi((url) => {
      if (url.pathname === '/api/ExamReport/DF.POSTO01/exams') {
        return new Response(
          JSON.stringify({
            counter: 'approved',
            counterValue: 6,
            items: [
              {
                id: 'e1',
                schedulingId: 'DF-1',
                candidateName: 'Ana Lima',
                candidateCpf: '***.982.247-**',
                schedulingDate: '2026-11-20T12:00:00.000Z',
                status: 'done',
                result: 'approved',
                schedulingLocal: 'DETRANDF-POSTO01-S1',
                localId: 'DF.POSTO01',
                localName: 'Posto Centro',
                room: null,
                station: null,
                pendingAudit: 0,
                absence: 0,
                interrupted: 0,
                contribution: 1,
              },
            ],
            total: 6,
            page: 1,
            pageSize: 20,
          }),
          { status: 200 },
        );
      }
      return new Response(JSON.stringify(LOCALS), { status: 200 });
    });
    renderDashboard();
    await screen.findAllByTestId('local-card');
    await userEvent.click(
      screen.getByRole('button', { name: 'Ver os exames de aprovados em Posto Centro: 6' }),
    );
    expect(await screen.findByText('Ana Lima')).toBeInTheDocument();
    const request = calls.find((call) => call.url.pathname.endsWith('/exams'));
    expect(request?.url.searchParams.get('counter')).toBe('approved');
    expect(request?.url.searchParams.get('page')).toBe('1');
    expect(request?.url.searchParams.get('startDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await userEvent.click(screen.getByRole('button', { name: 'Fechar a lista de exames' }));
    expect(screen.queryByText('Ana Lima')).toBeNull();
  });

  it('names each post by its name and its own identifier, never by the report id', async () => {
    signIn('ADMIN');
    stubApi(() => new Response(JSON.stringify(LOCALS), { status: 200 }));
    renderDashboard();
    const [first] = await screen.findAllByTestId('local-card');
    expect(within(first!).getByText('DEMO.POSTO01')).toBeVisible();
    await userEvent.click(within(first!).getByRole('button', { name: /^Ocorrências/ }));
    expect(screen.getByTestId('selected-local')).toHaveTextContent(
      'Posto selecionado: Posto Centro (DEMO.POSTO01)',
    );
    // The report id stays in the API and the addresses, out of the text people read.
    expect(document.body).not.toHaveTextContent('DF.POSTO');
    // The search finds a post by the identifier on screen.
    await userEvent.type(screen.getByRole('textbox', { name: 'Buscar posto' }), 'demo.posto02');
    expect(screen.getAllByTestId('local-card').map((card) => card.dataset.localId)).toEqual([
      'DF.POSTO02',
    ]);
  });

  it('says how much of a counter came from the metadata where the numbers do not add up', async () => {
    signIn('ADMIN');
    // 9 finished and 10 pending audit: 5 of those came from the exams' metadata.
    const sobradinho: LocalReport = {
      id: 'DF.POSTO03',
      identifier: 'DEMO.POSTO03',
      name: 'Posto Sobradinho',
      report: { ...emptyCounters(), total: 11, finished: 9, pendingAudit: 10, absence: 2 },
      fromMetadata: { ...emptyMetadataCounts(), pendingAudit: 5, absence: 1 },
    };
    stubApi(() => new Response(JSON.stringify([...LOCALS, sobradinho]), { status: 200 }));
    renderDashboard();
    await screen.findAllByTestId('local-card');
    const tile = screen.getByTestId('resume-pendingAudit');
    expect(tile).toHaveTextContent(/^Pendentes de auditoria105 dos metadados$/);
    expect(within(screen.getByTestId('resume-finished')).queryByTestId('tile-metadata')).toBeNull();
    expect(screen.getByTestId('resume-absence')).toHaveTextContent('1 dos metadados');
    expect(screen.getByTestId('metadata-note')).toHaveTextContent(
      /mais pendentes de auditoria do que finalizados/,
    );
    const card = screen
      .getAllByTestId('local-card')
      .find((entry) => entry.dataset.localId === 'DF.POSTO03')!;
    expect(within(card).getByTestId('card-metadata')).toHaveTextContent(
      'Dos metadados do sistema de provas: 5 em Pendentes de auditoria, 1 em Ausentes.',
    );
    // A post without metadata says nothing more.
    const centro = screen
      .getAllByTestId('local-card')
      .find((entry) => entry.dataset.localId === 'DF.POSTO01')!;
    expect(within(centro).queryByTestId('card-metadata')).toBeNull();
  });

  it('the chart names every post', async () => {
    signIn('ADMIN');
    const many: LocalReport[] = Array.from({ length: 8 }, (_, index) => ({
      id: `DF.POSTO0${index + 1}`,
      identifier: `DEMO.POSTO0${index + 1}`,
      name: index === 7 ? 'Posto Centro' : `Posto ${index + 1}`,
      report: { ...emptyCounters(), total: index + 1 },
      fromMetadata: emptyMetadataCounts(),
    }));
    many[0] = { ...many[0]!, name: 'Posto Centro' };
    stubApi(() => new Response(JSON.stringify(many), { status: 200 }));
    renderDashboard();
    const chart = await screen.findByRole('img', { name: /^Gráfico de total de exames por posto/ });
    const label = chart.getAttribute('aria-label') ?? '';
    for (const local of many.slice(1, 7)) expect(label).toContain(`${local.name}, `);
    // Two posts of the same name are told apart by their identifiers.
    expect(label).toContain('Posto Centro (DEMO.POSTO01), 1');
    expect(label).toContain('Posto Centro (DEMO.POSTO08), 8');
  });

  it('a failed load opens the alert titled "Erro" with the spec message', async () => {
    signIn('ADMIN');
    stubApi(
      () =>
        new Response(
          JSON.stringify({ Error: 'Banco indisponível.', code: 'SERVICE_UNAVAILABLE' }),
          {
            status: 503,
          },
        ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDashboard();
    const modal = await screen.findByTestId('alert-modal');
    expect(within(modal).getByText('Erro')).toBeInTheDocument();
    expect(within(modal).getByTestId('alert-modal-message')).toHaveTextContent(
      'Falha ao carregar os dados dos Postos de Atendimento.',
    );
    expect(within(modal).getByText('Banco indisponível.')).toBeInTheDocument();
    await userEvent.click(within(modal).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());
  });

  it('stores the refresh interval in seconds under "timer"', async () => {
    signIn('ADMIN');
    stubApi(() => new Response(JSON.stringify(LOCALS), { status: 200 }));
    renderDashboard();
    await screen.findAllByTestId('local-card');
    const input = screen.getByRole('textbox', { name: /Atualizar a cada/ });
    await userEvent.clear(input);
    await userEvent.type(input, '3');
    await waitFor(() => expect(window.localStorage.getItem('timer')).toBe('180'));
    expect(screen.getByTestId('timer-countdown')).toHaveTextContent(
      /Próxima atualização em 0[23]:/,
    );
  });
});
