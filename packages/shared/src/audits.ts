/**
 * The audit of finished exams (spec 2 `auditoria/:id`, my audit; spec 3 the
 * alert payload and the auditor): the queue of exams waiting for an auditor
 * (done, result `in_analysis`), oldest first, and the claim an auditor takes
 * on one (`load_audit`) so that two auditors never judge the same exam at
 * once. A claim lasts AUDIT_CLAIM_MINUTES; past that, another auditor may
 * take the exam.
 */
import { z } from 'zod';
import { similarityLevelSchema } from './biometrics';
import { errorCatalogue } from './errors';
import { examHistoryEntrySchema, examOccurrenceSchema, examSchema } from './exams';

export const AUDIT_CLAIM_DEFAULT_MINUTES = 30;

export const AUDIT_ERRORS = errorCatalogue({
  AUDIT_EXAM_NOT_FOUND: {
    status: 404,
    message: 'Exame não encontrado na fila de auditoria da unidade.',
  },
  AUDIT_NOT_PENDING: {
    status: 409,
    message: 'Este exame não está aguardando auditoria.',
  },
  AUDIT_CLAIMED_BY_OTHER: {
    status: 409,
    message: 'Este exame está em auditoria por outro auditor.',
  },
  AUDIT_CLAIM_NOT_FOUND: {
    status: 409,
    message: 'Você não está auditando este exame. Abra-o novamente pela fila de auditoria.',
  },
  AUDIT_SCORE_MISSING: {
    status: 409,
    message: 'O exame não tem nota: não é possível liberar o resultado.',
  },
  AUDIT_REASON_INVALID: {
    status: 400,
    message: 'Selecione um motivo de desclassificação ativo da unidade.',
  },
  AUDIT_AWAITING_CONFIRMATION: {
    status: 409,
    message: 'Este exame já tem uma decisão aguardando a confirmação de outro auditor.',
  },
  AUDIT_NO_PENDING_DECISION: {
    status: 409,
    message: 'Este exame não tem decisão aguardando confirmação.',
  },
  AUDIT_SAME_AUDITOR: {
    status: 409,
    message: 'A confirmação precisa ser feita por outro auditor, não por quem decidiu.',
  },
  AUDIT_NOT_DECIDED: {
    status: 409,
    message: 'Este exame não tem decisão de auditoria em vigor para reabrir.',
  },
  AUDIT_PHOTO_NOT_FOUND: {
    status: 404,
    message: 'Captura não encontrada neste exame.',
  },
});
export type AuditErrorCode = keyof typeof AUDIT_ERRORS;

/** An auditor as the auditor alert shows them (spec 2, 3): CPF masked, name, the day. */
export const auditorSchema = z.object({
  auditorCpf: z.string(),
  auditorName: z.string(),
  /** When they took the exam (ISO 8601). */
  date: z.string(),
});
export type Auditor = z.infer<typeof auditorSchema>;

/** Spec 3, the alert payload: what the auditor alert shows when another auditor holds the exam. */
export const auditorAlertSchema = z.object({
  title: z.string(),
  messageAuditor: z.string(),
  auditor: auditorSchema,
  message: z.string(),
  /** The auditors who worked on the exam, oldest first. */
  audit: z.array(auditorSchema),
});
export type AuditorAlert = z.infer<typeof auditorAlertSchema>;

export const auditClaimSchema = z.object({
  examId: z.string(),
  schedulingId: z.string(),
  auditorName: z.string(),
  /** Whether the caller holds it. */
  mine: z.boolean(),
  claimedAt: z.string(),
  expiresAt: z.string(),
});
export type AuditClaim = z.infer<typeof auditClaimSchema>;

export const AUDITOR_ALERT_TEXTS = {
  title: 'Exame em auditoria',
  messageAuditor: 'Este exame está sendo auditado por:',
  message: 'Auditores que já trabalharam neste exame:',
} as const;

/**
 * The pass mark of the theory exam (the score is 0-100): releasing a result
 * approves the candidate at or above it and reproves below it.
 */
export const PASSING_SCORE = 70;
export const AUDIT_NOTE_MAX = 2000;
export const REOPEN_REASON_MIN = 10;

