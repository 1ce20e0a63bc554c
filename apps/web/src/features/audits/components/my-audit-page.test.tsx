/**
 * My audit (`/minha-auditoria`): the exams the auditor holds, each a link to
 * its audit, and the decisions they made with outcome and state; the empty
 * texts of both lists.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MyAudit } from '@exame/shared';
import { renderRoutes } from '../../../test/render';
import { MyAuditPage } from './my-audit-page';
import { json, stubServer } from '../../../test/stub-server';
import { AUDITOR, claimOf } from '../../../test/audit-data';
import { signInForEachTest } from '../../../test/signed-in';

const MINE: MyAudit = {
  holding: [
    claimOf({ examId: 'e1', schedulingId: 'DF-AG-0001' }),
    claimOf({ examId: 'e2', schedulingId: 'DF-AG-0002' }),
  ],
  decided: [
    {
      examId: 'e3',
      schedulingId: 'DF-AG-0003',
      candidateName: 'Bruno Candidato',
      outcome: 'disqualified',
      state: 'awaiting_confirmation',
      decidedAt: '2026-11-21T12:00:00.000Z',
    },
    {
      examId: 'e4',
      schedulingId: 'DF-AG-0004',
      candidateName: 'Dora Candidata',
      outcome: 'approved',
      state: 'effective',
      decidedAt: '2026-11-20T12:00:00.000Z',
    },
  ],
};

function renderPage() {
  return renderRoutes(
    [
      { path: '/minha-auditoria', element: <MyAuditPage /> },
      { path: '/auditoria/:id', element: <p>Tela de auditoria do exame</p> },
      { path: '/auditoria', element: <p>Fila de auditoria</p> },
    ],
    '/minha-auditoria',
  );
}

describe('my audit', () => {
  signInForEachTest(AUDITOR);

  it('lists the exams I hold and the decisions I made, each a link to its audit', async () => {
    const calls = stubServer({ 'GET /api/Audit/mine': () => json(200, MINE) });
    const { router } = renderPage();
    const holding = await screen.findByTestId('my-holding');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/Audit/mine']);
    const held = within(holding).getAllByRole('row').slice(1);
    expect(held.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'DF-AG-0001',
      'DF-AG-0002',
    ]);
    expect(within(held[0]!).getByRole('link')).toHaveAttribute('href', '/auditoria/e1');

    const decided = within(screen.getByTestId('my-decisions')).getAllByRole('row').slice(1);
    expect(decided).toHaveLength(2);
    expect(decided[0]).toHaveTextContent('Bruno Candidato');
    expect(decided[0]).toHaveTextContent('DF-AG-0003');
    expect(decided[0]).toHaveTextContent('Desclassificado');
    expect(decided[0]).toHaveTextContent('Aguardando confirmação');
    expect(decided[1]).toHaveTextContent('Dora Candidata');
    expect(decided[1]).toHaveTextContent('Aprovado');
    expect(decided[1]).toHaveTextContent('Em vigor');
    const link = within(decided[1]!).getByRole('link', { name: 'Dora Candidata' });
    expect(link).toHaveAttribute('href', '/auditoria/e4');

    await userEvent.click(link);
    expect(await screen.findByText('Tela de auditoria do exame')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auditoria/e4');
  });

  it('nothing held and nothing decided: both lists say so', async () => {
    stubServer({ 'GET /api/Audit/mine': () => json(200, { holding: [], decided: [] }) });
    renderPage();
    expect(await screen.findByText(/Nenhum exame com você agora\./)).toBeInTheDocument();
    expect(screen.getByText('Você ainda não decidiu nenhum exame.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'fila de auditoria' })).toHaveAttribute(
      'href',
      '/auditoria',
    );
    expect(screen.queryByTestId('my-holding')).toBeNull();
    expect(screen.queryByTestId('my-decisions')).toBeNull();
  });
});
