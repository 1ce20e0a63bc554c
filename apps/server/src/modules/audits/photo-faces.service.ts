/**
 * What the face engine reads in an exam's photos: each photo is read once
 * (its descriptor stored with it), outside any transaction (the CPU work
 * holds no lock), and the exam keeps the lowest similarity of a capture to
 * its reference photo, which ranks the audit queue. A face mismatch never
 * decides anything: it only ranks and explains; the auditor decides.
 *
 * Reads happen when an auditor opens the exam (what is still unread) and,
 * in the background, for the exams waiting for audit (the `face-sweep` job,
 * once per interval across instances: jobs/scheduled-jobs.ts).
 * When the engine is unavailable the photos stay unread and are tried again.
 */
import { DESCRIPTOR_LENGTH, templateOf, type FaceService } from '../../biometrics/face-engine';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import {
  faceReadingsOf,
  listPendingFacePhotos,
  saveFaceReading,
  setFaceMinSimilarity,
  type PendingFacePhoto,
} from './audits.repository';

export type PhotoFaceDeps = { db: Database; files: FileStorage; face: FaceService };

/** Reads one photo; false when the engine could not (the photo stays unread). */
async function readPhoto(deps: PhotoFaceDeps, photo: PendingFacePhoto): Promise<boolean> {
  const jpeg = await deps.files.read(photo.storageKey);
  try {
    const analysis = await deps.face.analyze(jpeg);
    await saveFaceReading(
      deps.db,
      photo,
      { status: 'found', descriptor: templateOf(analysis) },
      new Date(),
    );
  } catch (error) {
    // A picture without a usable face is a reading; an engine failure is not.
    if (!(error instanceof AppError) || error.status >= 500) return false;
    await saveFaceReading(deps.db, photo, { status: 'no_face' }, new Date());
  }
  return true;
}

/**
 * Whether two stored readings can be compared: both made by the current
 * engine (face-api's 128 numbers then MobileFaceNet's 192). Readings stored
 * by engine v1 hold face-api's 128 numbers only and are not comparable with
 * the fused score; they count as not read (no similarity) until read again.
 */
export function comparableReadings(
  a: readonly number[] | null | undefined,
  b: readonly number[] | null | undefined,
): boolean {
  return a?.length === DESCRIPTOR_LENGTH && b?.length === DESCRIPTOR_LENGTH;
}

/** The lowest similarity of a capture to the reference, or null without both faces. */
export async function refreshFaceMinSimilarity(
  deps: Pick<PhotoFaceDeps, 'db' | 'face'>,
  examId: string,
): Promise<number | null> {
  const readings = await faceReadingsOf(deps.db, examId);
  const reference = readings.find((photo) => photo.kind === 'reference');
  let lowest: number | null = null;
  if (reference?.faceDescriptor) {
    for (const photo of readings) {
      if (photo.kind !== 'capture' || !photo.faceDescriptor) continue;
      if (!comparableReadings(reference.faceDescriptor, photo.faceDescriptor)) continue;
      const { similarity } = deps.face.compare(reference.faceDescriptor, photo.faceDescriptor);
      lowest = lowest === null ? similarity : Math.min(lowest, similarity);
    }
  }
  await setFaceMinSimilarity(deps.db, examId, lowest);
  return lowest;
}

/** Reads what is unread among an exam's photos (at most `limit`); how many were read. */
export async function readExamFaces(
  deps: PhotoFaceDeps,
  examId: string,
  limit = 60,
): Promise<number> {
  const photos = await listPendingFacePhotos(deps.db, examId, limit);
  let read = 0;
  for (const photo of photos) {
    if (!(await readPhoto(deps, photo))) break;
    read += 1;
  }
  if (read > 0) await refreshFaceMinSimilarity(deps, examId);
  return read;
}

/** One pass of the background reading: unread photos of exams waiting for audit, oldest exam first. */
export async function readPendingFaces(deps: PhotoFaceDeps, limit: number): Promise<number> {
  const photos = await listPendingFacePhotos(deps.db, null, limit);
  const touched = new Set<string>();
  let read = 0;
  for (const photo of photos) {
    if (!(await readPhoto(deps, photo))) break;
    touched.add(photo.examId);
    read += 1;
  }
  for (const examId of touched) await refreshFaceMinSimilarity(deps, examId);
  return read;
}