/** The outcome a release gives from the score, or null when the exam has no score. */
export function outcomeFromScore(score: number | null): 'approved' | 'reproved' | null {
  if (score === null) return null;
  return score >= PASSING_SCORE ? 'approved' : 'reproved';
}

export const AUDIT_OUTCOMES = ['approved', 'reproved', 'disqualified'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
export const AUDIT_DECISION_STATES = [
  'awaiting_confirmation',
  'effective',
  'rejected',
  'reopened',
] as const;
export type AuditDecisionState = (typeof AUDIT_DECISION_STATES)[number];

export const AUDIT_DECISION_STATE_LABELS: Readonly<Record<AuditDecisionState, string>> = {
  awaiting_confirmation: 'Aguardando confirmação',
  effective: 'Em vigor',
  rejected: 'Não confirmada',
  reopened: 'Reaberta',
};

const note = z
  .string({ error: 'Descreva o motivo da desclassificação na observação.' })
  .trim()
  .min(1, 'Descreva o motivo da desclassificação na observação.')
  .max(AUDIT_NOTE_MAX, `Use no máximo ${AUDIT_NOTE_MAX} caracteres na observação.`);

/**
 * `POST api/Audit/{examId}/decision`: release the result (approved or
 * reproved from the score) or disqualify with a reason and a note.
 */
export const auditDecisionInputSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('release') }),
    z.object({
      action: z.literal('disqualify'),
      reasonId: z.uuid('Selecione o motivo da desclassificação.'),
      note,
    }),
  ],
  { error: 'Escolha liberar o resultado ou desclassificar.' },
);
export type AuditDecisionInput = z.infer<typeof auditDecisionInputSchema>;

/** `POST api/Audit/{examId}/confirmation`: a second auditor confirms or rejects a pending decision. */
export const auditConfirmationInputSchema = z
  .object({
    accept: z.boolean({ error: 'Informe se a decisão é confirmada.' }),
    note: z
      .string()
      .trim()
      .max(AUDIT_NOTE_MAX, `Use no máximo ${AUDIT_NOTE_MAX} caracteres na observação.`)
      .optional(),
  })
  .refine((value) => value.accept || (value.note ?? '').length > 0, {
    path: ['note'],
    message: 'Diga por que a decisão não é confirmada.',
  });
export type AuditConfirmationInput = z.infer<typeof auditConfirmationInputSchema>;

/** `POST api/Audit/{examId}/reopen` (ADMIN): why the decision is reopened. */
export const auditReopenInputSchema = z.object({
  reason: z
    .string({ error: 'Informe o motivo da reabertura.' })
    .trim()
    .min(
      REOPEN_REASON_MIN,
      `Informe o motivo da reabertura (ao menos ${REOPEN_REASON_MIN} caracteres).`,
    )
    .max(AUDIT_NOTE_MAX, `Use no máximo ${AUDIT_NOTE_MAX} caracteres no motivo.`),
});
export type AuditReopenInput = z.infer<typeof auditReopenInputSchema>;

export const PHOTO_VERDICTS = ['compatible', 'incompatible'] as const;
export type PhotoVerdict = (typeof PHOTO_VERDICTS)[number];
export const PHOTO_VERDICT_LABELS: Readonly<Record<PhotoVerdict, string>> = {
  compatible: 'Compatível',
  incompatible: 'Incompatível',
};

/** `PUT api/Audit/{examId}/photos/{photoId}/mark`: the photo audit's verdict on a capture. */
export const photoMarkInputSchema = z.object({
  verdict: z.enum(PHOTO_VERDICTS, { error: 'Marque a captura como compatível ou incompatível.' }),
});
export type PhotoMarkInput = z.infer<typeof photoMarkInputSchema>;

/** What the face engine read in a picture, and, for a capture, how like the reference it is. */
export const photoFaceSchema = z.object({
  status: z.enum(['pending', 'found', 'no_face']),
  /**
   * 1 - distance to the reference (display score) and the distance; null
   * without both faces, and for every role but ADMIN (FACE_SCORE_ROLES).
   */
  similarity: z.number().nullable(),
  distance: z.number().nullable(),
  /** How alike the capture is to the reference, in plain words; null without both faces. */
  level: similarityLevelSchema.nullable(),
  /** Under the unit's threshold: the same person by the engine's reading. Never decides alone. */
  match: z.boolean().nullable(),
});
export type PhotoFace = z.infer<typeof photoFaceSchema>;

