import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { mfaTickets, sessions, users } from '../../db/schema/index';
import { SESSION_CACHE_CHANNEL, type SessionScope } from '../../lib/session-cache';

/**
 * Tells every instance's session cache (lib/session-cache.ts) that sessions of
 * `scope` changed; inside a transaction the notice goes out when it commits.
 */
export async function announceSessionChange(db: Executor, scope: SessionScope): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSION_CACHE_CHANNEL}, ${JSON.stringify(scope)})`);
}

export async function insertSession(
  db: Executor,
  row: {
    tokenHash: string;
    userId: string;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
    provenAt: Date;
  },
): Promise<void> {
  await db.insert(sessions).values(row);
}

/** Records a new proof of who the person is in this session (re-authentication). */
export async function markSessionProven(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ provenAt: at })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  await announceSessionChange(db, { tokenHash });
}

export async function findSessionWithUser(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Token hashes read per statement by `findSessionStates`. */
const STATES_PER_READ = 1000;

/**
 * What decides whether each of these sessions is still live (revocation,
 * lifetimes, its user's status, role and unit), in one read per thousand;
 * sessions that no longer exist are absent.
 */
export async function findSessionStates(db: Executor, tokenHashes: readonly string[]) {
  const states = [];
  for (let start = 0; start < tokenHashes.length; start += STATES_PER_READ) {
    const chunk = tokenHashes.slice(start, start + STATES_PER_READ);
    states.push(
      ...(await db
        .select({
          tokenHash: sessions.tokenHash,
          revokedAt: sessions.revokedAt,
          expiresAt: sessions.expiresAt,
          lastSeenAt: sessions.lastSeenAt,
          registerStatus: users.registerStatus,
          role: users.role,
          federativeUnit: users.federativeUnit,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(inArray(sessions.tokenHash, chunk))),
    );
  }
  return states;
}

export async function touchSession(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.tokenHash, tokenHash));
}

export async function revokeSession(
  db: Executor,
  tokenHash: string,
  reason: string,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  await announceSessionChange(db, { tokenHash });
}

export async function revokeUserSessions(
  db: Executor,
  userId: string,
  reason: string,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  // A sign-in stopped after its password (second factor) ends with the sessions.
  await deleteRows(db, mfaTickets, eq(mfaTickets.userId, userId));
  await announceSessionChange(db, { userId });
}

/** Retention: sessions that expired or were revoked before `endedBefore`. */
export async function deleteEndedSessions(db: Executor, endedBefore: Date): Promise<number> {
  return deleteRows(
    db,
    sessions,
    or(lt(sessions.expiresAt, endedBefore), lt(sessions.revokedAt, endedBefore)),
  );
}
