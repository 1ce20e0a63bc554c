/** SQL for what the exam-delivery system attaches to an exam (the exam is found in its unit first). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examPhotos, exams, occurrences } from '../../db/schema/index';

export async function findPhotoBySha(
  db: Executor,
  examId: string,
  sha256: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: examPhotos.id })
    .from(examPhotos)
    .where(
      and(
        eq(examPhotos.examId, examId),
        eq(examPhotos.kind, 'capture'),
        eq(examPhotos.sha256, sha256),
      ),
    )
    .limit(1);
  return row;
}

/** The exam's reference photo, locked: a concurrent replacement waits. */
export async function findReferencePhoto(
  db: Executor,
  examId: string,
): Promise<{ id: string; sha256: string; storageKey: string } | undefined> {
  const [row] = await db
    .select({ id: examPhotos.id, sha256: examPhotos.sha256, storageKey: examPhotos.storageKey })
    .from(examPhotos)
    .where(and(eq(examPhotos.examId, examId), eq(examPhotos.kind, 'reference')))
    .limit(1)
    .for('update');
  return row;
}

/** A new picture in place of a stored one: what the engine read in the old one no longer applies. */
export async function replacePhoto(
  db: Executor,
  id: string,
  fields: Pick<
    typeof examPhotos.$inferInsert,
    'capturedAt' | 'storageKey' | 'contentType' | 'width' | 'height' | 'bytes' | 'sha256'
  >,
): Promise<void> {
  await db
    .update(examPhotos)
    .set({
      ...fields,
      faceStatus: 'pending',
      faceDescriptor: null,
      faceDescriptorVersion: null,
      faceAnalysedAt: null,
    })
    .where(eq(examPhotos.id, id));
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

/** Forgets the exam's lowest face similarity until the engine reads its photos again. */
export async function clearFaceMinSimilarity(db: Executor, examId: string): Promise<void> {
  await db.update(exams).set({ faceMinSimilarity: null }).where(eq(exams.id, examId));
}
