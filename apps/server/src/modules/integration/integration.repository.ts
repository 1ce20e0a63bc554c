/**
 * SQL for what the exam-delivery system attaches to an exam besides its
 * photos (exams/exam-photos.repository.ts): occurrences, and the reading the
 * face engine must redo. The exam is found in its unit first.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { exams, occurrences } from '../../db/schema/index';

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

/** Forgets the exam's lowest face similarity until the engine reads its photos again. */
export async function clearFaceMinSimilarity(db: Executor, examId: string): Promise<void> {
  await db.update(exams).set({ faceMinSimilarity: null }).where(eq(exams.id, examId));
}
