/**
 * Brute-force protection for sign-in, in the shape of Keycloak's detection:
 * after `failureFactor` failures a key waits `waitIncrement` x (failures /
 * factor), capped at `maxWait`; a success resets the account's counter;
 * counters older than 12 h start over. Keys: the account (by e-mail, whether
 * or not it exists, so blocking reveals nothing) and the client address.
 * Counters live in the database so every instance sees the same numbers.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { loginThrottle } from '../../db/schema/index';

export type ThrottleSettings = {
  failureFactor: number;
  ipFailureFactor: number;
  waitIncrementMs: number;
  maxWaitMs: number;
};

const FAILURE_RESET_MS = 12 * 3_600_000;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/**
 * When the account and the client address open again (null when not
 * blocked), and which keys have a counter at all (so a success only deletes
 * what exists).
 */
export async function readThrottle(
  db: Executor,
  keys: { account: string; ip: string },
  now: Date,
): Promise<{
  accountBlockedUntil: Date | null;
  ipBlockedUntil: Date | null;
  counted: Set<string>;
}> {
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, [keys.account, keys.ip]));
  const until = (key: string) => {
    const row = rows.find((item) => item.key === key);
    return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
  };
  return {
    accountBlockedUntil: until(keys.account),
    ipBlockedUntil: until(keys.ip),
    counted: new Set(rows.map((row) => row.key)),
  };
}

export function waitFor(failures: number, factor: number, settings: ThrottleSettings): number {
  if (failures < factor) return 0;
  return Math.min(settings.waitIncrementMs * Math.floor(failures / factor), settings.maxWaitMs);
}

/** Counts one failure atomically and sets the wait it earns. */
export async function recordFailure(
  db: Executor,
  key: string,
  factor: number,
  settings: ThrottleSettings,
  now: Date,
): Promise<void> {
  const resetBefore = new Date(now.getTime() - FAILURE_RESET_MS);
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.lastFailureAt} < ${resetBefore.toISOString()}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottle.failures });
  const wait = waitFor(row?.failures ?? 1, factor, settings);
  if (wait > 0) {
    await db
      .update(loginThrottle)
      .set({ lockedUntil: new Date(now.getTime() + wait) })
      .where(sql`${loginThrottle.key} = ${key}`);
  }
}

export async function resetKey(db: Executor, key: string): Promise<void> {
  await db.delete(loginThrottle).where(sql`${loginThrottle.key} = ${key}`);
}
