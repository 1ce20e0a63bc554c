/**
 * Possible proxy test-takers ("Possíveis fraudes"): the same face in the
 * exams of different CPFs of one unit. The face engine gives each exam a
 * face (from its captures) and searches the unit's recent exams for it; a
 * match with exams of other CPFs above the strict one-to-many threshold forms
 * a case. A case never changes a result by itself: an auditor or ADMIN opens
 * it, may send its exams to the audit queue, and closes it as confirmed or
 * dismissed, with a note. Examiners never see it; every view is logged.
 *
 * Routes: `GET api/FraudCase` (list), `GET api/FraudCase/{id}` (detail),
 * `POST api/FraudCase/{id}/send-to-audit`, `POST api/FraudCase/{id}/close`.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { EXAM_RESULTS, EXAM_STATUSES, examPhotoLinkSchema } from './exams';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';
import type { Role } from './roles';

/** Who sees and works the cases: never examiners. */
export const FRAUD_CASE_ROLES: readonly Role[] = ['ADMIN', 'auditor'];

export const FRAUD_CASE_STATUSES = ['open', 'confirmed', 'dismissed'] as const;
export type FraudCaseStatus = (typeof FRAUD_CASE_STATUSES)[number];

export const FRAUD_CASE_STATUS_LABELS: Record<FraudCaseStatus, string> = {
  open: 'Aberto',
  confirmed: 'Fraude confirmada',
  dismissed: 'Descartado',
};

/** How an auditor closes a case. */
export const FRAUD_CASE_OUTCOMES = ['confirmed', 'dismissed'] as const;
export type FraudCaseOutcome = (typeof FRAUD_CASE_OUTCOMES)[number];

export const FRAUD_CASE_ERRORS = errorCatalogue({
  FRAUD_CASE_NOT_FOUND: { status: 404, message: 'Caso não encontrado.' },
  FRAUD_CASE_CLOSED: {
    status: 409,
    message: 'Este caso já foi encerrado; nada foi alterado.',
  },
  FRAUD_CASE_NOTHING_TO_AUDIT: {
    status: 409,
    message:
      'Nenhum exame deste caso pode ir para a auditoria: os finalizados já estão nela ou têm resultado sem decisão de auditor, e os demais não terminaram.',
  },
});
export type FraudCaseErrorCode = keyof typeof FRAUD_CASE_ERRORS;

/** A case as the list shows it. */
export const fraudCaseSummarySchema = z.object({
  id: z.string(),
  /** The case's number in its unit (1, 2, ...). */
  number: z.number().int(),
  status: z.enum(FRAUD_CASE_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  examCount: z.number().int(),
  /** Distinct candidates (CPFs) among the exams. */
  candidateCount: z.number().int(),
  /** The posts of the exams, by name (their id when the post is not registered). */
  posts: z.array(z.string()),
  /** The first and last scheduling days of the exams (YYYY-MM-DD). */
  firstDate: z.string(),
  lastDate: z.string(),
  /** The highest similarity between two exams of the case (0 to 1). */
  highestSimilarity: z.number(),
  /** When its exams were sent to the audit queue, if they were. */
  sentToAuditAt: z.string().nullable(),
});
export type FraudCaseSummary = z.infer<typeof fraudCaseSummarySchema>;

export const fraudCasePageSchema = pageOf(fraudCaseSummarySchema);
export type FraudCasePage = z.infer<typeof fraudCasePageSchema>;

/**
 * `GET api/FraudCase`: newest first; filters by status, post (a post of one
 * of the case's exams) and period (a case with an exam scheduled in it).
 */
export const fraudCaseQuerySchema = z.object({
  status: z.enum([...FRAUD_CASE_STATUSES, 'all']).default('all'),
  schedulingLocal: z.string().trim().max(80).optional(),
  startDate: periodDateSchema,
  endDate: periodDateSchema,
  ...pageQueryParams(),
});
export type FraudCaseQuery = z.input<typeof fraudCaseQuerySchema>;

/** One exam of a case: who, where, when, who was on duty, and the picture on file. */
export const fraudCaseExamSchema = z.object({
  examId: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked (`***.456.789-**`). */
  candidateCpf: z.string(),
  schedulingDate: z.string(),
  schedulingLocal: z.string().nullable(),
  schedulingLocalName: z.string().nullable(),
  room: z.string().nullable(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  /** The examiners who held the room while the exam ran. */
  examiners: z.array(z.string()),
  /** The candidate's reference photo, when the integration sent one. */
  reference: examPhotoLinkSchema.nullable(),
  /** Whether the exam is in the audit queue now (done, result in analysis). */
  inAuditQueue: z.boolean(),
});
export type FraudCaseExam = z.infer<typeof fraudCaseExamSchema>;

/** Two exams of different CPFs whose faces match: their closest captures, side by side. */
export const fraudCaseMatchSchema = z.object({
  examA: z.string(),
  examB: z.string(),
  /** 0 to 1 (1 - the fused distance of the two exams' faces). */
  similarity: z.number(),
  captureA: examPhotoLinkSchema.nullable(),
  captureB: examPhotoLinkSchema.nullable(),
});
export type FraudCaseMatch = z.infer<typeof fraudCaseMatchSchema>;

export const fraudCaseDetailSchema = fraudCaseSummarySchema.extend({
  exams: z.array(fraudCaseExamSchema),
  matches: z.array(fraudCaseMatchSchema),
  sentToAuditBy: z.string().nullable(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type FraudCaseDetail = z.infer<typeof fraudCaseDetailSchema>;

/** `POST api/FraudCase/{id}/close`. */
export const closeFraudCaseSchema = z.object({
  outcome: z.enum(FRAUD_CASE_OUTCOMES, { message: 'Escolha: fraude confirmada ou descartado.' }),
  note: z
    .string()
    .trim()
    .min(5, 'Explique a conclusão (no mínimo 5 caracteres).')
    .max(1000, 'Use no máximo 1000 caracteres na nota.'),
});
export type CloseFraudCaseInput = z.infer<typeof closeFraudCaseSchema>;

/** `POST api/FraudCase/{id}/send-to-audit`: how many exams went to the queue. */
export const fraudCaseSentSchema = z.object({
  sent: z.number().int(),
  alreadyInQueue: z.number().int(),
});
export type FraudCaseSent = z.infer<typeof fraudCaseSentSchema>;
