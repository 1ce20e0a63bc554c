/**
 * Data of the audit screen tests, typed with the shared contracts
 * (`auditDetailSchema`, `auditQueuePageSchema`, …) so that a change of
 * contract breaks the tests' fixtures at compile time.
 */
import type {
  AuditClaim,
  AuditDecision,
  AuditDetail,
  AuditorAlert,
  AuditPhoto,
  AuditQueueItem,
  AuditQueuePage,
  AuthUser,
  DisqualificationReason,
  DisqualificationReasonPage,
  Exam,
} from '@exame/shared';

export const EXAM_ID = 'b0000000-0000-4000-8000-000000000001';
export const SCHEDULING_ID = 'DF-AG-0001';
export const DETAIL_PATH = `/api/Audit/${EXAM_ID}`;
export const CLAIM_PATH = `/api/Audit/${EXAM_ID}/claim`;

/**
 * The signed-in auditor of DF, as `POST api/Auth` answers it (the CPF is
 * what the claim stores as `auditorCpf`). The ADMIN is `TEST_USER`.
 */
export const AUDITOR: AuthUser = {
  name: 'Davi Auditor',
  email: 'davi@exemplo.gov.br',
  cpf: '11144477735',
  federativeUnit: 'DF',
  roleDescription: 'auditor',
  token: 'token-do-davi-com-mais-de-vinte-caracteres',
  registerStatus: 'enabled',
  expiresAt: '2026-11-22T00:00:00.000Z',
};

export function examOf(overrides: Partial<Exam> = {}): Exam {
  return {
    id: EXAM_ID,
    schedulingId: SCHEDULING_ID,
    federativeUnit: 'DF',
    candidateName: 'Carla Candidata',
    candidateCpf: '***.982.247-**',
    candidateRenach: 'DF123456789',
    schedulingDate: '2026-11-20T12:00:00.000Z',
    status: 'done',
    result: 'in_analysis',
    score: 80,
    schedulingLocal: 'DF.POSTO01',
    schedulingLocalName: 'Posto Asa Sul',
    pendingAudit: 1,
    absence: 0,
    interrupted: 0,
    room: 'Sala 1',
    station: 'E01',
    startedAt: '2026-11-20T12:05:00.000Z',
    finishedAt: '2026-11-20T12:45:00.000Z',
    updatedAt: '2026-11-20T12:45:00.000Z',
    ...overrides,
  };
}

export function claimOf(overrides: Partial<AuditClaim> = {}): AuditClaim {
  return {
    examId: EXAM_ID,
    schedulingId: SCHEDULING_ID,
    auditorName: AUDITOR.name,
    mine: true,
    claimedAt: '2026-11-21T13:00:00.000Z',
    expiresAt: '2026-11-21T13:30:00.000Z',
    ...overrides,
  };
}

export function photoOf(
  id: string,
  face: Partial<AuditPhoto['face']> = {},
  overrides: Partial<AuditPhoto> = {},
): AuditPhoto {
  return {
    id,
    capturedAt: '2026-11-20T12:10:00.000Z',
    url: `https://fotos.exemplo/${id}.jpg`,
    width: 640,
    height: 480,
    // As an auditor receives it: the level, no raw numbers (those are ADMIN's: adminView).
    face: {
      status: 'found',
      similarity: null,
      distance: null,
      level: 'alta',
      match: true,
      ...face,
    },
    mark: null,
    ...overrides,
  };
}

export const REFERENCE = photoOf('ref', { level: null, match: null });
/** Least like the reference first, as the server orders them. */
export const CAPTURES: AuditPhoto[] = [
  photoOf('p1', { level: 'baixa', match: false }, { capturedAt: '2026-11-20T12:11:00.000Z' }),
  photoOf('p2', { level: 'média', match: true }, { capturedAt: '2026-11-20T12:12:00.000Z' }),
  photoOf(
    'p3',
    { status: 'no_face', level: null, match: null },
    { capturedAt: '2026-11-20T12:13:00.000Z' },
  ),
];

