/**
 * One error handler for the whole API: every error becomes
 * `{ Error, code, requestId }` (plus `details` for validation); a 5xx never
 * carries the internal message, which only goes to the log, on the line with
 * the same `requestId`.
 */
import { ERROR_MESSAGES, SERVER_ERRORS, type ErrorBody } from '@exame/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { databaseUnavailable } from '../db/errors';
import { AppError, type ErrorDetail } from '../lib/app-error';
import { REQUEST_ID_HEADER } from '../lib/request-id';

/** Seconds a client is told to wait when the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The answer while the database server is unreachable: 503 with Retry-After. */
export function databaseUnavailableError(cause?: unknown): AppError {
  const error = AppError.from(SERVER_ERRORS, 'DATABASE_UNAVAILABLE').withHeader(
    'retry-after',
    String(DATABASE_RETRY_AFTER_SECONDS),
  );
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** Fastify's own 4xx errors, named with a stable code and a pt-BR text. */
const FRAMEWORK_ERRORS: Readonly<
  Record<string, { code: keyof typeof ERROR_MESSAGES; status: number }>
> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', status: 400 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', status: 413 },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    status: 415,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', status: 400 },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', status: 400 },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', status: 414 },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'BAD_REQUEST', status: 400 },
  FST_ERR_VALIDATION: { code: 'VALIDATION_ERROR', status: 400 },
  FST_ERR_NOT_FOUND: { code: 'ROUTE_NOT_FOUND', status: 404 },
};

/** The body of an error answer; `requestId` names the request in the server's log. */
export function toErrorBody(error: AppError, requestId?: string): ErrorBody {
  const body: ErrorBody = { Error: error.message, code: error.code, ...error.fields };
  if (error.details) body.details = error.details;
  if (requestId) body.requestId = requestId;
  return body;
}

export function normaliseError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details: ErrorDetail[] = error.validation.map((issue) => ({
      path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)]
        .filter(Boolean)
        .join('.'),
      message: issue.message ?? 'Valor inválido.',
    }));
    return new AppError('VALIDATION_ERROR', ERROR_MESSAGES.VALIDATION_ERROR, 400, details);
  }
  if (databaseUnavailable(error)) return databaseUnavailableError(error);
  if (isResponseSerializationError(error)) {
    return AppError.of('INTERNAL_ERROR', 500);
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return AppError.of(known.code, known.status);
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 401) return AppError.unauthorized();
    if (status === 403) return AppError.forbidden();
    if (status === 404) return AppError.notFound();
    if (status === 405) return AppError.of('METHOD_NOT_ALLOWED', 405);
    if (status === 413) return AppError.of('PAYLOAD_TOO_LARGE', 413);
    if (status === 414) return AppError.of('URI_TOO_LONG', 414);
    if (status === 415) return AppError.of('UNSUPPORTED_MEDIA_TYPE', 415);
    if (status === 429) return AppError.of('RATE_LIMITED', 429);
    return AppError.of('BAD_REQUEST', status);
  }
  if (typeof status === 'number' && status === 503) return AppError.of('SERVICE_UNAVAILABLE', 503);
  return AppError.of('INTERNAL_ERROR', 500);
}

/**
 * The router's own refusals (a malformed escape in the path, a path parameter
 * over the router's length limit) are answered before any route or error
 * handler runs: Fastify hands them to its `frameworkErrors` option, which
 * buildApp points here so they answer the same `{ Error, code }` body.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const appError = normaliseError(error);
  request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
  void reply
    .header(REQUEST_ID_HEADER, request.id)
    .status(appError.status)
    .type('application/json')
    .send(toErrorBody(appError, request.id));
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = normaliseError(error);
    if (appError.status === 503 && (error instanceof AppError || appError.cause)) {
      // Refused on purpose (overload, shutting down) or a dependency down (database, object storage).
      const cause = error instanceof AppError ? error.cause : appError.cause;
      request.log.warn(
        {
          code: appError.code,
          status: appError.status,
          ...(cause ? { err: cause } : {}),
        },
        'request refused',
      );
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ code: appError.code, status: appError.status }, 'request rejected');
    }
    for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
    return reply
      .status(appError.status)
      .type('application/json')
      .send(toErrorBody(appError, request.id));
  });
}
