/** What the database said when a write was refused. */

/**
 * The constraint a write broke when it was a unique violation (SQLSTATE
 * 23505), else null. drizzle wraps the driver's error in `cause`; both
 * PostgreSQL drivers and PGlite give `code` and `constraint`.
 */
export function uniqueViolation(error: unknown): string | null {
  const candidate = (error as { cause?: unknown } | null)?.cause ?? error;
  const pgError = candidate as { code?: string; constraint?: string } | null;
  return pgError?.code === '23505' ? (pgError.constraint ?? 'unique') : null;
}