export const auditPhotoSchema = z.object({
  id: z.string(),
  capturedAt: z.string(),
  url: z.string(),
  width: z.number(),
  height: z.number(),
  face: photoFaceSchema,
  /** The photo audit's mark, with the marking auditor. */
  mark: z
    .object({
      verdict: z.enum(PHOTO_VERDICTS),
      auditorName: z.string(),
      markedAt: z.string(),
    })
    .nullable(),
});
export type AuditPhoto = z.infer<typeof auditPhotoSchema>;

export const auditDecisionSchema = z.object({
  id: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  state: z.enum(AUDIT_DECISION_STATES),
  /** Why it waits (or waited) for a second auditor. */
  confirmation: z.enum(['two_person', 'recheck']).nullable(),
  reason: z.object({ code: z.string(), text: z.string() }).nullable(),
  note: z.string().nullable(),
  auditorName: z.string(),
  /** Whether the caller made it. */
  mine: z.boolean(),
  decidedAt: z.string(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmationNote: z.string().nullable(),
  reopenedBy: z.string().nullable(),
  reopenedAt: z.string().nullable(),
  reopenReason: z.string().nullable(),
});
export type AuditDecision = z.infer<typeof auditDecisionSchema>;

/** `GET api/Audit/{examId}`: everything the auditor judges with (spec 2 `auditoria/:id`). */
export const auditDetailSchema = z.object({
  exam: examSchema,
  /** The timeline, each change with the name of the person who made it (null for systems). */
  history: z.array(examHistoryEntrySchema.extend({ actorName: z.string().nullable() })),
  occurrences: z.array(examOccurrenceSchema),
  reference: auditPhotoSchema.nullable(),
  /** The captures, least like the reference first (not yet read, or without a face, last). */
  captures: z.array(auditPhotoSchema),
  /** The unit's match threshold on the distance: ADMIN only (null for the other roles). */
  threshold: z.number().nullable(),
  /** The live claim on the exam, if any. */
  claim: auditClaimSchema.nullable(),
  /** When another auditor holds it: the auditor alert. */
  alert: auditorAlertSchema.nullable(),
  /** Every decision, oldest first; the last open one is in `current`. */
  decisions: z.array(auditDecisionSchema),
  current: auditDecisionSchema.nullable(),
  /** The result a release would give (from the score). */
  releaseOutcome: z.enum(['approved', 'reproved']).nullable(),
  twoPersonRule: z.boolean(),
  /**
   * The cases of possible proxy test-takers ("Possíveis fraudes") this exam
   * was sent to audit with: the auditor opens them beside the exam.
   */
  fraudCases: z.array(
    z.object({
      id: z.string(),
      number: z.number().int(),
      status: z.enum(['open', 'confirmed', 'dismissed']),
    }),
  ),
});
export type AuditDetail = z.infer<typeof auditDetailSchema>;

export const auditDecisionResultSchema = z.object({
  state: z.enum(AUDIT_DECISION_STATES),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The exam's result now. */
  result: z.enum(['in_analysis', 'approved', 'reproved', 'disqualified']),
});
export type AuditDecisionResult = z.infer<typeof auditDecisionResultSchema>;

/** My audit: the exams I hold now and the decisions I made, newest first. */
export const myAuditSchema = z.object({
  holding: z.array(auditClaimSchema),
  decided: z.array(
    z.object({
      examId: z.string(),
      schedulingId: z.string(),
      candidateName: z.string(),
      outcome: z.enum(AUDIT_OUTCOMES),
      state: z.enum(AUDIT_DECISION_STATES),
      decidedAt: z.string(),
    }),
  ),
});
export type MyAudit = z.infer<typeof myAuditSchema>;

/** My photo audit: the exams whose captures I marked, newest first. */
export const myPhotoAuditSchema = z.array(
  z.object({
    examId: z.string(),
    schedulingId: z.string(),
    candidateName: z.string(),
    marked: z.number().int(),
    incompatible: z.number().int(),
    captures: z.number().int(),
    lastMarkedAt: z.string(),
  }),
);
export type MyPhotoAudit = z.infer<typeof myPhotoAuditSchema>;
