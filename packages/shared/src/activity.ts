/**
 * The activity log's contract (spec 3 and 7): the event types, the batch the
 * web client sends (`POST api/ActivityLog/events`), the ADMIN search and its
 * CSV export (`GET api/ActivityLog`, `GET api/ActivityLog/export`), and the
 * chain check (`GET api/ActivityLog/verify`).
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';

/** Every type of event the log holds; the first eight are the ones spec 3 names. */
export const ACTIVITY_TYPES = [
  'user_add',
  'load_audit',
  'load_exam',
  'stream_log',
  'page_view',
  'error',
  'examiner_transfered',
  'send_result',
  'user_enable',
  'user_disable',
  'user_role_change',
  'password_set',
  'local_add',
  'local_update',
  'local_deactivate',
  'reason_add',
  'reason_update',
  'reason_deactivate',
  'api_key_create',
  'api_key_revoke',
  'exam_import',
  'photo_view',
  'biometric_enrol',
  'biometric_template_upgrade',
  'face_image_view',
  'cpf_view',
  'retention_purge',
  'checkin_open',
  'checkin_update',
  'checkin_close',
  'checkin_force_close',
  'room_add',
  'room_update',
  'room_action',
  'room_occurrence',
  'release_audit',
  'reopen_audit',
  'photo_mark',
  'certificate_issue',
  'certificate_revoke',
  'demo_candidate_add',
  'demo_consent',
  'demo_wipe',
  'unit_settings_change',
  'idp_add',
  'idp_update',
  'idp_remove',
  'sso_link',
  'mfa_add',
  'mfa_remove',
  'mfa_recovery_codes',
  'mfa_recovery_used',
  'mfa_reset',
  'fraud_case_view',
  'fraud_case_send_audit',
  'fraud_case_close',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** The types of spec 3. */
export const SPEC_ACTIVITY_TYPES = ACTIVITY_TYPES.slice(0, 8) as readonly ActivityType[];

/** The types the web client sends; every other type is written by the server's own actions. */
export const WEB_ACTIVITY_TYPES = ['page_view', 'error', 'stream_log'] as const;
export type WebActivityType = (typeof WEB_ACTIVITY_TYPES)[number];

/**
 * Views of a person's biometric data (face images, exam photos): with the
 * person's CPF in `target`, the search answers "who saw this person's data".
 */
export const BIOMETRIC_VIEW_TYPES = ['face_image_view', 'photo_view'] as const;

/** pt-BR names of the types, for the screens and the export. */
export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  user_add: 'Usuário cadastrado',
  load_audit: 'Auditoria aberta',
  load_exam: 'Exame consultado',
  stream_log: 'Câmera / transmissão',
  page_view: 'Página acessada',
  error: 'Erro no navegador',
  examiner_transfered: 'Examinador transferido',
  send_result: 'Resultado enviado',
  user_enable: 'Usuário habilitado',
  user_disable: 'Usuário desabilitado',
  user_role_change: 'Perfil alterado',
  password_set: 'Senha definida',
  local_add: 'Posto cadastrado',
  local_update: 'Posto alterado',
  local_deactivate: 'Posto desativado',
  reason_add: 'Motivo cadastrado',
  reason_update: 'Motivo alterado',
  reason_deactivate: 'Motivo desativado',
  api_key_create: 'Chave de integração criada',
  api_key_revoke: 'Chave de integração revogada',
  exam_import: 'Exames importados',
  photo_view: 'Foto de exame vista',
  biometric_enrol: 'Biometria cadastrada',
  biometric_template_upgrade: 'Biometria atualizada',
  face_image_view: 'Imagem facial vista',
  cpf_view: 'CPF completo visto',
  retention_purge: 'Expurgo de retenção (LGPD)',
  checkin_open: 'Check-in aberto',
  checkin_update: 'Check-in alterado',
  checkin_close: 'Check-in encerrado',
  checkin_force_close: 'Check-in encerrado à força',
  room_add: 'Sala cadastrada',
  room_update: 'Sala alterada',
  room_action: 'Ação na sala',
  room_occurrence: 'Ocorrência na sala',
  release_audit: 'Auditoria liberada',
  reopen_audit: 'Auditoria reaberta',
  photo_mark: 'Foto marcada',
  certificate_issue: 'Certificado emitido',
  certificate_revoke: 'Certificado revogado',
  demo_candidate_add: 'Candidato de demonstração cadastrado',
  demo_consent: 'Consentimento de demonstração',
  demo_wipe: 'Dados de demonstração apagados',
  unit_settings_change: 'Configuração da unidade alterada',
  idp_add: 'Provedor de identidade cadastrado',
  idp_update: 'Provedor de identidade alterado',
  idp_remove: 'Provedor de identidade removido',
  sso_link: 'Conta vinculada ao provedor de identidade',
  mfa_add: 'Segundo fator cadastrado',
  mfa_remove: 'Segundo fator removido',
  mfa_recovery_codes: 'Códigos de recuperação gerados',
  mfa_recovery_used: 'Código de recuperação usado',
  mfa_reset: 'Segundo fator de um usuário redefinido',
  fraud_case_view: 'Caso de possível fraude visto',
  fraud_case_send_audit: 'Caso de possível fraude enviado à auditoria',
  fraud_case_close: 'Caso de possível fraude encerrado',
};

/* ------------------------------------------------------------------------ */
/* Ingest of the web client's events                                        */
/* ------------------------------------------------------------------------ */

export const ACTIVITY_BATCH_MAX = 100;

/**
 * PostgreSQL text and jsonb hold no NUL character, and jsonb no lone UTF-16
 * surrogate: refused here with 400, never a 500 there.
 */
