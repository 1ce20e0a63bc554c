/**
 * The audit page's timeline and decision summary: a change made by a person
 * names them (the auditor who decided, not "usuário"); a change sent by a
 * system names the system; a reproval's badge is red like a
 * disqualification's, and only an approval's is green.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditDetail, AuditOutcome } from '@exame/shared';
import { renderWithProviders } from '../../../test/render';
import { decisionOf } from '../../../test/audit-data';
import { DecisionSummary, ExamTimeline } from './audit-history';

const HISTORY: AuditDetail['history'] = [
  {
    fromStatus: 'started',
    toStatus: 'done',
    fromResult: null,
    toResult: 'in_analysis',
    source: 'integration',
    at: '2026-11-20T12:45:00.000Z',
    actorName: null,
  },
  {
    fromStatus: 'done',
    toStatus: 'done',
    fromResult: 'in_analysis',
    toResult: 'reproved',
    source: 'user',
    at: '2026-11-21T13:10:00.000Z',
    actorName: 'Bia Auditora',
  },
  {
    fromStatus: 'done',
    toStatus: 'done',
    fromResult: 'reproved',
    toResult: 'in_analysis',
    source: 'user',
    // An account removed since: the change stays, without a name to show.
    at: '2026-11-22T09:00:00.000Z',
    actorName: null,
  },
];

describe('decision timeline', () => {
  it('names the auditor behind a decision, and the system behind what it sent', () => {
    renderWithProviders(<ExamTimeline history={HISTORY} />);
    const decision = screen
      .getByText('Resultado: Em análise → Reprovado')
      .closest('.mantine-Timeline-item');
    expect(decision).toHaveTextContent('por Bia Auditora');
    expect(decision).not.toHaveTextContent('usuário');
    const delivered = screen
      .getByText('Iniciado → Finalizado (Em análise)')
      .closest('.mantine-Timeline-item');
    expect(delivered).toHaveTextContent('sistema de provas');
    const unnamed = screen
      .getByText('Resultado: Reprovado → Em análise')
      .closest('.mantine-Timeline-item');
    expect(unnamed).toHaveTextContent('usuário');
  });

  it.each<[AuditOutcome, string, string]>([
    ['approved', 'Aprovado', 'teal'],
    ['reproved', 'Reprovado', 'red'],
    ['disqualified', 'Desclassificado', 'red'],
  ])('a decision %s reads “%s” on a %s badge', (outcome, label, color) => {
    renderWithProviders(<DecisionSummary decision={decisionOf({ outcome })} />);
    const badge = screen.getByText(label).closest('.mantine-Badge-root');
    expect(badge).toHaveAttribute('data-outcome', outcome);
    const style = badge?.getAttribute('style') ?? '';
    expect(style).toContain(`--mantine-color-${color}-`);
    if (outcome !== 'approved') expect(style).not.toContain('teal');
  });
});
