/** The audit queue (`GET api/Audit/queue`): its items, filters and the words for an exam's face reading. */
import { z } from 'zod';
import { similarityLevelSchema } from './biometrics';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';
import { auditClaimSchema } from './audits';

/**
 * What the face engine made of an exam's photos, as the queue says it: the
 * lowest similarity was computed (`compared`), or why not, in the words of
 * the audit page (FACE_READING_LABELS on its photos).
 */
export const QUEUE_FACE_STATES = [
  'compared',
  'pending',
  'no_captures',
  'no_reference',
  'no_face_reference',
  'no_face',
] as const;
export type QueueFaceState = (typeof QUEUE_FACE_STATES)[number];

/** The badges of a photo's reading on the audit page; the queue uses the same words. */
export const FACE_READING_LABELS = {
  pending: 'Aguardando leitura facial',
  no_face: 'Rosto não encontrado',
} as const;

export const QUEUE_FACE_LABELS: Readonly<Record<Exclude<QueueFaceState, 'compared'>, string>> = {
  pending: FACE_READING_LABELS.pending,
  no_captures: 'Nenhuma captura',
  no_reference: 'Sem foto de referência',
  no_face_reference: `${FACE_READING_LABELS.no_face} na referência`,
  no_face: FACE_READING_LABELS.no_face,
};

export const auditQueueItemSchema = z.object({
  /** The exam's id. */
  id: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked. */
  candidateCpf: z.string(),
  schedulingLocal: z.string().nullable(),
  /** The post's name (its scheduling local's description), as the other lists show it. */
  localName: z.string().nullable(),
  schedulingDate: z.string(),
  finishedAt: z.string().nullable(),
  occurrences: z.number().int(),
  photos: z.number().int(),
  /** Whether the lowest similarity below was computed, or why not. */
  faceState: z.enum(QUEUE_FACE_STATES),
  /**
   * The lowest face similarity of a capture to the reference, once the engine
   * read them: ADMIN only (null for the other roles, who get the level).
   */
  faceMinSimilarity: z.number().nullable(),
  /** The level of that least-alike capture (similarityLevel), once read. */
  faceMinLevel: similarityLevelSchema.nullable(),
  /** A decision waits for a second auditor (two-person rule or re-check). */
  awaitingConfirmation: z
    .object({ auditorName: z.string(), outcome: z.enum(['approved', 'reproved', 'disqualified']) })
    .nullable(),
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
  /** Which exams: all, those waiting for a decision, or those waiting for a second auditor. */
  stage: z.enum(['all', 'decision', 'confirmation']).default('all'),
  /** Oldest exam first (default), or the lowest face similarity first. */
  sort: z.enum(['oldest', 'similarity']).default('oldest'),
});
export type AuditQueueQuery = z.input<typeof auditQueueQuerySchema>;
