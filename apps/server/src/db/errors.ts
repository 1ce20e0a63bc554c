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

/** Network failures of a connection to the database server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not there yet: class 08
 * (connection exception), 57P01 admin shutdown (a restart), 57P02 crash
 * shutdown, 57P03 cannot connect now (starting up or recovering).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123])$/;

/** What node-postgres says, without a code, of a connection lost or never made. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * True when a failure says the database server is unreachable (down,
 * restarting, the network cut) rather than that the statement was wrong:
 * the request did not complete and may be sent again once it is back.
 * Follows `cause` (drizzle wraps the driver's error) and the errors of an
 * AggregateError (a host with several addresses).
 */
export function databaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof candidate.code === 'string') {
    if (NETWORK_CODES.has(candidate.code) || UNAVAILABLE_SQLSTATES.test(candidate.code)) {
      return true;
    }
  }
  if (
    typeof candidate.message === 'string' &&
    UNAVAILABLE_MESSAGES.some((text) => (candidate.message as string).startsWith(text))
  ) {
    return true;
  }
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => databaseUnavailable(e, depth + 1))
  )
    return true;
  return databaseUnavailable(candidate.cause, depth + 1);
}

/** A deadlock (SQLSTATE 40P01): PostgreSQL rolled this transaction back to free the others. */
export function deadlockVictim(error: unknown): boolean {
  const candidate = (error as { cause?: unknown } | null)?.cause ?? error;
  return (candidate as { code?: unknown } | null)?.code === '40P01';
}

/**
 * Runs a transaction again when PostgreSQL picked it as a deadlock victim
 * (it was rolled back whole, so running it again is safe), up to five times
 * with a growing random pause; any other failure, or the fifth deadlock,
 * goes to the caller.
 */
export async function retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!deadlockVictim(error) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80 * attempt));
    }
  }
}
