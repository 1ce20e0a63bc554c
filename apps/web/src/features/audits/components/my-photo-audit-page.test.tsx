/**
 * My photo audit (`/minha-auditoria-de-fotos`): the exams whose captures the
 * auditor marked, how many of how many and how many incompatible, each a
 * link to its photo audit; the empty text.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MyPhotoAudit } from '@exame/shared';
import { renderRoutes } from '../../../test/render';
import { MyPhotoAuditPage } from './my-photo-audit-page';
import { json, stubServer } from '../../../test/stub-server';
import { AUDITOR } from '../../../test/audit-data';
import { signInForEachTest } from '../../../test/signed-in';

const MINE: MyPhotoAudit = [
  {
    examId: 'e1',
    schedulingId: 'DF-AG-0001',
    candidateName: 'Bruno Candidato',
    marked: 2,
    incompatible: 1,
    captures: 5,
    lastMarkedAt: '2026-11-21T12:00:00.000Z',
  },
  {
    examId: 'e2',
    schedulingId: 'DF-AG-0002',
    candidateName: 'Dora Candidata',
    marked: 6,
    incompatible: 0,
    captures: 6,
    lastMarkedAt: '2026-11-20T12:00:00.000Z',
  },
];

function renderPage() {
  return renderRoutes(
    [{ path: '/minha-auditoria-de-fotos', element: <MyPhotoAuditPage /> }],
    '/minha-auditoria-de-fotos',
  );
}

describe('my photo audit', () => {
  signInForEachTest(AUDITOR);

  it('lists the exams I marked, with the counts, each a link to its photo audit', async () => {
    const calls = stubServer({ 'GET /api/Audit/photo-audits/mine': () => json(200, MINE) });
    renderPage();
    const table = await screen.findByTestId('my-photo-audits');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /api/Audit/photo-audits/mine',
    ]);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(rows).toHaveLength(2);
    expect(cells(rows[0]!)[headers.indexOf('Marcadas')]).toBe('2 de 5');
    expect(cells(rows[0]!)[headers.indexOf('Incompatíveis')]).toBe('1');
    expect(cells(rows[1]!)[headers.indexOf('Marcadas')]).toBe('6 de 6');
    expect(cells(rows[1]!)[headers.indexOf('Incompatíveis')]).toBe('0');
    expect(within(rows[0]!).getByRole('link', { name: 'Bruno Candidato' })).toHaveAttribute(
      'href',
      '/photo-audit/e1',
    );
    expect(rows[0]).toHaveTextContent('DF-AG-0001');
    expect(within(rows[1]!).getByRole('link', { name: 'Dora Candidata' })).toHaveAttribute(
      'href',
      '/photo-audit/e2',
    );
  });

  it('nothing marked yet: says so, with the way to the queue', async () => {
    stubServer({ 'GET /api/Audit/photo-audits/mine': () => json(200, []) });
    renderPage();
    expect(await screen.findByText(/Você ainda não marcou capturas\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'fila de auditoria' })).toHaveAttribute(
      'href',
      '/auditoria',
    );
    expect(screen.queryByTestId('my-photo-audits')).toBeNull();
  });
});
