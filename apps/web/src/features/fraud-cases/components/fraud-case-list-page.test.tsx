/**
 * The list of possible-fraud cases (`/possiveis-fraudes`): the open cases
 * first asked for, each row with its facts and a link that opens the case,
 * the filters sent to the server, the same cases as cards where the table
 * would not fit, and the empty text.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NARROW_TABLES_QUERY } from '../../../lib/use-wide-tables';
import { AUDITOR } from '../../../test/audit-data';
import { caseSummaryOf, casePageOf } from '../../../test/fraud-case-data';
import { fakeMatchMedia } from '../../../test/match-media';
import { renderRoutes } from '../../../test/render';
import { signInForEachTest } from '../../../test/signed-in';
import { json, stubServer, type StubCall } from '../../../test/stub-server';
import { FraudCaseListPage, PHONE_QUERY } from './fraud-case-list-page';

const LIST_PATH = '/api/FraudCase';
const POSTS = { items: [], total: 0, page: 1, pageSize: 200 };

const OPEN = caseSummaryOf();
const SENT = caseSummaryOf({
  id: 'f2',
  number: 5,
  status: 'confirmed',
  posts: ['Posto Asa Sul'],
  firstDate: '2026-11-10',
  lastDate: '2026-11-10',
  highestSimilarity: 0.88,
  sentToAuditAt: '2026-11-12T15:00:00.000Z',
});

function renderPage() {
  return renderRoutes(
    [
      { path: '/possiveis-fraudes', element: <FraudCaseListPage /> },
      { path: '/possiveis-fraudes/:id', element: <p>Tela do caso</p> },
    ],
    '/possiveis-fraudes',
  );
}

const listCalls = (calls: StubCall[]) => calls.filter((call) => call.path === LIST_PATH);

describe('possible-fraud cases list', () => {
  signInForEachTest(AUDITOR);

  it('asks for the open cases first and shows each case’s facts in a row', async () => {
    const calls = stubServer({
      [`GET ${LIST_PATH}`]: () => json(200, casePageOf([OPEN, SENT])),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const table = await screen.findByTestId('fraud-cases');
    expect(listCalls(calls)[0]?.query).toEqual({ status: 'open', page: '1', pageSize: '20' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Caso nº',
      'Aberto em',
      'Exames',
      'Candidatos (CPFs)',
      'Postos',
      'Datas',
      'Maior semelhança',
      'Situação',
      'Enviado à auditoria',
    ]);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement | undefined) =>
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(first)).toEqual([
      'Caso nº 7',
      expect.stringMatching(/^21\/11\/2026 \d\d:00$/),
      '3',
      '2',
      'Posto Asa Sul, Posto Taguatinga',
      '18/11/2026 a 20/11/2026',
      '93,4%',
      'Aberto',
      'Não',
    ]);
    expect(cells(second)).toEqual([
      'Caso nº 5',
      expect.any(String),
      '3',
      '2',
      'Posto Asa Sul',
      '10/11/2026',
      '88%',
      'Fraude confirmada',
      'Sim, em 12/11/2026',
    ]);
    expect(screen.getByText('Cada caso reúne', { exact: false })).toHaveTextContent(
      'Um caso nunca muda um resultado sozinho: quem decide é o auditor.',
    );
    // The pagination footer counts the cases.
    expect(screen.getByText('2 casos')).toBeInTheDocument();

    await userEvent.click(within(first!).getByRole('link', { name: 'Caso nº 7' }));
    expect(await screen.findByText('Tela do caso')).toBeInTheDocument();
  });

  it('sends the status filter to the server and starts again on page 1', async () => {
    const calls = stubServer({
      [`GET ${LIST_PATH}`]: (call) =>
        json(200, casePageOf([OPEN], { total: 45, page: Number(call.query.page) })),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    await screen.findByTestId('fraud-cases');
    await userEvent.click(screen.getByRole('button', { name: 'Página 2' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.page).toBe('2'));
    await userEvent.click(screen.getByRole('radio', { name: 'Todos' }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.query).toMatchObject({ status: 'all', page: '1' }),
    );
    await userEvent.click(screen.getByRole('radio', { name: 'Descartados' }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.query).toEqual({
        status: 'dismissed',
        page: '1',
        pageSize: '20',
      }),
    );
  });

  it('on a phone the status is a select, with the same choices', async () => {
    vi.stubGlobal(
      'matchMedia',
      fakeMatchMedia((query) => query === PHONE_QUERY || query === NARROW_TABLES_QUERY),
    );
    const calls = stubServer({
      [`GET ${LIST_PATH}`]: () => json(200, casePageOf([OPEN])),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    await screen.findAllByTestId('fraud-case-card');
    expect(screen.queryByRole('radiogroup')).toBeNull();
    await userEvent.click(screen.getByRole('combobox', { name: 'Situação' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Confirmados' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.query.status).toBe('confirmed'));
  });

  it('says when no case is found, with a hint', async () => {
    stubServer({
      [`GET ${LIST_PATH}`]: () => json(200, casePageOf([])),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    expect(await screen.findByText('Nenhum caso encontrado')).toBeInTheDocument();
    expect(screen.getByText(/Experimente a situação “Todos” ou outro período/)).toBeInTheDocument();
    expect(screen.queryByTestId('fraud-cases')).toBeNull();
  });

  it('where the table would scroll sideways, each case is a card with the same facts', async () => {
    vi.stubGlobal(
      'matchMedia',
      fakeMatchMedia((query) => query === NARROW_TABLES_QUERY),
    );
    stubServer({
      [`GET ${LIST_PATH}`]: () => json(200, casePageOf([OPEN, SENT])),
      'GET /api/SchedulingLocal': () => json(200, POSTS),
    });
    renderPage();
    const cards = await screen.findAllByTestId('fraud-case-card');
    expect(cards).toHaveLength(2);
    expect(screen.queryByTestId('fraud-cases')).toBeNull();
    expect(within(cards[0]!).getByRole('link', { name: 'Caso nº 7' })).toHaveAttribute(
      'href',
      `/possiveis-fraudes/${OPEN.id}`,
    );
    expect(cards[0]).toHaveTextContent('Maior semelhança93,4%');
    expect(cards[1]).toHaveTextContent('Enviado à auditoriaSim, em 12/11/2026');
  });
});
