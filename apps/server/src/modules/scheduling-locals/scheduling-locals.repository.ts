import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { escapeLike } from '../../db/sql-text';
import { schedulingLocals } from '../../db/schema/index';

export type SchedulingLocalRow = typeof schedulingLocals.$inferSelect;

export async function listLocals(
  db: Executor,
  unit: string,
  options: { page: number; pageSize: number; search?: string; onlyActive?: boolean },
): Promise<{ items: SchedulingLocalRow[]; total: number }> {
  const conditions: Array<SQL | undefined> = [eq(schedulingLocals.federativeUnit, unit)];
  if (options.onlyActive) conditions.push(eq(schedulingLocals.isActive, true));
  const search = options.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(
      or(ilike(schedulingLocals.description, pattern), ilike(schedulingLocals.identifier, pattern)),
    );
  }
  const where = and(...conditions);
  const [items, totals] = await Promise.all([
    db
      .select()
      .from(schedulingLocals)
      .where(where)
      .orderBy(asc(schedulingLocals.description), asc(schedulingLocals.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ total: count() }).from(schedulingLocals).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function findLocal(db: Executor, unit: string, id: string) {
  const [row] = await db
    .select()
    .from(schedulingLocals)
    .where(and(eq(schedulingLocals.federativeUnit, unit), eq(schedulingLocals.id, id)))
    .limit(1);
  return row;
}

export async function findLocalByIdentifier(db: Executor, unit: string, identifier: string) {
  const [row] = await db
    .select()
    .from(schedulingLocals)
    .where(
      and(eq(schedulingLocals.federativeUnit, unit), eq(schedulingLocals.identifier, identifier)),
    )
    .limit(1);
  return row;
}

export async function insertLocal(db: Executor, row: typeof schedulingLocals.$inferInsert) {
  const [created] = await db.insert(schedulingLocals).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateLocal(
  db: Executor,
  unit: string,
  id: string,
  patch: Partial<Pick<SchedulingLocalRow, 'identifier' | 'description' | 'address' | 'isActive'>>,
) {
  const [row] = await db
    .update(schedulingLocals)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(schedulingLocals.federativeUnit, unit), eq(schedulingLocals.id, id)))
    .returning();
  return row;
}
