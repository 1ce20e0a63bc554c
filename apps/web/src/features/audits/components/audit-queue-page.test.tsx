/**
 * The audit queue (`/auditoria`): the rows in the server's order, the lowest
 * face similarity in pt-BR (or why there is none, in the exam page's words),
 * the post by its name, who holds each exam, every filter sent to the server
 * (and the list back on page 1), "Auditar" opening the exam, the empty text,
 * and the same exams as cards where the table would not fit.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SchedulingLocalPage } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { NARROW_TABLES_QUERY } from '../../../lib/use-wide-tables';
import { fakeMatchMedia } from '../../../test/match-media';
import { renderRoutes } from '../../../test/render';
import { AuditQueuePage } from './audit-queue-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';
import { AUDITOR, queueItemOf, queuePage } from '../../../test/audit-data';
import { signInForEachTest } from '../../../test/signed-in';

const QUEUE_PATH = '/api/Audit/queue';

const MINE = queueItemOf({
  id: 'e-mine',
  candidateName: 'Zeca Comigo',
  schedulingDate: '2026-11-20T15:00:00.000Z',
  faceMinSimilarity: 0.42,
  faceMinLevel: 'alta',
  occurrences: 2,
  claim: {
    examId: 'e-mine',
    schedulingId: 'DF-e-mine',
    auditorName: AUDITOR.name,
    mine: true,
    claimedAt: '2026-11-21T13:00:00.000Z',
    expiresAt: '2026-11-21T13:30:00.000Z',
  },
});
const OTHER = queueItemOf({
  id: 'e-other',
  candidateName: 'Ana Com Outra',
  schedulingDate: '2026-11-19T15:00:00.000Z',
  faceMinSimilarity: 0.875,
  faceMinLevel: 'alta',
  claim: {
    examId: 'e-other',
    schedulingId: 'DF-e-other',
    auditorName: 'Bia Auditora',
    mine: false,
    claimedAt: '2026-11-21T13:00:00.000Z',
    expiresAt: '2026-11-21T13:30:00.000Z',
  },
});
const FREE = queueItemOf({ id: 'e-free', candidateName: 'Maria Livre' });
const AWAITING = queueItemOf({
  id: 'e-awaiting',
  candidateName: 'Beto Aguardando',
  faceMinSimilarity: 0.1,
  faceMinLevel: 'baixa',
  awaitingConfirmation: { auditorName: 'Caio Auditor', outcome: 'disqualified' },
});
/** Not in any order the screen could make up: the screen keeps the server's. */
const ITEMS = [MINE, OTHER, FREE, AWAITING];

