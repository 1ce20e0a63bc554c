/**
 * The audit of finished exams (spec 2 `auditoria/:id`, my audit; spec 3 the
 * alert payload and the auditor): the queue of exams waiting for an auditor
 * (done, result `in_analysis`), oldest first, and the claim an auditor takes
 * on one (`load_audit`) so that two auditors never judge the same exam at
 * once. A claim lasts AUDIT_CLAIM_MINUTES; past that, another auditor may
 * take the exam.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';

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
    status: 404,
    message: 'Você não está auditando este exame.',
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

export const auditQueueItemSchema = z.object({
  /** The exam's id. */
  id: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked. */
  candidateCpf: z.string(),
  schedulingLocal: z.string().nullable(),
  schedulingDate: z.string(),
  finishedAt: z.string().nullable(),
  occurrences: z.number().int(),
  photos: z.number().int(),
  /** The live claim on the exam, if any. */
  claim: auditClaimSchema.nullable(),
});
export type AuditQueueItem = z.infer<typeof auditQueueItemSchema>;
export const auditQueuePageSchema = pageOf(auditQueueItemSchema);
export type AuditQueuePage = z.infer<typeof auditQueuePageSchema>;

export const auditQueueQuerySchema = z.object({
  ...pageQueryParams({ maxSize: 100 }),
  /** A post (`DEMO.POSTO01`): its exams, whatever their room. */
  schedulingLocal: z.string().trim().max(80).optional(),
  startDate: periodDateSchema,
  endDate: periodDateSchema,
  /** Only exams with occurrences. */
  withOccurrences: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  /** Hide exams another auditor holds now. */
  onlyFree: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export type AuditQueueQuery = z.input<typeof auditQueueQuerySchema>;

export const AUDITOR_ALERT_TEXTS = {
  title: 'Exame em auditoria',
  messageAuditor: 'Este exame está sendo auditado por:',
  message: 'Auditores que já trabalharam neste exame:',
} as const;
