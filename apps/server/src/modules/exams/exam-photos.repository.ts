/**
 * SQL of an exam's photos (captures and the reference): the one place that
 * reads and writes them for the exam screens, the signed links and the
 * exam-delivery system. What the face engine read of them and the photo
 * audit's marks: audits/audit-photos.repository.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examPhotos, exams } from '../../db/schema/index';

/** A capture of the exam (never its reference photo), by its id or by its picture's hash. */
export async function findCapture(
  db: Executor,
  examId: string,
  by: { id: string } | { sha256: string },
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: examPhotos.id })
    .from(examPhotos)
    .where(
      and(
        eq(examPhotos.examId, examId),
        eq(examPhotos.kind, 'capture'),
        'id' in by ? eq(examPhotos.id, by.id) : eq(examPhotos.sha256, by.sha256),
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

export async function photosOf(db: Executor, examId: string) {
  return db
    .select()
    .from(examPhotos)
    .where(eq(examPhotos.examId, examId))
    .orderBy(asc(examPhotos.capturedAt));
}

export async function findPhotoWithUnit(db: Executor, photoId: string) {
  const [row] = await db
    .select({
      photo: examPhotos,
      federativeUnit: exams.federativeUnit,
      schedulingId: exams.schedulingId,
    })
    .from(examPhotos)
    .innerJoin(exams, eq(exams.id, examPhotos.examId))
    .where(eq(examPhotos.id, photoId))
    .limit(1);
  return row;
}
