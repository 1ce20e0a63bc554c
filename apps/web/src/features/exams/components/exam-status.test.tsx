import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { ExamStatusBadge, stationStatusOf } from './exam-status';

describe('station status of an exam', () => {
  it.each([
    [{ status: 'scheduled', result: null }, 'scheduled'],
    [{ status: 'started', result: null }, 'started'],
    [{ status: 'absence', result: null }, 'absent'],
    [{ status: 'cancelled', result: null }, 'cancelled'],
    [{ status: 'done', result: 'in_analysis' }, 'processing'],
    [{ status: 'done', result: 'approved' }, 'approved'],
    [{ status: 'done', result: 'reproved' }, 'reproved'],
    [{ status: 'done', result: 'disqualified' }, 'disqualified'],
    [{ status: 'done', result: null }, 'finished'],
  ] as const)('%o -> %s', (exam, expected) => {
    expect(stationStatusOf(exam)).toBe(expected);
  });

  it('shows the pt-BR label and flags an interrupted exam', () => {
    renderWithProviders(
      <ExamStatusBadge exam={{ status: 'done', result: 'reproved', interrupted: 1 }} />,
    );
    expect(screen.getByText('Reprovado')).toBeInTheDocument();
    expect(screen.getByText('Interrompido')).toBeInTheDocument();
  });
});