export function decisionOf(overrides: Partial<AuditDecision> = {}): AuditDecision {
  return {
    id: 'd1',
    outcome: 'disqualified',
    state: 'awaiting_confirmation',
    confirmation: 'two_person',
    reason: { code: 'D01', text: 'Outra pessoa presente no ambiente.' },
    note: 'Há outra pessoa nas capturas 1 e 2.',
    auditorName: 'Bia Auditora',
    mine: false,
    decidedAt: '2026-11-21T12:00:00.000Z',
    confirmedBy: null,
    confirmedAt: null,
    confirmationNote: null,
    reopenedBy: null,
    reopenedAt: null,
    reopenReason: null,
    ...overrides,
  };
}

export function detailOf(overrides: Partial<AuditDetail> = {}): AuditDetail {
  return {
    exam: examOf(),
    history: [
      {
        fromStatus: 'started',
        toStatus: 'done',
        fromResult: null,
        toResult: 'in_analysis',
        source: 'integration',
        at: '2026-11-20T12:45:00.000Z',
        actorName: null,
      },
    ],
    occurrences: [
      {
        id: 'o1',
        type: 'Outra pessoa no ambiente',
        description: 'Uma voz ao fundo durante a prova.',
        occurredAt: '2026-11-20T12:20:00.000Z',
        photoUrl: null,
      },
    ],
    reference: REFERENCE,
    captures: CAPTURES,
    threshold: null,
    claim: claimOf(),
    alert: null,
    decisions: [],
    current: null,
    releaseOutcome: 'approved',
    twoPersonRule: false,
    fraudCases: [],
    ...overrides,
  };
}

/** Another auditor holds the exam (spec 3, the alert payload). */
export const ALERT: AuditorAlert = {
  title: 'Exame em auditoria',
  messageAuditor: 'Este exame está sendo auditado por:',
  auditor: {
    auditorCpf: '***.444.777-**',
    auditorName: 'Bia Auditora',
    date: '2026-11-21T12:50:00.000Z',
  },
  message: 'Auditores que já trabalharam neste exame:',
  audit: [
    { auditorCpf: '***.333.444-**', auditorName: 'Caio Auditor', date: '2026-11-20T15:00:00.000Z' },
    { auditorCpf: '***.444.777-**', auditorName: 'Bia Auditora', date: '2026-11-21T12:50:00.000Z' },
  ],
};

/** The 409 of a claim on an exam another auditor holds, as the server answers it. */
export const CLAIMED_BY_OTHER = {
  Error: 'Este exame está em auditoria por outro auditor.',
  code: 'AUDIT_CLAIMED_BY_OTHER',
  alert: ALERT,
};

export function reasonOf(id: string, code: string, text: string): DisqualificationReason {
  return {
    id,
    federativeUnit: 'DF',
    code,
    text,
    isActive: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}
export const REASONS: DisqualificationReasonPage = {
  items: [
    reasonOf('c0000000-0000-4000-8000-000000000001', 'D01', 'Outra pessoa presente no ambiente.'),
    reasonOf('c0000000-0000-4000-8000-000000000002', 'D02', 'Uso de celular durante a prova.'),
  ],
  total: 2,
  page: 1,
  pageSize: 100,
};

export function queueItemOf(
  overrides: Partial<AuditQueueItem> & Pick<AuditQueueItem, 'id' | 'candidateName'>,
): AuditQueueItem {
  return {
    schedulingId: `DF-${overrides.id}`,
    candidateCpf: '52998224725',
    schedulingLocal: 'DF.POSTO01-S1',
    localName: 'Posto Asa Sul',
    schedulingDate: '2026-11-20T12:00:00.000Z',
    finishedAt: '2026-11-20T12:45:00.000Z',
    occurrences: 0,
    photos: 6,
    // Compared when the test gives a level; otherwise the photos are still to read.
    faceState: overrides.faceMinLevel ? 'compared' : 'pending',
    faceMinSimilarity: null,
    faceMinLevel: null,
    awaitingConfirmation: null,
    claim: null,
    ...overrides,
  };
}

export function queuePage(
  items: AuditQueueItem[],
  overrides: Partial<AuditQueuePage> = {},
): AuditQueuePage {
  return { items, total: items.length, page: 1, pageSize: 20, ...overrides };
}
