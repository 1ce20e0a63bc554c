/**
 * The per-post report page: every post and the total, the exams behind a
 * number, the exports; a post named by its name and its own identifier (never
 * the API's report id); how much of a counter came from the delivery
 * system's metadata; and a card per post where the table would not fit.
 */
import {
  emptyCounters,
  emptyMetadataCounts,
  type LocalReport,
  type LocalReportDetail,
  type ReportExamPage,
} from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { fakeMatchMedia } from '../../../test/match-media';
import { renderRoutes } from '../../../test/render';
import { filenameFromDisposition } from '../../../lib/api-client';
import { NARROW_TABLES_QUERY } from '../../../lib/use-wide-tables';
import { ExamReportPage } from './exam-report-page';
import { TEST_USER } from '../../../test/fixtures';

// 2 finished, 1 approved, and 2 pending audit: 1 of them from an exam's metadata.
const CENTRO: LocalReport = {
  id: 'DF.POSTO01',
  identifier: 'DEMO.POSTO01',
  name: 'Posto Centro',
  report: { ...emptyCounters(), total: 3, finished: 2, approved: 1, pendingAudit: 2 },
  fromMetadata: { ...emptyMetadataCounts(), pendingAudit: 1 },
};
const NORTE: LocalReport = {
  id: 'DF.POSTO02',
  identifier: 'DEMO.POSTO02',
  name: 'Posto Norte',
  report: { ...emptyCounters(), total: 1, scheduled: 1 },
  fromMetadata: emptyMetadataCounts(),
};

function detail(id: string): LocalReportDetail {
  if (id === 'all') {
    return {
      id: 'all',
      identifier: null,
      name: 'Todos os postos',
      startDay: '2026-03-01',
      endDay: '2026-03-31',
      report: {
        ...emptyCounters(),
        total: 4,
        finished: 2,
        approved: 1,
        pendingAudit: 2,
        scheduled: 1,
      },
      fromMetadata: { ...emptyMetadataCounts(), pendingAudit: 1 },
      locals: [CENTRO, NORTE],
    };
  }
  return { ...CENTRO, startDay: '2026-03-01', endDay: '2026-03-31', locals: [CENTRO] };
}

const EXAMS: ReportExamPage = {
  counter: 'pendingAudit',
  counterValue: 2,
  total: 1,
  page: 1,
  pageSize: 20,
  items: [
    {
      id: 'e1',
      schedulingId: 'DF-000000001',
      candidateName: 'Ana Silva',
      candidateCpf: '***.982.247-**',
      schedulingDate: '2026-03-10T14:00:00.000Z',
      status: 'done',
      result: 'in_analysis',
      schedulingLocal: 'DETRANDF-POSTO01-S1',
      localId: 'DF.POSTO01',
      localName: 'Posto Centro',
      room: 'Sala 1',
      station: 'Estação 02',
      pendingAudit: 1,
      absence: 0,
      interrupted: 0,
      contribution: 2,
    },
  ],
};

function stubApi() {
  const urls: URL[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost');
    urls.push(url);
    if (url.pathname === '/api/ExamReport/export') {
      return new Response(new Blob(['\uFEFFPosto;Nome\r\n']), {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition':
            'attachment; filename="relatorio-postos-DF.POSTO01-2026-03-01-a-2026-03-31.csv"; filename*=UTF-8\'\'relatorio-postos-DF.POSTO01-2026-03-01-a-2026-03-31.csv',
        },
      });
    }
    if (url.pathname.endsWith('/exams'))
      return new Response(JSON.stringify(EXAMS), { status: 200 });
    const id = decodeURIComponent(url.pathname.replace('/api/ExamReport/', ''));
    return new Response(JSON.stringify(detail(id)), { status: 200 });
  });
  return urls;
}

