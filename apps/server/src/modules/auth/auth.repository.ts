/**
 * SQL of sign-in: the throttle counters, one row per key (an account, a client
 * address or a trusted device). The rules that read and set them are in
 * login-throttle.ts; sessions and trusted devices have their own repositories.
 */
import { and, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { loginThrottle } from '../../db/schema/index';

export type ThrottleRow = typeof loginThrottle.$inferSelect;

/** Creates the missing counters at zero; existing ones are left as they are. */
export async function ensureThrottleKeys(
  db: Executor,
  keys: readonly string[],
  now: Date,
): Promise<void> {
  await db
    .insert(loginThrottle)
    .values(keys.map((key) => ({ key, failures: 0, lastFailureAt: now })))
    .onConflictDoNothing();
}

/** The counters of `keys`, locked until the transaction ends, in key order (one lock order for all). */
export async function lockThrottleRows(
  db: Executor,
  keys: readonly string[],
): Promise<ThrottleRow[]> {
  return db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, [...keys]))
    .orderBy(loginThrottle.key)
    .for('update');
}

export async function setThrottleFailures(
  db: Executor,
  key: string,
  values: { failures: number; lastFailureAt: Date; lockedUntil: Date | null },
): Promise<void> {
  await db
    .update(loginThrottle)
    .set(values)
    .where(sql`${loginThrottle.key} = ${key}`);
}

/**
 * Gives one attempt back to a counter; its lock stays only while the
 * remaining failures still earn one (`factor` or more).
 */
export async function giveBackAttempt(db: Executor, key: string, factor: number): Promise<void> {
  await db
    .update(loginThrottle)
    .set({
      failures: sql`greatest(${loginThrottle.failures} - 1, 0)`,
      lockedUntil: sql`case when ${loginThrottle.failures} - 1 >= ${factor} then ${loginThrottle.lockedUntil} else null end`,
    })
    .where(sql`${loginThrottle.key} = ${key}`);
}

export async function deleteThrottleKey(db: Executor, key: string): Promise<void> {
  await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${key}`);
}

/** Counters whose last failure is older than `failedBefore` and that hold no lock at `now`. */
export async function deleteStaleThrottleKeys(
  db: Executor,
  failedBefore: Date,
  now: Date,
): Promise<number> {
  return deleteRows(
    db,
    loginThrottle,
    and(
      lt(loginThrottle.lastFailureAt, failedBefore),
      or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, now)),
    ),
  );
}
