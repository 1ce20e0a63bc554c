/** SQL for one-time password links and the queue of link requests. */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { passwordLinkRequests, passwordLinks } from '../../db/schema/index';

export type LinkPurpose = 'reset' | 'register';
type LinkRow = typeof passwordLinks.$inferSelect;
export type LinkRequestRow = typeof passwordLinkRequests.$inferSelect;

/** Voids every link of the user that is still open. */
export async function voidOpenLinks(db: Executor, userId: string, at: Date): Promise<void> {
  await db
    .update(passwordLinks)
    .set({ voidedAt: at })
    .where(
      and(
        eq(passwordLinks.userId, userId),
        isNull(passwordLinks.usedAt),
        isNull(passwordLinks.voidedAt),
      ),
    );
}

export async function insertLink(
  db: Executor,
  row: {
    userId: string;
    purpose: LinkPurpose;
    tokenHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(passwordLinks).values(row);
}

const openLink = (tokenHash: string, now: Date) =>
  and(
    eq(passwordLinks.tokenHash, tokenHash),
    isNull(passwordLinks.usedAt),
    isNull(passwordLinks.voidedAt),
    gt(passwordLinks.expiresAt, now),
  );

/** The link if it can still be used (nothing is changed). */
export async function findOpenLink(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<LinkRow | undefined> {
  const [row] = await db.select().from(passwordLinks).where(openLink(tokenHash, now)).limit(1);
  return row;
}

/** Marks the link used if it still can be, in one statement: of two concurrent uses one wins. */
export async function claimLink(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<LinkRow | undefined> {
  const [row] = await db
    .update(passwordLinks)
    .set({ usedAt: now })
    .where(openLink(tokenHash, now))
    .returning();
  return row;
}

export async function insertLinkRequest(
  db: Executor,
  row: { kind: LinkPurpose; value: string },
): Promise<void> {
  await db.insert(passwordLinkRequests).values(row);
}

/**
 * The oldest request, locked for the caller's transaction; other instances
 * skip it while the transaction holds it.
 */
export async function takeLinkRequest(db: Executor): Promise<LinkRequestRow | undefined> {
  const [row] = await selectRows<{
    id: string;
    kind: LinkPurpose;
    value: string;
    requested_at: string | Date;
    attempts: number;
  }>(
    db,
    sql`select id, kind, value, requested_at, attempts from ${passwordLinkRequests}
        order by requested_at limit 1 for update skip locked`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    value: row.value,
    requestedAt: new Date(row.requested_at),
    attempts: row.attempts,
  };
}

export async function deleteLinkRequest(db: Executor, id: string): Promise<void> {
  await db.delete(passwordLinkRequests).where(eq(passwordLinkRequests.id, id));
}

/** Counts a failed processing; a request that keeps failing is dropped after `maxAttempts`. */
export async function recordLinkRequestFailure(
  db: Executor,
  id: string,
  maxAttempts: number,
): Promise<void> {
  await db
    .update(passwordLinkRequests)
    .set({ attempts: sql`${passwordLinkRequests.attempts} + 1` })
    .where(eq(passwordLinkRequests.id, id));
  await db
    .delete(passwordLinkRequests)
    .where(
      and(eq(passwordLinkRequests.id, id), sql`${passwordLinkRequests.attempts} >= ${maxAttempts}`),
    );
}

/** Retention: requests queued before `before` (a day-old one will never be worked off). */
export async function deleteLinkRequestsBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, passwordLinkRequests, lt(passwordLinkRequests.requestedAt, before));
}
