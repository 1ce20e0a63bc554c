/** SQL of the second factor: factors, recovery codes, and the pending steps (tickets). */
import { and, asc, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { mfaTickets, recoveryCodes, userFactors } from '../../db/schema/index';

export type FactorRow = typeof userFactors.$inferSelect;
export type TicketRow = typeof mfaTickets.$inferSelect;
export type NewFactor = typeof userFactors.$inferInsert;

export function listFactors(db: Executor, userId: string): Promise<FactorRow[]> {
  return db
    .select()
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .orderBy(asc(userFactors.createdAt));
}

export async function hasFactor(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userFactors.id })
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .limit(1);
  return row !== undefined;
}

export async function insertFactor(db: Executor, row: NewFactor): Promise<FactorRow> {
  const [created] = await db.insert(userFactors).values(row).returning();
  return created!;
}

export async function deleteFactor(
  db: Executor,
  userId: string,
  id: string,
): Promise<FactorRow | undefined> {
  const [removed] = await db
    .delete(userFactors)
    .where(and(eq(userFactors.id, id), eq(userFactors.userId, userId)))
    .returning();
  return removed;
}

/** Removes every factor (and pending step) of a user; returns how many factors went. */
export async function deleteFactorsOf(db: Executor, userId: string): Promise<number> {
  await deleteRows(db, mfaTickets, eq(mfaTickets.userId, userId));
  return deleteRows(db, userFactors, eq(userFactors.userId, userId));
}

/**
 * Records an accepted app code's time step, only if it is later than the last
 * one: of two requests with the same code, one wins and the other is refused.
 */
export async function claimTotpStep(
  db: Executor,
  factorId: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(userFactors)
    .set({ totpLastStep: step, lastUsedAt: now })
    .where(
      and(
        eq(userFactors.id, factorId),
        or(isNull(userFactors.totpLastStep), lt(userFactors.totpLastStep, step)),
      ),
    )
    .returning({ id: userFactors.id });
  return rows.length === 1;
}

export async function recordPasskeyUse(
  db: Executor,
  factorId: string,
  signCount: number,
  now: Date,
): Promise<void> {
  await db
    .update(userFactors)
    .set({ signCount, lastUsedAt: now })
    .where(eq(userFactors.id, factorId));
}

/** Replaces the account's recovery codes by these hashes. */
export async function replaceRecoveryCodes(
  db: Executor,
  userId: string,
  hashes: readonly string[],
): Promise<void> {
  await deleteRows(db, recoveryCodes, eq(recoveryCodes.userId, userId));
  if (hashes.length > 0) {
    await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  }
}

/** Spends a recovery code once: true when it existed and had not been used. */
export async function spendRecoveryCode(
  db: Executor,
  userId: string,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.left ?? 0;
}

/** A new pending step under `keyHash`, replacing any earlier one with the same key. */
export async function putTicket(
  db: Executor,
  row: typeof mfaTickets.$inferInsert & { keyHash: string },
): Promise<TicketRow> {
  const [created] = await db
    .insert(mfaTickets)
    .values(row)
    .onConflictDoUpdate({
      target: mfaTickets.keyHash,
      set: {
        userId: row.userId,
        purpose: row.purpose,
        pendingTotpSecret: null,
        webauthnChallenge: null,
        failures: 0,
        createdAt: sql`now()`,
        expiresAt: row.expiresAt,
      },
    })
    .returning();
  return created!;
}

export async function findLiveTicket(
  db: Executor,
  keyHash: string,
  now: Date,
): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(mfaTickets)
    .where(and(eq(mfaTickets.keyHash, keyHash), gt(mfaTickets.expiresAt, now)))
    .limit(1);
  return row;
}

export async function updateTicket(
  db: Executor,
  id: string,
  values: Partial<Pick<TicketRow, 'pendingTotpSecret' | 'webauthnChallenge'>>,
): Promise<void> {
  await db.update(mfaTickets).set(values).where(eq(mfaTickets.id, id));
}

/**
 * Takes the WebAuthn challenge of a ticket, once: of two answers to the same
 * options, only one finds it.
 */
export async function takeChallenge(db: Executor, ticket: TicketRow): Promise<string | null> {
  const challenge = ticket.webauthnChallenge;
  if (!challenge) return null;
  const rows = await db
    .update(mfaTickets)
    .set({ webauthnChallenge: null })
    .where(and(eq(mfaTickets.id, ticket.id), eq(mfaTickets.webauthnChallenge, challenge)))
    .returning({ id: mfaTickets.id });
  return rows.length === 1 ? challenge : null;
}

/** Counts a wrong answer on a ticket and returns the new count. */
export async function countTicketFailure(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .update(mfaTickets)
    .set({ failures: sql`${mfaTickets.failures} + 1` })
    .where(eq(mfaTickets.id, id))
    .returning({ failures: mfaTickets.failures });
  return row?.failures ?? Number.MAX_SAFE_INTEGER;
}

/** Spends a ticket; false when it was already gone. */
export async function deleteTicket(db: Executor, id: string): Promise<boolean> {
  return (await deleteRows(db, mfaTickets, eq(mfaTickets.id, id))) === 1;
}

/** Retention: pending steps past their end. */
export function deleteExpiredTickets(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, mfaTickets, lt(mfaTickets.expiresAt, before));
}
