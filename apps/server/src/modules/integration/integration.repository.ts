/** SQL for what the exam-delivery system attaches to an exam (the exam is found in its unit first). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examPhotos, occurrences } from '../../db/schema/index';

export async function findPhotoBySha(
  db: Executor,
  examId: string,
  sha256: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: examPhotos.id })
    .from(examPhotos)
    .where(and(eq(examPhotos.examId, examId), eq(examPhotos.sha256, sha256)))
    .limit(1);
  return row;
}

export async function insertPhoto(
  db: Executor,
  row: typeof examPhotos.$inferInsert,
): Promise<{ id: string }> {
  const [created] = await db.insert(examPhotos).values(row).returning({ id: examPhotos.id });
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Inserts an occurrence unless the exam already has one with this external id; its id when inserted. */
export async function insertOccurrenceOnce(
  db: Executor,
  row: typeof occurrences.$inferInsert,
): Promise<{ id: string } | undefined> {
  const [inserted] = await db
    .insert(occurrences)
    .values(row)
    .onConflictDoNothing({ target: [occurrences.examId, occurrences.externalId] })
    .returning({ id: occurrences.id });
  return inserted;
}