const INVALID_CHARACTER = 'O texto tem um caractere inválido.';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function storableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
function storableJson(value: unknown): boolean {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.every(storableJson);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => storableText(key) && storableJson(item));
  }
  return true;
}
const text = (max: number) => z.string().max(max).refine(storableText, INVALID_CHARACTER);
/** What a browser event may carry: details up to 4 KB (an error's message and the top of its stack). */
export const ACTIVITY_DETAILS_MAX_BYTES = 4096;
export const ACTIVITY_TARGET_MAX = 300;

/**
 * The server's own target names (`exam:<schedulingId>`, `user:<id>`,
 * `cpf:<pseudonym>`, and the other namespaces it may use): a browser event
 * naming one would show in the forensic search as if the server had written
 * it, so a browser target that contains one is refused.
 */
export const SERVER_TARGET_NAMESPACES = [
  'exam',
  'user',
  'cpf',
  'unit',
  'room',
  'local',
  'file',
  'template',
  'certificate',
  'account',
  'device',
] as const;
const SERVER_TARGET_NAME = new RegExp(
  `(^|[^a-z0-9_])(${SERVER_TARGET_NAMESPACES.join('|')})\\s*:`,
  'i',
);
/** Whether a browser event's target names one of the server's namespaces. */
export function namesServerTarget(target: string): boolean {
  return SERVER_TARGET_NAME.test(target);
}

export const webActivityEventSchema = z.object({
  /** Made by the client once per event and kept across retries: a resent event is not stored twice. */
  clientId: z.uuid('Identificador do evento inválido.'),
  type: z.enum(WEB_ACTIVITY_TYPES),
  /** When it happened in the browser (ISO 8601). */
  occurredAt: z.iso.datetime({ offset: true, message: 'Data e hora ISO 8601 inválida.' }),
  target: text(ACTIVITY_TARGET_MAX)
    .refine(
      (target) => !namesServerTarget(target),
      'O alvo usa um nome reservado ao servidor (exam:, user:, cpf:…).',
    )
    .optional(),
  details: z
    .record(z.string(), z.unknown())
    .optional()
    .refine(
      (details) =>
        details === undefined ||
        new TextEncoder().encode(JSON.stringify(details)).length <= ACTIVITY_DETAILS_MAX_BYTES,
      { message: `Os detalhes do evento passam de ${ACTIVITY_DETAILS_MAX_BYTES} bytes.` },
    )
    .refine((details) => details === undefined || storableJson(details), INVALID_CHARACTER),
  deviceId: text(100).pipe(z.string().min(1)),
  appVersion: text(50).pipe(z.string().min(1)),
});
export type WebActivityEvent = z.infer<typeof webActivityEventSchema>;

export const activityBatchSchema = z.object({
  events: z.array(webActivityEventSchema).min(1).max(ACTIVITY_BATCH_MAX),
});
export type ActivityBatch = z.infer<typeof activityBatchSchema>;

export const activityBatchResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
});
export type ActivityBatchResult = z.infer<typeof activityBatchResultSchema>;

/* ------------------------------------------------------------------------ */
/* Search, export and check (ADMIN, own unit)                               */
/* ------------------------------------------------------------------------ */

const typeList = z
  .union([z.string().max(2000), z.array(z.string().max(64)).max(ACTIVITY_TYPES.length)])
  .optional()
  .transform((value) =>
    value === undefined
      ? undefined
      : (Array.isArray(value) ? value : [value])
          .flatMap((item) => item.split(','))
          .map((item) => item.trim())
          .filter(Boolean),
  )
  .pipe(z.array(z.enum(ACTIVITY_TYPES)).optional());

/** Filters of the search and of the export. */
export const activityFilterSchema = z.object({
  /** Repeatable (`type=a&type=b`, `type[]=a`) or a comma list. */
  type: typeList,
  actorId: z.uuid('Identificador do usuário inválido.').optional(),
  /** Part of the actor's name or e-mail. */
  actor: text(200).optional(),
  /**
   * Part of the target or of the details; a CPF (with or without
   * punctuation) also finds the events whose target names that person.
   */
  target: text(200).optional(),
  /** Days (AAAA-MM-DD, São Paulo) or ISO date-times with offset, both inclusive. */
  from: periodDateSchema,
  to: periodDateSchema,
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

export const activityQuerySchema = activityFilterSchema.extend({
  ...pageQueryParams({ defaultSize: 50, maxSize: 200 }),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  federativeUnit: z.string().nullable(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  deviceId: z.string().nullable(),
  appVersion: z.string().nullable(),
  occurredAt: z.string(),
  createdAt: z.string(),
  hash: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityPageSchema = pageOf(activityItemSchema);
export type ActivityPage = z.infer<typeof activityPageSchema>;

/** The most rows one export holds (the file says when it was cut). */
export const ACTIVITY_EXPORT_MAX_ROWS = 100_000;

export const activityVerifySchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBroken: z
    .object({
      id: z.string().nullable(),
      seq: z.number().int(),
      createdAt: z.string().nullable(),
      reason: z.string(),
    })
    .nullable(),
});
export type ActivityVerify = z.infer<typeof activityVerifySchema>;

export const ACTIVITY_ERRORS = errorCatalogue({
  ACTIVITY_EXPORT_TOO_LARGE: {
    status: 400,
    message: `A exportação tem mais de ${ACTIVITY_EXPORT_MAX_ROWS.toLocaleString('pt-BR')} eventos. Restrinja o período ou os filtros.`,
  },
});
