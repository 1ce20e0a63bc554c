/**
 * The wake-up of the `face-read` queue's consumers in other processes: a
 * notification on one channel after jobs are sent, so an idle consumer
 * takes them at once instead of at its next poll.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';

export const FACE_READ_CHANNEL = 'face_read_jobs';

/** Tells every listening consumer that jobs wait (no payload: the queue says which). */
export async function announceFaceReads(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${FACE_READ_CHANNEL}, '')`);
}
