/** Payloads of the exam-delivery integration (`api/Integration/...`) and of the CSV import. */
import { z } from 'zod';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';
import { EXAM_RESULTS, EXAM_STATUSES } from './exams';

const isoDateTime = z.iso.datetime({
  offset: true,
  message: 'Data e hora em ISO 8601 com fuso (ex.: 2026-11-21T09:30:00-03:00).',
});
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
const counter = z.union([
  z.number().int().min(0).max(1000),
  z.boolean().transform((value) => (value ? 1 : 0)),
]);

export const integrationExamSchema = z.object({
  schedulingId: z
    .string()
    .trim()
    .min(1, 'Informe o schedulingId.')
    .max(64)
    .regex(
      /^[A-Za-z0-9._:-]+$/,
      'schedulingId aceita letras, números, ponto, dois-pontos, hífen e sublinhado.',
    ),
  candidate: z.object({
    name: z.string().trim().min(2, 'Informe o nome do candidato.').max(160),
    cpf: cpfSchema,
    renach: optionalText(20),
  }),
  schedulingDate: isoDateTime,
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable().optional(),
  score: z.number().min(0).max(100).nullable().optional(),
  metadata: z
    .object({
      schedulingLocal: optionalText(80),
      pendingAudit: counter.optional(),
      absence: counter.optional(),
      interrupted: counter.optional(),
    })
    .optional(),
  room: optionalText(60),
  station: optionalText(60),
  startedAt: isoDateTime.nullable().optional(),
  finishedAt: isoDateTime.nullable().optional(),
});
export type IntegrationExam = z.infer<typeof integrationExamSchema>;

export const INTEGRATION_BATCH_MAX = 1000;

export const integrationBatchSchema = z.object({
  exams: z
    .array(integrationExamSchema)
    .min(1, 'Envie pelo menos um exame.')
    .max(INTEGRATION_BATCH_MAX),
});

export const statusUpdateSchema = z.object({
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable().optional(),
  score: z.number().min(0).max(100).nullable().optional(),
  at: isoDateTime.optional(),
});
export type StatusUpdate = z.infer<typeof statusUpdateSchema>;

export const occurrenceInputSchema = z.object({
  externalId: z.string().trim().min(1).max(80),
  type: z.string().trim().min(1).max(60),
  description: z.string().trim().min(1).max(2000),
  occurredAt: isoDateTime,
  /** An exam photo, base64 (a data-URL prefix is accepted). */
  /** An empty file is refused, never taken for "no photo". */
  photo: z.string().min(1, 'A foto enviada está vazia.').max(8_000_000).optional(),
});
export type OccurrenceInput = z.infer<typeof occurrenceInputSchema>;

export const photoInputSchema = z.object({
  image: z.string().min(1).max(8_000_000),
  capturedAt: isoDateTime,
});

/** The candidate's reference photo (the picture on file), to compare the captures with. */
export const referencePhotoInputSchema = z.object({
  image: z.string().min(1).max(8_000_000),
});

export const batchResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  federativeUnit: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const CSV_IMPORT_COLUMNS = [
  'schedulingId',
  'candidateName',
  'candidateCpf',
  'candidateRenach',
  'schedulingDate',
  'schedulingLocal',
  'room',
  'station',
] as const;

export const API_KEY_NAME_REQUIRED = 'Dê um nome à chave (ex.: sistema de provas).';

/** `POST api/Integration/keys`: the body, and the form's check of the name. */
export const createApiKeySchema = z.object({
  name: z.string().trim().min(3, API_KEY_NAME_REQUIRED).max(80),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const INTEGRATION_ERRORS = errorCatalogue({
  API_KEY_NOT_FOUND: { status: 404, message: 'Chave não encontrada ou já revogada.' },
});
