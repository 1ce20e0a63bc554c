/** SQL for integration API keys; lists and revocations are scoped to a federative unit. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { integrationApiKeys } from '../../db/schema/index';

export type ApiKeyRow = typeof integrationApiKeys.$inferSelect;

export async function listKeysOfUnit(db: Executor, unit: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(integrationApiKeys)
    .where(eq(integrationApiKeys.federativeUnit, unit))
    .orderBy(desc(integrationApiKeys.createdAt));
}

export async function insertKey(
  db: Executor,
  row: typeof integrationApiKeys.$inferInsert,
): Promise<ApiKeyRow> {
  const [created] = await db.insert(integrationApiKeys).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Revokes a live key of the unit; undefined when there is none. */
export async function revokeKeyOfUnit(
  db: Executor,
  unit: string,
  id: string,
  revokedBy: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(integrationApiKeys)
    .set({ revokedAt: new Date(), revokedBy })
    .where(
      and(
        eq(integrationApiKeys.id, id),
        eq(integrationApiKeys.federativeUnit, unit),
        isNull(integrationApiKeys.revokedAt),
      ),
    )
    .returning();
  return row;
}

export async function findLiveKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(integrationApiKeys)
    .where(and(eq(integrationApiKeys.keyHash, keyHash), isNull(integrationApiKeys.revokedAt)))
    .limit(1);
  return row;
}

export async function touchKey(db: Executor, id: string): Promise<void> {
  await db
    .update(integrationApiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(integrationApiKeys.id, id));
}
