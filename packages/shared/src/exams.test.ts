import { describe, expect, it } from 'vitest';
import {
  checkResultTransition,
  checkStatusTransition,
  EXAM_RESULTS,
  EXAM_STATUSES,
  type ExamResult,
  type ExamStatus,
} from './exams';

const LEGAL_STATUS: ReadonlyArray<[ExamStatus, ExamStatus]> = [
  ['scheduled', 'started'],
  ['scheduled', 'absence'],
  ['scheduled', 'cancelled'],
  ['started', 'done'],
  ['started', 'cancelled'],
];

describe('exam status state machine', () => {
  for (const from of EXAM_STATUSES) {
    for (const to of EXAM_STATUSES) {
      const legal = from === to || LEGAL_STATUS.some(([a, b]) => a === from && b === to);
      it(`${from} -> ${to} is ${legal ? 'legal' : 'illegal'}`, () => {
        const check = checkStatusTransition(from, to);
        expect(check.ok).toBe(legal);
        if (!check.ok) {
          expect(check.code).toBe('EXAM_INVALID_TRANSITION');
          expect(check.message).toMatch(/^Não é possível mudar o exame de "/);
        }
      });
    }
  }
});

describe('exam result rules', () => {
  const results: Array<ExamResult | null> = [null, ...EXAM_RESULTS];
  for (const status of EXAM_STATUSES) {
    for (const from of results) {
      for (const to of results) {
        const legal =
          from === to ||
          (to !== null &&
            status === 'done' &&
            (from === null || (from === 'in_analysis' && to !== 'in_analysis')));
        it(`${status}: ${from ?? 'none'} -> ${to ?? 'none'} is ${legal ? 'legal' : 'illegal'}`, () => {
          expect(checkResultTransition(status, from, to).ok).toBe(legal);
        });
      }
    }
  }

  it('explains why a result needs a finished exam', () => {
    expect(checkResultTransition('started', null, 'approved')).toEqual({
      ok: false,
      code: 'EXAM_RESULT_REQUIRES_DONE',
      message: 'Só um exame finalizado tem resultado (situação atual: "Iniciado").',
    });
  });
});
