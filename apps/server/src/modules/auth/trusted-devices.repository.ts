/** SQL for trusted devices: browsers where a user signed in (only the token's hash is stored). */
import { and, eq, gt, lt } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { trustedDevices } from '../../db/schema/index';

/** The user a live device token belongs to, or undefined. */
export async function findTrustedDevice(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string } | undefined> {
  const [row] = await db
    .select({ userId: trustedDevices.userId })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.tokenHash, tokenHash), gt(trustedDevices.expiresAt, now)))
    .limit(1);
  return row;
}

export async function upsertTrustedDevice(
  db: Executor,
  row: { tokenHash: string; userId: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insert(trustedDevices)
    .values({
      tokenHash: row.tokenHash,
      userId: row.userId,
      createdAt: row.now,
      lastUsedAt: row.now,
      expiresAt: row.expiresAt,
    })
    .onConflictDoUpdate({
      target: trustedDevices.tokenHash,
      set: { lastUsedAt: row.now, expiresAt: row.expiresAt },
    });
}

export async function deleteExpiredDevices(db: Executor, now: Date): Promise<number> {
  return deleteRows(db, trustedDevices, lt(trustedDevices.expiresAt, now));
}