describe('exam report page', () => {
  beforeEach(() => {
    appStore.setUser(TEST_USER);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    appStore.clearSession();
  });

  const render = (path: string) =>
    renderRoutes([{ path: '/exam-report/:id', element: <ExamReportPage /> }], path);

  it('shows every post and the total, and opens the exams behind a number in one click', async () => {
    const urls = stubApi();
    render('/exam-report/all?startDate=2026-03-01&endDate=2026-03-31');
    const table = await screen.findByTestId('report-table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const totalRow = table.querySelector('[data-local-id="total"]');
    expect(totalRow).toHaveTextContent('Todos os postos');
    const detailCall = urls.find((url) => url.pathname === '/api/ExamReport/all');
    expect(detailCall?.searchParams.get('startDate')).toBe('2026-03-01');
    expect(detailCall?.searchParams.get('endDate')).toBe('2026-03-31');

    // One keypress away, from the keyboard too.
    screen
      .getByRole('button', {
        name: /^Pendentes de auditoria de Posto Centro: 2 \(1 dos metadados\)\./,
      })
      .focus();
    await userEvent.keyboard('{Enter}');
    const exams = await screen.findByTestId('counter-exams');
    expect(within(exams).getByText('Ana Silva')).toBeInTheDocument();
    expect(within(exams).getByText('***.982.247-**')).toBeInTheDocument();
    const examsCall = urls.find((url) => url.pathname.endsWith('/exams'));
    expect(examsCall?.pathname).toBe('/api/ExamReport/DF.POSTO01/exams');
    expect(examsCall?.searchParams.get('counter')).toBe('pendingAudit');
    // The counter is 2 for 1 exam: the page says why.
    expect(screen.getByText(/um exame pode contar mais de uma vez/)).toBeInTheDocument();
  });

  it('names a post by its name and its own identifier, never by the report id', async () => {
    const urls = stubApi();
    render('/exam-report/DF.POSTO01?startDate=2026-03-01&endDate=2026-03-31');
    const table = await screen.findByTestId('report-table');
    expect(await screen.findByRole('heading', { name: 'Posto Centro', level: 1 })).toBeVisible();
    // The line under the title, and the post's row: its own identifier.
    expect(screen.getByText(/^DEMO\.POSTO01 · Período de 01\/03\/2026/)).toBeVisible();
    const row = table.querySelector('[data-local-id="DF.POSTO01"]') as HTMLElement;
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent(/^Posto CentroDEMO\.POSTO01$/);
    expect(document.body).not.toHaveTextContent('DF.POSTO01');
    // The API is still asked by the report id.
    expect(urls.some((url) => url.pathname === '/api/ExamReport/DF.POSTO01')).toBe(true);
  });

  it('says how much of a counter came from the metadata, and why it can pass the exams', async () => {
    stubApi();
    render('/exam-report/all?startDate=2026-03-01&endDate=2026-03-31');
    const table = await screen.findByTestId('report-table');
    const centro = table.querySelector('[data-local-id="DF.POSTO01"]') as HTMLElement;
    const pending = centro.querySelector('[data-counter="pendingAudit"]') as HTMLElement;
    expect(within(pending).getByRole('button')).toHaveAccessibleName(
      /: 2 \(1 dos metadados\)\. Ver os exames$/,
    );
    expect(within(pending).getByTestId('from-metadata')).toHaveTextContent(/^1 dos metadados$/);
    // Counters the metadata did not feed say nothing more.
    const finished = centro.querySelector('[data-counter="finished"]') as HTMLElement;
    expect(within(finished).getByRole('button')).toHaveAccessibleName(/: 2\. Ver os exames$/);
    expect(within(centro).getAllByTestId('from-metadata')).toHaveLength(1);
    const total = table.querySelector('[data-local-id="total"]') as HTMLElement;
    const totalPending = total.querySelector('[data-counter="pendingAudit"]') as HTMLElement;
    expect(within(totalPending).getByRole('button')).toHaveAccessibleName(
      /^Pendentes de auditoria de todos os postos: 2 \(1 dos metadados\)\./,
    );
    expect(screen.getByTestId('metadata-note')).toHaveTextContent(
      /mais pendentes de auditoria do que finalizados/,
    );
  });

  it('where the table would scroll sideways, each post is a card with every counter', async () => {
    vi.stubGlobal(
      'matchMedia',
      fakeMatchMedia((query) => query === NARROW_TABLES_QUERY),
    );
    stubApi();
    render('/exam-report/all?startDate=2026-03-01&endDate=2026-03-31');
    const cards = await screen.findAllByTestId('report-card');
    expect(screen.queryByTestId('report-table')).toBeNull();
    expect(cards.map((card) => card.getAttribute('data-local-id'))).toEqual([
      'DF.POSTO01',
      'DF.POSTO02',
      'total',
    ]);
    expect(cards[0]).toHaveTextContent('DEMO.POSTO01');
    expect(cards[0]!.querySelectorAll('[data-counter]')).toHaveLength(10);
    await userEvent.click(
      within(cards[0]!).getByRole('button', { name: /^Aprovados de Posto Centro: 1\./ }),
    );
    expect(await screen.findByTestId('counter-exams-cards')).toBeInTheDocument();
  });

  it('downloads the export of the post with the server’s file name', async () => {
    const urls = stubApi();
    const created = vi.fn(() => 'blob:relatorio');
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }),
    );
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this);
    });
    render('/exam-report/DF.POSTO01?startDate=2026-03-01&endDate=2026-03-31');
    await screen.findByTestId('report-table');
    await userEvent.click(screen.getByRole('button', { name: 'Baixar CSV' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]?.download).toBe('relatorio-postos-DF.POSTO01-2026-03-01-a-2026-03-31.csv');
    const exportCall = urls.find((url) => url.pathname === '/api/ExamReport/export');
    expect(exportCall?.searchParams.get('format')).toBe('csv');
    expect(exportCall?.searchParams.get('localId')).toBe('DF.POSTO01');
    expect(created).toHaveBeenCalledOnce();
  });

  it('reads the file name from Content-Disposition', () => {
    expect(
      filenameFromDisposition('attachment; filename="a.csv"; filename*=UTF-8\'\'b%C3%A1.csv'),
    ).toBe('bá.csv');
    expect(filenameFromDisposition('attachment; filename="a.xlsx"')).toBe('a.xlsx');
    expect(filenameFromDisposition(null)).toBeNull();
  });
});
