/**
 * The error contract of the API: every error response is
 * `{ "Error": "<pt-BR text>", "code": "<STABLE_CODE>" }` (plus `details` for
 * validation). Codes are stable identifiers that clients may branch on; the
 * text is what a person reads.
 */
import { z } from 'zod';

export const errorBodySchema = z.object({
  Error: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** Spec 8: a failed check-in carries the record it met, kept by the client. */
  id: z.string().optional(),
  checkInDate: z.string().optional(),
  /** An exam another auditor holds: the auditor alert to show (spec 2, 3; `auditorAlertSchema`). */
  alert: z.record(z.string(), z.unknown()).optional(),
  /** A face verification refused at check-in: its plain level (`SimilarityLevel` of biometrics.ts). */
  similarityLevel: z.string().optional(),
  /** A right password that needs its second step: the pending sign-in (`mfaChallengeSchema`). */
  mfa: z.record(z.string(), z.unknown()).optional(),
  /** The request's id (also in the `x-request-id` header and in every log line of the request). */
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_MESSAGES = {
  VALIDATION_ERROR: 'Os dados enviados são inválidos.',
  BAD_REQUEST: 'A requisição não pôde ser entendida.',
  INVALID_JSON: 'O corpo da requisição não é um JSON válido.',
  /** A NUL character (U+0000) in a parameter, the query or the body: no text field may hold it. */
  INVALID_CHARACTER: 'O texto enviado contém um caractere inválido (NUL).',
  UNAUTHORIZED: 'Sua sessão expirou ou não é válida. Entre novamente.',
  /** A route for signed-in users called without a token (code UNAUTHORIZED). */
  SESSION_REQUIRED: 'Faça login para continuar.',
  FILE_UNAVAILABLE: 'O arquivo da imagem não está disponível.',
  FORBIDDEN: 'Você não tem permissão para realizar esta ação.',
  NOT_FOUND: 'Recurso não encontrado.',
  ROUTE_NOT_FOUND: 'Endereço não encontrado.',
  METHOD_NOT_ALLOWED: 'Método não permitido para este endereço.',
  PAYLOAD_TOO_LARGE: 'O conteúdo enviado é grande demais.',
  /** A path parameter longer than the router accepts (414). */
  URI_TOO_LONG: 'O endereço da requisição é longo demais.',
  UNSUPPORTED_MEDIA_TYPE: 'Tipo de conteúdo não suportado.',
  CONFLICT: 'O recurso foi alterado por outra operação. Recarregue e tente novamente.',
  RATE_LIMITED: 'Muitas tentativas. Aguarde um pouco e tente novamente.',
  SERVICE_UNAVAILABLE: 'Serviço temporariamente indisponível. Tente novamente em breve.',
  INTERNAL_ERROR: 'Ocorreu um erro inesperado. Tente novamente em breve.',
} as const;
export type CommonErrorCode = keyof typeof ERROR_MESSAGES;

/** One error of a module: the HTTP status and the pt-BR text a person reads. */
export type ErrorEntry = { readonly status: number; readonly message: string };
export type ErrorCatalogue = Readonly<Record<string, ErrorEntry>>;

/**
 * A module's errors, code -> status and text, written once: the server
 * raises them by code and the web reads the same texts where it reacts to a
 * code.
 */
export function errorCatalogue<const T extends Record<string, ErrorEntry>>(entries: T): T {
  return entries;
}

/** Errors of the server as a whole, whatever the route. */
export const SERVER_ERRORS = errorCatalogue({
  /**
   * Too many requests waiting for the database: answered at once with 503 and
   * `Retry-After` (seconds); the request did nothing and may be sent again.
   */
  SERVER_BUSY: {
    status: 503,
    message: 'O servidor está atendendo muitas solicitações agora. Tente novamente em instantes.',
  },
  /**
   * The database server did not answer (down, restarting, network cut): the
   * request did not complete (its transaction, if any, was not committed) and
   * may be sent again after `Retry-After` seconds.
   */
  DATABASE_UNAVAILABLE: {
    status: 503,
    message: 'O banco de dados está indisponível no momento. Tente novamente em alguns segundos.',
  },
  /**
   * The disk of the stored files (DATA_DIR/files) is full: the picture was
   * not stored and nothing was recorded; it may be sent again once room is
   * made.
   */
  STORAGE_FULL: {
    status: 507,
    message:
      'O espaço de armazenamento de arquivos está esgotado. Nada foi gravado; avise o suporte e tente novamente mais tarde.',
  },
  /** The operator's backup through the running server exists for the embedded database only. */
  BACKUP_EMBEDDED_ONLY: {
    status: 409,
    message:
      'A cópia de segurança pelo servidor é a do banco embutido (PGlite); com PostgreSQL use as cópias do próprio PostgreSQL (pg_dump).',
  },
  /**
   * The object storage of the files (FILE_STORAGE_URL) did not answer or
   * failed: nothing was changed and the request may be sent again.
   */
  FILE_STORAGE_UNAVAILABLE: {
    status: 503,
    message:
      'O armazenamento de arquivos está indisponível no momento. Tente novamente em instantes.',
  },
});
