/**
 * The one error type of the server. `code` is stable for clients, `message`
 * is the pt-BR text a person reads, `status` is the HTTP status.
 */
import { ERROR_MESSAGES, type CommonErrorCode, type ErrorCatalogue } from '@exame/shared';

export type ErrorDetail = { path: string; message: string };
type ErrorFields = {
  id?: string;
  checkInDate?: string;
  alert?: Record<string, unknown>;
  similarityLevel?: string;
  mfa?: Record<string, unknown>;
};

export class AppError extends Error {
  override name = 'AppError';
  /** Extra response headers, e.g. Retry-After. */
  headers: Record<string, string> = {};

  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 400,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }

  static of(code: CommonErrorCode, status: number, message?: string): AppError {
    return new AppError(code, message ?? ERROR_MESSAGES[code], status);
  }

  /**
   * An error of a module's catalogue (see `errorCatalogue` in the shared
   * package); `message` replaces the catalogue's text where it depends on the
   * case (e.g. which rule an identifier broke).
   */
  static from<C extends ErrorCatalogue>(catalogue: C, code: keyof C & string, message?: string) {
    const entry = catalogue[code]!;
    return new AppError(code, message ?? entry.message, entry.status);
  }

  /**
   * Fields the error body carries beside `Error` and `code` (spec 8: a
   * failed check-in's record; an exam another auditor holds: the alert).
   */
  fields: ErrorFields = {};

  withFields(fields: ErrorFields): this {
    this.fields = { ...this.fields, ...fields };
    return this;
  }

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  static badRequest(code: string, message: string): AppError {
    return new AppError(code, message, 400);
  }

  static unauthorized(message?: string): AppError {
    return AppError.of('UNAUTHORIZED', 401, message);
  }

  static forbidden(message?: string): AppError {
    return AppError.of('FORBIDDEN', 403, message);
  }

  static notFound(message?: string, code = 'NOT_FOUND'): AppError {
    return new AppError(code, message ?? ERROR_MESSAGES.NOT_FOUND, 404);
  }

  static conflict(code: string, message: string): AppError {
    return new AppError(code, message, 409);
  }
}
