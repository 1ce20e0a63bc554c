/** SQL of the mail outbox: messages queued in a change's transaction, then delivered or read. */
import { and, asc, count, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { mailOutbox } from '../../db/schema/index';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export async function insertMail(
  db: Executor,
  row: {
    recipient: string;
    subject: string;
    text: string;
    html: string;
    link: string | null;
    linkExpiresAt: Date | null;
  },
): Promise<void> {
  await db.insert(mailOutbox).values(row);
}

/** Not sent yet and not given up on (`maxAttempts` failed deliveries). */
const deliverable = (maxAttempts: number) =>
  and(isNull(mailOutbox.sentAt), lt(mailOutbox.attempts, maxAttempts));

export async function countDeliverableMail(db: Executor, maxAttempts: number): Promise<number> {
  const [row] = await db
    .select({ pending: count() })
    .from(mailOutbox)
    .where(deliverable(maxAttempts));
  return row?.pending ?? 0;
}

/** The oldest messages still to deliver. */
export async function listDeliverableMail(
  db: Executor,
  maxAttempts: number,
  limit: number,
): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(deliverable(maxAttempts))
    .orderBy(asc(mailOutbox.createdAt))
    .limit(limit);
}

/** Delivered: the row keeps the record of it, not a usable link. */
export async function markMailSent(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ sentAt: at, attempts: sql`${mailOutbox.attempts} + 1`, lastError: null, link: null })
    .where(eq(mailOutbox.id, id));
}

export async function recordMailFailure(db: Executor, id: string, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, lastError: reason })
    .where(eq(mailOutbox.id, id));
}

/** Every message not sent yet (delivered or not, given up on or not), oldest first. */
export async function listUnsentMail(db: Executor, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(isNull(mailOutbox.sentAt))
    .orderBy(asc(mailOutbox.createdAt))
    .limit(limit);
}

/** Retention: messages created before `before`, sent or not. */
export async function deleteMailCreatedBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, mailOutbox, lt(mailOutbox.createdAt, before));
}

/** Retention: the links of messages whose link has expired at `now`. */
export async function clearExpiredMailLinks(db: Executor, now: Date): Promise<number> {
  const cleared = await db
    .update(mailOutbox)
    .set({ link: null })
    .where(and(isNotNull(mailOutbox.link), lt(mailOutbox.linkExpiresAt, now)))
    .returning({ id: mailOutbox.id });
  return cleared.length;
}
