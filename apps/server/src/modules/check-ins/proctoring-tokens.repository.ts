/** The SQL of examiner 2's confirmations (`proctoring_tokens`): issue, read, use once, forget. */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { proctoringTokens } from '../../db/schema/index';

export type ProctoringTokenRow = typeof proctoringTokens.$inferSelect;

export async function insertProctoringToken(
  db: Executor,
  row: typeof proctoringTokens.$inferInsert,
): Promise<void> {
  await db.insert(proctoringTokens).values(row);
}

/** A confirmation not yet used nor expired, by the hash of its token. */
export async function findLiveProctoringToken(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<ProctoringTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(proctoringTokens)
    .where(
      and(
        eq(proctoringTokens.tokenHash, tokenHash),
        isNull(proctoringTokens.usedAt),
        gt(proctoringTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Marks a confirmation used by the admission to `record`, if it is still
 * unused, unexpired, of that post and made for that record (or, opening a
 * record, for none): one admission wins, a concurrent one finds it used.
 */
export async function consumeProctoringToken(
  tx: Executor,
  use: {
    id: string;
    issuedTo: string;
    personId: string;
    schedulingLocal: string;
    /** The record it must have been issued for; null: issued for opening a new record. */
    issuedFor: string | null;
    record: string;
    now: Date;
  },
): Promise<boolean> {
  const issuedFor =
    use.issuedFor === null
      ? isNull(proctoringTokens.checkInId)
      : eq(proctoringTokens.checkInId, use.issuedFor);
  const used = await tx
    .update(proctoringTokens)
    .set({ usedAt: use.now, usedFor: use.record })
    .where(
      and(
        eq(proctoringTokens.id, use.id),
        eq(proctoringTokens.issuedTo, use.issuedTo),
        eq(proctoringTokens.personId, use.personId),
        eq(proctoringTokens.schedulingLocal, use.schedulingLocal),
        issuedFor,
        isNull(proctoringTokens.usedAt),
        gt(proctoringTokens.expiresAt, use.now),
      ),
    )
    .returning({ one: sql`1` });
  return used.length === 1;
}

/** The unit's confirmations expired before `before` (used or not): they name nobody any more. */
export function deleteExpiredProctoringTokens(
  db: Executor,
  unit: string,
  before: Date,
): Promise<number> {
  return deleteRows(
    db,
    proctoringTokens,
    and(eq(proctoringTokens.federativeUnit, unit), lt(proctoringTokens.expiresAt, before)),
  );
}

/** Retention: every unit's confirmations expired before `before`. */
export function deleteProctoringTokensExpiredBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, proctoringTokens, lt(proctoringTokens.expiresAt, before));
}
