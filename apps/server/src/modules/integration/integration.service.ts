/** What the exam-delivery system may do with a key of its unit: nothing outside that unit. */
import { createHash } from 'node:crypto';
import type { IntegrationExam } from '@exame/shared';
import { and, eq } from 'drizzle-orm';
import { validateAndNormalizeImage } from '../../biometrics/image';
import type { Database, Executor } from '../../db/client';
import { examPhotos, occurrences } from '../../db/schema/index';
import type { FileStorage } from '../../lib/file-storage';
import { findExam } from '../exams/exams.repository';
import { examNotFound, upsertExams } from '../exams/exams.service';
import type { IntegrationCaller } from './api-keys';

export async function pushExams(db: Database, caller: IntegrationCaller, exams: IntegrationExam[]) {
  return db.transaction((tx) => upsertExams(tx, caller.federativeUnit, exams, 'integration', null));
}

/** Stores a validated, re-encoded photo; the same picture sent twice is stored once. */
async function storePhoto(
  tx: Executor,
  files: FileStorage,
  examId: string,
  image: string,
  capturedAt: Date,
): Promise<{ id: string; created: boolean }> {
  const normalised = await validateAndNormalizeImage(image);
  const sha256 = createHash('sha256').update(normalised.jpeg).digest('hex');
  const [existing] = await tx
    .select({ id: examPhotos.id })
    .from(examPhotos)
    .where(and(eq(examPhotos.examId, examId), eq(examPhotos.sha256, sha256)))
    .limit(1);
  if (existing) return { id: existing.id, created: false };
  const storageKey = await files.put(normalised.jpeg);
  const [row] = await tx
    .insert(examPhotos)
    .values({
      examId,
      capturedAt,
      storageKey,
      contentType: 'image/jpeg',
      width: normalised.width,
      height: normalised.height,
      bytes: normalised.jpeg.length,
      sha256,
    })
    .returning({ id: examPhotos.id });
  if (!row) throw new Error('insert returned no row');
  return { id: row.id, created: true };
}

export async function addPhoto(
  db: Database,
  files: FileStorage,
  caller: IntegrationCaller,
  schedulingId: string,
  input: { image: string; capturedAt: string },
) {
  // Validate and re-encode before opening the transaction: CPU work holds no locks.
  await validateAndNormalizeImage(input.image);
  return db.transaction(async (tx) => {
    const exam = await findExam(tx, caller.federativeUnit, schedulingId);
    if (!exam) throw examNotFound();
    return storePhoto(tx, files, exam.id, input.image, new Date(input.capturedAt));
  });
}

export async function addOccurrences(
  db: Database,
  files: FileStorage,
  caller: IntegrationCaller,
  schedulingId: string,
  items: Array<{
    externalId: string;
    type: string;
    description: string;
    occurredAt: string;
    photo?: string;
  }>,
) {
  for (const item of items) if (item.photo) await validateAndNormalizeImage(item.photo);
  return db.transaction(async (tx) => {
    const exam = await findExam(tx, caller.federativeUnit, schedulingId);
    if (!exam) throw examNotFound();
    let created = 0;
    for (const item of items) {
      const photo = item.photo
        ? await storePhoto(tx, files, exam.id, item.photo, new Date(item.occurredAt))
        : undefined;
      const inserted = await tx
        .insert(occurrences)
        .values({
          examId: exam.id,
          externalId: item.externalId,
          type: item.type,
          description: item.description,
          occurredAt: new Date(item.occurredAt),
          photoId: photo?.id ?? null,
        })
        .onConflictDoNothing({ target: [occurrences.examId, occurrences.externalId] })
        .returning({ id: occurrences.id });
      created += inserted.length;
    }
    return { created, unchanged: items.length - created };
  });
}
