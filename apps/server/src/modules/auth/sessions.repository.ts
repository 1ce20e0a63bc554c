import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { sessions, users } from '../../db/schema/index';

export async function insertSession(
  db: Executor,
  row: {
    tokenHash: string;
    userId: string;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db.insert(sessions).values(row);
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
}

/** Retention: sessions that expired or were revoked before `endedBefore`. */
export async function deleteEndedSessions(db: Executor, endedBefore: Date): Promise<number> {
  return deleteRows(
    db,
    sessions,
    or(lt(sessions.expiresAt, endedBefore), lt(sessions.revokedAt, endedBefore)),
  );
}
