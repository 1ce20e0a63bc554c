/**
 * What the exam-delivery system may do with a key of its unit: nothing outside
 * that unit. Pictures are validated and re-encoded once, before any
 * transaction (CPU work holds no locks); a batch is all or nothing. What is
 * added to an exam is announced as realtime events in the same transaction.
 */
import type {
  BatchResult,
  Exam,
  IntegrationExam,
  OccurrenceAddedPayload,
  OccurrenceInput,
  PhotoAddedPayload,
  StatusUpdate,
} from '@exame/shared';
import { validateAndNormalizeImage, type NormalisedImage } from '../../biometrics/image';
import type { Database } from '../../db/client';
import type { IntegrationCaller } from '../../lib/actors';
import type { FileStorage } from '../../lib/file-storage';
import { findExam, type ExamRow } from '../exams/exams.service';
import { changeExamStatus } from '../exams/exam-changes.service';
import { upsertExams } from '../exams/exam-upsert.service';
import { examNotFound, toExam, type ExamWriter } from '../exams/exams.service';
import { publishRealtimeAll, type RealtimeEventInput } from '../realtime/realtime.service';
import { storeExamPhoto, storeReferencePhoto } from '../exams/exam-photos.service';
import { clearFaceMinSimilarity, insertOccurrenceOnce } from './integration.repository';

export type IntegrationDeps = {
  db: Database;
  files: FileStorage;
  /** Photos stored, reported after the commit (for the face reading: the `face-read` queue). */
  photosStored?: (photoIds: readonly string[]) => void;
};

/** The integration writes exams of its key's unit, as no user. */
const writerOf = (caller: IntegrationCaller): ExamWriter => ({
  federativeUnit: caller.federativeUnit,
  source: 'integration',
  actorId: null,
});

export async function pushExams(
  deps: IntegrationDeps,
  caller: IntegrationCaller,
  exams: IntegrationExam[],
): Promise<BatchResult> {
  return deps.db.transaction((tx) => upsertExams({ tx }, writerOf(caller), { exams }));
}

/** A status change through the state machine; the integration gets the whole CPF it sent. */
export async function updateExamStatus(
  deps: IntegrationDeps,
  caller: IntegrationCaller,
  schedulingId: string,
  input: StatusUpdate,
): Promise<Exam> {
  const row = await changeExamStatus(deps, writerOf(caller), {
    schedulingId,
    change: {
      status: input.status,
      result: input.result,
      score: input.score,
      at: input.at ? new Date(input.at) : undefined,
    },
  });
  return toExam(row, null, 'whole');
}

const eventOf = (
  exam: ExamRow,
  event: Pick<RealtimeEventInput, 'kind' | 'payload'>,
): RealtimeEventInput => ({
  federativeUnit: exam.federativeUnit,
  schedulingLocal: exam.schedulingLocal,
  ...event,
});

const photoAdded = (exam: ExamRow, photoId: string): RealtimeEventInput =>
  eventOf(exam, {
    kind: 'photo_added',
    payload: {
      examId: exam.id,
      schedulingId: exam.schedulingId,
      photoId,
    } satisfies PhotoAddedPayload,
  });

export async function addPhoto(
  deps: IntegrationDeps,
  caller: IntegrationCaller,
  schedulingId: string,
  input: { image: string; capturedAt: string },
): Promise<{ id: string; created: boolean }> {
  const picture = await validateAndNormalizeImage(input.image);
  const photo = await deps.db.transaction(async (tx) => {
    const exam = await findExam(tx, caller.federativeUnit, schedulingId);
    if (!exam) throw examNotFound();
    const stored = await storeExamPhoto(
      tx,
      deps.files,
      exam.id,
      picture,
      new Date(input.capturedAt),
    );
    if (stored.created) await publishRealtimeAll(tx, [photoAdded(exam, stored.id)]);
    return stored;
  });
  if (photo.created) deps.photosStored?.([photo.id]);
  return photo;
}

/**
 * The candidate's reference photo (the picture on file), stored next to the
 * exam's captures so that the audit compares them with it; a new one
 * replaces the previous.
 */
export async function putReferencePhoto(
  deps: IntegrationDeps,
  caller: IntegrationCaller,
  schedulingId: string,
  input: { image: string },
): Promise<{ id: string; created: boolean }> {
  const picture = await validateAndNormalizeImage(input.image);
  const stored = await deps.db.transaction(async (tx) => {
    const exam = await findExam(tx, caller.federativeUnit, schedulingId);
    if (!exam) throw examNotFound();
    const photo = await storeReferencePhoto(tx, deps.files, exam.id, picture);
    if (photo.created) {
      // The similarities of the captures are read again against the new reference.
      await clearFaceMinSimilarity(tx, exam.id);
      await publishRealtimeAll(tx, [photoAdded(exam, photo.id)]);
    }
    return photo;
  });
  if (stored.created) deps.photosStored?.([stored.id]);
  if (stored.replacedKey) await deps.files.remove(stored.replacedKey).catch(() => undefined);
  return { id: stored.id, created: stored.created };
}

export async function addOccurrences(
  deps: IntegrationDeps,
  caller: IntegrationCaller,
  schedulingId: string,
  items: OccurrenceInput[],
): Promise<{ created: number; unchanged: number }> {
  const pictures = new Map<number, NormalisedImage>();
  for (const [index, item] of items.entries()) {
    if (item.photo) pictures.set(index, await validateAndNormalizeImage(item.photo));
  }
  const storedPhotos: string[] = [];
  const outcome = await deps.db.transaction(async (tx) => {
    storedPhotos.length = 0;
    const exam = await findExam(tx, caller.federativeUnit, schedulingId);
    if (!exam) throw examNotFound();
    const events: RealtimeEventInput[] = [];
    let created = 0;
    for (const [index, item] of items.entries()) {
      const picture = pictures.get(index);
      const photo = picture
        ? await storeExamPhoto(tx, deps.files, exam.id, picture, new Date(item.occurredAt))
        : undefined;
      if (photo?.created) {
        events.push(photoAdded(exam, photo.id));
        storedPhotos.push(photo.id);
      }
      const occurredAt = new Date(item.occurredAt);
      const inserted = await insertOccurrenceOnce(tx, {
        examId: exam.id,
        externalId: item.externalId,
        type: item.type,
        description: item.description,
        occurredAt,
        photoId: photo?.id ?? null,
      });
      if (!inserted) continue;
      created += 1;
      events.push(
        eventOf(exam, {
          kind: 'occurrence_added',
          payload: {
            examId: exam.id,
            schedulingId: exam.schedulingId,
            occurrenceId: inserted.id,
            type: item.type,
            description: item.description,
            occurredAt: occurredAt.toISOString(),
            hasPhoto: photo !== undefined,
          } satisfies OccurrenceAddedPayload,
        }),
      );
    }
    // Last in the transaction (see publishRealtime).
    await publishRealtimeAll(tx, events);
    return { created, unchanged: items.length - created };
  });
  deps.photosStored?.(storedPhotos);
  return outcome;
}
