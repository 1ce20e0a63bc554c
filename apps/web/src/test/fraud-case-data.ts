/**
 * Data of the "Possíveis fraudes" screen tests, typed with the shared
 * contracts (`fraudCasePageSchema`, `fraudCaseDetailSchema`) so that a change
 * of contract breaks the fixtures at compile time.
 */
import type {
  FraudCaseDetail,
  FraudCaseExam,
  FraudCasePage,
  FraudCaseSummary,
} from '@exame/shared';

export const CASE_ID = 'f0000000-0000-4000-8000-000000000007';
export const CASE_PATH = `/api/FraudCase/${CASE_ID}`;

export function caseSummaryOf(overrides: Partial<FraudCaseSummary> = {}): FraudCaseSummary {
  return {
    id: CASE_ID,
    number: 7,
    status: 'open',
    createdAt: '2026-11-21T13:00:00.000Z',
    updatedAt: '2026-11-21T13:00:00.000Z',
    examCount: 3,
    candidateCount: 2,
    posts: ['Posto Asa Sul', 'Posto Taguatinga'],
    firstDate: '2026-11-18',
    lastDate: '2026-11-20',
    highestSimilarity: 0.934,
    sentToAuditAt: null,
    ...overrides,
  };
}

export function casePageOf(
  items: FraudCaseSummary[],
  overrides: Partial<FraudCasePage> = {},
): FraudCasePage {
  return { items, total: items.length, page: 1, pageSize: 20, ...overrides };
}

export function caseExamOf(
  overrides: Partial<FraudCaseExam> & Pick<FraudCaseExam, 'examId' | 'candidateName'>,
): FraudCaseExam {
  return {
    schedulingId: `DF-${overrides.examId}`,
    candidateCpf: '***.982.247-**',
    schedulingDate: '2026-11-20T12:00:00.000Z',
    schedulingLocal: 'DF.POSTO01',
    schedulingLocalName: 'Posto Asa Sul',
    room: 'Sala 1',
    status: 'done',
    result: 'approved',
    examiners: ['Fiscal Um', 'Fiscal Dois'],
    reference: {
      id: `ref-${overrides.examId}`,
      capturedAt: '2026-11-01T10:00:00.000Z',
      url: `https://fotos.exemplo/ref-${overrides.examId}.jpg`,
      width: 480,
      height: 640,
    },
    inAuditQueue: false,
    ...overrides,
  };
}

export const CASE_EXAMS: FraudCaseExam[] = [
  caseExamOf({ examId: 'e1', candidateName: 'Carla Candidata' }),
  caseExamOf({
    examId: 'e2',
    candidateName: 'Joana Outra',
    candidateCpf: '***.111.222-**',
    schedulingDate: '2026-11-18T14:00:00.000Z',
    schedulingLocalName: 'Posto Taguatinga',
    room: null,
    examiners: [],
    result: 'in_analysis',
    reference: null,
    inAuditQueue: true,
  }),
];

export function caseDetailOf(overrides: Partial<FraudCaseDetail> = {}): FraudCaseDetail {
  return {
    ...caseSummaryOf({ examCount: 2 }),
    exams: CASE_EXAMS,
    matches: [
      {
        examA: 'e1',
        examB: 'e2',
        similarity: 0.934,
        captureA: {
          id: 'c1',
          capturedAt: '2026-11-20T12:10:00.000Z',
          url: 'https://fotos.exemplo/c1.jpg',
          width: 640,
          height: 480,
        },
        captureB: null,
      },
    ],
    sentToAuditBy: null,
    closedAt: null,
    closedBy: null,
    note: null,
    ...overrides,
  };
}