const POSTS: SchedulingLocalPage = {
  items: [
    {
      id: 'l1',
      identifier: 'DF.POSTO01',
      description: 'Posto Asa Sul',
      federativeUnit: 'DF',
      address: null,
      isActive: true,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: 200,
};

function renderPage() {
  return renderRoutes(
    [
      { path: '/auditoria', element: <AuditQueuePage /> },
      { path: '/auditoria/:id', element: <p>Tela de auditoria do exame</p> },
    ],
    '/auditoria',
  );
}

const queueCalls = (calls: Call[]) => calls.filter((call) => call.path === QUEUE_PATH);
const lastQuery = (calls: Call[]) => queueCalls(calls).at(-1)?.query;

async function rows() {
  const table = await screen.findByTestId('audit-queue');
  return within(table).getAllByRole('row').slice(1);
}

describe('audit queue', () => {
  signInForEachTest(AUDITOR);

  it('lists the rows in the server’s order with the lowest similarity in pt-BR and who holds each exam', async () => {
    const calls = stubServer({
      [`GET ${QUEUE_PATH}`]: () => json(200, queuePage(ITEMS)),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const list = await rows();
    expect(list.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Zeca ComigoDF-e-mine',
      'Ana Com OutraDF-e-other',
      'Maria LivreDF-e-free',
      'Beto AguardandoDF-e-awaiting',
    ]);
    // The first request: page 1, every filter at its default.
    expect(lastQuery(calls)).toEqual({ page: '1', pageSize: '20', stage: 'all', sort: 'oldest' });

    const headers = within(screen.getByTestId('audit-queue'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    const similarity = headers.indexOf('Menor semelhança');
    const situation = headers.indexOf('Situação');
    const cell = (row: HTMLElement, column: number) => within(row).getAllByRole('cell')[column]!;
    expect(list.map((row) => cell(row, similarity).textContent)).toEqual([
      'Similaridade alta0,42',
      'Similaridade alta0,88',
      'Aguardando leitura facial',
      'Similaridade baixa0,10',
    ]);
    expect(cell(list[0]!, situation)).toHaveTextContent(/^Com você$/);
    expect(cell(list[1]!, situation)).toHaveTextContent(/^Com Bia Auditora$/);
    expect(cell(list[2]!, situation)).toHaveTextContent(/^Livre$/);
    // Awaiting a second auditor: what and whose, and not "Livre".
    expect(cell(list[3]!, situation)).toHaveTextContent(
      /^Confirmar desclassificação de Caio Auditor$/,
    );
    // The candidate's CPF is masked, occurrences counted.
    expect(list[0]).toHaveTextContent('***.982.247-**');
    expect(cell(list[0]!, headers.indexOf('Ocorrências'))).toHaveTextContent(/^2$/);
    expect(cell(list[2]!, headers.indexOf('Ocorrências'))).toHaveTextContent(/^—$/);
  });

  it('names the post, keeps each CPF on one line and says why there is no similarity as the exam page does', async () => {
    const items = [
      queueItemOf({ id: 'e-noface', candidateName: 'Sem Rosto', faceState: 'no_face' }),
      queueItemOf({
        id: 'e-noref',
        candidateName: 'Sem Referência',
        faceState: 'no_reference',
        localName: null,
        schedulingLocal: 'DF.POSTO99-S2',
      }),
      queueItemOf({
        id: 'e-long',
        candidateName: 'Com Auditor De Nome Comprido',
        claim: {
          examId: 'e-long',
          schedulingId: 'DF-e-long',
          auditorName: 'Maria Aparecida dos Santos Auditora',
          mine: false,
          claimedAt: '2026-11-21T13:00:00.000Z',
          expiresAt: '2026-11-21T13:30:00.000Z',
        },
      }),
    ];
    stubServer({
      [`GET ${QUEUE_PATH}`]: () => json(200, queuePage(items)),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const list = await rows();
    const headers = within(screen.getByTestId('audit-queue'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    const cell = (row: HTMLElement, header: string) =>
      within(row).getAllByRole('cell')[headers.indexOf(header)]!;
    // The post by its name, as the other lists; its local only when no post names it.
    expect(cell(list[0]!, 'Posto')).toHaveTextContent(/^Posto Asa Sul$/);
    expect(list[0]).not.toHaveTextContent('DF.POSTO01-S1');
    expect(cell(list[1]!, 'Posto')).toHaveTextContent(/^DF.POSTO99-S2$/);
    // "Rosto não encontrado", the words of the exam page's capture badges, not "—".
    expect(cell(list[0]!, 'Menor semelhança')).toHaveTextContent(/^Rosto não encontrado$/);
    expect(cell(list[1]!, 'Menor semelhança')).toHaveTextContent(/^Sem foto de referência$/);
    // A CPF never breaks; a long auditor name wraps whole instead of ending in "…".
    expect(cell(list[0]!, 'CPF')).toHaveStyle({ whiteSpace: 'nowrap' });
    const holder = within(cell(list[2]!, 'Situação')).getByText(
      'Com Maria Aparecida dos Santos Auditora',
    );
    expect(holder).toHaveStyle({ whiteSpace: 'normal' });
  });

  it('where the table would scroll sideways, each exam is a card with the same facts', async () => {
    vi.stubGlobal(
      'matchMedia',
      fakeMatchMedia((query) => query === NARROW_TABLES_QUERY),
    );
    stubServer({
      [`GET ${QUEUE_PATH}`]: () =>
        json(
          200,
          queuePage([
            OTHER,
            queueItemOf({ id: 'e-x', candidateName: 'Xis', faceState: 'no_face' }),
          ]),
        ),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const cards = await screen.findAllByTestId('audit-queue-card');
    expect(screen.queryByTestId('audit-queue')).toBeNull();
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Ana Com Outra');
    expect(cards[0]).toHaveTextContent('Posto Asa Sul');
    expect(cards[0]).toHaveTextContent('Similaridade alta');
    expect(cards[0]).toHaveTextContent('Com Bia Auditora');
    expect(cards[1]).toHaveTextContent('Rosto não encontrado');
    expect(
      within(cards[0]!).getByRole('button', { name: 'Auditar o exame de Ana Com Outra' }),
    ).toBeVisible();
  });

  const FILTERS: Array<[string, () => Promise<void>, Record<string, string>]> = [
    [
      'Etapa: Confirmação',
      () => userEvent.click(screen.getByRole('radio', { name: 'Confirmação' })),
      { stage: 'confirmation' },
    ],
    [
      'Ordem: menor semelhança',
      async () => {
        await userEvent.click(screen.getByRole('combobox', { name: 'Ordem' }));
        await userEvent.click(
          await screen.findByRole('option', { name: 'Menor semelhança facial primeiro' }),
        );
      },
      { sort: 'similarity' },
    ],
    [
      'Só os livres',
      () => userEvent.click(screen.getByRole('checkbox', { name: 'Só os livres' })),
      { onlyFree: 'true' },
    ],
    [
      'Só com ocorrências',
      () => userEvent.click(screen.getByRole('checkbox', { name: 'Só com ocorrências' })),
      { withOccurrences: 'true' },
    ],
    [
      'Posto',
      async () => {
        await userEvent.click(screen.getByRole('combobox', { name: 'Posto' }));
        await userEvent.click(await screen.findByRole('option', { name: 'Posto Asa Sul' }));
      },
      { schedulingLocal: 'DF.POSTO01' },
    ],
  ];

  it.each(FILTERS)(
    '%s goes to the server and brings the list back to page 1',
    async (_, apply, sent) => {
      const calls = stubServer({
        [`GET ${QUEUE_PATH}`]: (call) =>
          json(200, queuePage(ITEMS, { total: 45, page: Number(call.query.page) })),
        'GET /api/SchedulingLocal': () => json(200, POSTS),
      });
      renderPage();
      await rows();
      await userEvent.click(
        within(screen.getByLabelText('Páginas')).getByRole('button', { name: 'Página 2' }),
      );
      await waitFor(() => expect(lastQuery(calls)?.page).toBe('2'));
      await apply();
      await waitFor(() =>
        expect(lastQuery(calls)).toEqual({
          page: '1',
          pageSize: '20',
          stage: 'all',
          sort: 'oldest',
          ...sent,
        }),
      );
    },
  );

  it('"Auditar" opens the exam at /auditoria/:id', async () => {
    stubServer({
      [`GET ${QUEUE_PATH}`]: () => json(200, queuePage(ITEMS)),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    const { router } = renderPage();
    await rows();
    await userEvent.click(screen.getByRole('button', { name: 'Auditar o exame de Ana Com Outra' }));
    expect(await screen.findByText('Tela de auditoria do exame')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auditoria/e-other');
  });

  it('an ADMIN reads the queue: "Ver" instead of "Auditar", no links to my audit', async () => {
    appStore.setUser({ ...AUDITOR, roleDescription: 'ADMIN' });
    stubServer({
      [`GET ${QUEUE_PATH}`]: () => json(200, queuePage(ITEMS)),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const [first] = await rows();
    expect(
      within(first!).getByRole('button', { name: 'Ver o exame de Zeca Comigo' }),
    ).toHaveTextContent('Ver');
    expect(screen.queryByRole('button', { name: /^Auditar/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Minha auditoria' })).toBeNull();
  });

  it('an empty queue says so', async () => {
    stubServer({
      [`GET ${QUEUE_PATH}`]: () => json(200, queuePage([])),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    expect(
      await screen.findByText('Nenhum exame aguardando auditoria com esses filtros.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('audit-queue')).toBeNull();
    // The auditor's own lists are one click away.
    expect(screen.getByRole('link', { name: 'Minha auditoria' })).toHaveAttribute(
      'href',
      '/minha-auditoria',
    );
    expect(screen.getByRole('link', { name: 'Minha auditoria de fotos' })).toHaveAttribute(
      'href',
      '/minha-auditoria-de-fotos',
    );
  });
});
