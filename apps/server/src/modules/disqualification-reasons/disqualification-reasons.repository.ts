/** The SQL of the disqualification reasons (`justificativas`) of a unit. */
import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { disqualificationReasons } from '../../db/schema/index';
import { escapeLike } from '../../db/sql-text';

export type DisqualificationReasonRow = typeof disqualificationReasons.$inferSelect;

/** The unit's reasons by code, filtered and paginated. */
export async function listReasons(
  db: Executor,
  unit: string,
  options: { page: number; pageSize: number; search?: string; onlyActive?: boolean },
): Promise<{ items: DisqualificationReasonRow[]; total: number }> {
  const conditions: Array<SQL | undefined> = [eq(disqualificationReasons.federativeUnit, unit)];
  if (options.onlyActive) conditions.push(eq(disqualificationReasons.isActive, true));
  const search = options.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(
      or(
        ilike(disqualificationReasons.code, pattern),
        ilike(disqualificationReasons.text, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const [items, totals] = await Promise.all([
    db
      .select()
      .from(disqualificationReasons)
      .where(where)
      .orderBy(asc(disqualificationReasons.code), asc(disqualificationReasons.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ total: count() }).from(disqualificationReasons).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A reason of the unit, locked until the transaction ends (changes go one at a time). */
export async function lockReason(
  tx: Executor,
  unit: string,
  id: string,
): Promise<DisqualificationReasonRow | undefined> {
  const [row] = await tx
    .select()
    .from(disqualificationReasons)
    .where(
      and(eq(disqualificationReasons.federativeUnit, unit), eq(disqualificationReasons.id, id)),
    )
    .for('update');
  return row;
}

export async function insertReasons(
  tx: Executor,
  rows: Array<typeof disqualificationReasons.$inferInsert>,
  options: { skipExisting?: boolean } = {},
): Promise<DisqualificationReasonRow[]> {
  if (rows.length === 0) return [];
  const insert = tx.insert(disqualificationReasons).values(rows);
  return options.skipExisting ? insert.onConflictDoNothing().returning() : insert.returning();
}

export async function updateReason(
  tx: Executor,
  unit: string,
  id: string,
  patch: Partial<Pick<DisqualificationReasonRow, 'code' | 'text' | 'isActive'>>,
): Promise<DisqualificationReasonRow | undefined> {
  const [row] = await tx
    .update(disqualificationReasons)
    .set({ ...patch, updatedAt: new Date() })
    .where(
      and(eq(disqualificationReasons.federativeUnit, unit), eq(disqualificationReasons.id, id)),
    )
    .returning();
  return row;
}
