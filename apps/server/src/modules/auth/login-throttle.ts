/**
 * Brute-force protection for sign-in, in the shape of Keycloak's detection:
 * after `factor` failures a key waits `waitIncrement` x (failures / factor),
 * capped at `maxWait`; a success resets the account's counter; counters
 * older than 12 h start over. Keys: the account (by e-mail, whether or not it
 * exists, so blocking reveals nothing), the client address, and a trusted
 * device of the account (see trusted-devices.repository.ts).
 *
 * An attempt is counted before the password is checked, in one transaction
 * that locks the counters: N parallel guesses cannot all read "not blocked"
 * and then all verify (they would get N tries where the limit is 5). A
 * success gives the attempt back. Counters live in the database so every
 * instance sees the same numbers (their SQL is in auth.repository.ts).
 */
import type { Database, Executor } from '../../db/client';
import { retryingDeadlocks } from '../../db/errors';
import {
  deleteThrottleKey,
  ensureThrottleKeys,
  giveBackAttempt,
  lockThrottleRows,
  setThrottleFailures,
} from './auth.repository';

export type ThrottleSettings = {
  failureFactor: number;
  ipFailureFactor: number;
  waitIncrementMs: number;
  maxWaitMs: number;
};

/** A counter and the number of failures that earns its first wait. */
export type ThrottleKey = { key: string; factor: number };

export type Reservation =
  { admitted: false; blockedUntil: Date } | { admitted: true; keys: readonly ThrottleKey[] };

export const FAILURE_RESET_MS = 12 * 3_600_000;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;
export const deviceKey = (tokenHash: string) => `device:${tokenHash}`;

export function waitFor(failures: number, factor: number, settings: ThrottleSettings): number {
  if (failures < factor) return 0;
  return Math.min(settings.waitIncrementMs * Math.floor(failures / factor), settings.maxWaitMs);
}

/**
 * Counts one attempt on every key, unless one of them is blocked: then
 * nothing is counted and the latest reopening time is returned.
 */
export async function reserveAttempt(
  db: Database,
  keys: readonly ThrottleKey[],
  settings: ThrottleSettings,
  now: Date,
): Promise<Reservation> {
  // One lock order for every caller, so two attempts never wait on each other in a circle.
  const ordered = [...keys].sort((a, b) => a.key.localeCompare(b.key));
  const names = ordered.map((item) => item.key);
  // Concurrent sign-ins of one account can still deadlock (an insert of a key
  // waits for a release that deleted it): the victim, rolled back whole, runs again.
  return retryingDeadlocks(() =>
    db.transaction(async (tx) => {
      await ensureThrottleKeys(tx, names, now);
      const rows = await lockThrottleRows(tx, names);
      const blockedUntil = rows
        .map((row) => row.lockedUntil)
        .filter((until): until is Date => until !== null && until > now)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      if (blockedUntil) return { admitted: false, blockedUntil };
      const resetBefore = now.getTime() - FAILURE_RESET_MS;
      for (const { key, factor } of ordered) {
        const row = rows.find((item) => item.key === key);
        const previous = row && row.lastFailureAt.getTime() >= resetBefore ? row.failures : 0;
        const failures = previous + 1;
        const wait = waitFor(failures, factor, settings);
        await setThrottleFailures(tx, key, {
          failures,
          lastFailureAt: now,
          lockedUntil: wait > 0 ? new Date(now.getTime() + wait) : null,
        });
      }
      return { admitted: true, keys: ordered };
    }),
  );
}

/**
 * After a successful sign-in: the account and device counters start over; the
 * address gives back the attempt (other accounts' failures from it still count).
 */
export async function releaseAttempt(db: Database, keys: readonly ThrottleKey[]): Promise<void> {
  await retryingDeadlocks(() =>
    db.transaction(async (tx) => {
      for (const { key, factor } of keys) {
        if (key.startsWith('ip:')) await giveBackAttempt(tx, key, factor);
        else await resetKey(tx, key);
      }
    }),
  );
}

/**
 * A right password whose second step is still owed: the attempt is given back
 * on every key, but the failures before it stay (and wrong codes add to them),
 * so the password cannot be used to wipe the count of wrong codes.
 */
export async function giveBackAttempts(db: Database, keys: readonly ThrottleKey[]): Promise<void> {
  await retryingDeadlocks(() =>
    db.transaction(async (tx) => {
      for (const { key, factor } of keys) await giveBackAttempt(tx, key, factor);
    }),
  );
}

export async function resetKey(db: Executor, key: string): Promise<void> {
  await deleteThrottleKey(db, key);
}
