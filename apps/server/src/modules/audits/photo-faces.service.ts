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
 * A reading names the engine that made it (its descriptor version): after
 * an engine change, older readings count as unread and are read again the
 * same way, so a similarity never mixes two engines' descriptors; the
 * exam's lowest similarity names its engine too, and another engine's is
 * neither shown nor ranked. (During a rolling upgrade, instances of both
 * versions read each other's readings again: CPU spent twice, and an exam
 * ranked by one engine shows as unread to the other until it reads it.)
 */
import {
  DESCRIPTOR_LENGTH,
  templateOf,
  type FaceAnalysis,
  type FaceService,
} from '../../biometrics/face-engine';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import {
  faceReadingsOf,
  listPendingFacePhotos,
  listStaleBacklogPhotos,
  listUnreadExamPhotos,
  saveFaceReading,
  setFaceMinSimilarity,
  type PendingFacePhoto,
} from './audit-photos.repository';

export type PhotoFaceDeps = { db: Database; files: FileStorage; face: FaceService };

/**
 * Reads one photo; false when the engine or the storage could not (the photo
 * stays unread and is tried again). A picture without a usable face, or one
 * the storage no longer holds (a 4xx of the file store), is a reading
 * (`no_face`: the auditor looks at it), so that one lost file never stops the
 * reading of the others.
 */
async function readPhoto(deps: PhotoFaceDeps, photo: PendingFacePhoto): Promise<boolean> {
  let analysis: FaceAnalysis;
  try {
    const jpeg = await deps.files.read(photo.storageKey);
    analysis = await deps.face.analyze(jpeg);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) return false;
    await saveFaceReading(
      deps.db,
      photo,
      { status: 'no_face' },
      new Date(),
      deps.face.descriptorVersion,
    );
    return true;
  }
  await saveFaceReading(
    deps.db,
    photo,
    { status: 'found', descriptor: templateOf(analysis) },
    new Date(),
    deps.face.descriptorVersion,
  );
  return true;
}

/** A stored reading of an exam photo (audits.repository). */
export type StoredFaceReading = {
  faceStatus: 'pending' | 'found' | 'no_face';
  faceDescriptor: number[] | null;
  faceDescriptorVersion: string | null;
};

/**
 * The descriptor of a reading the running engine can compare: a face found
 * by this very engine (same descriptor version, DESCRIPTOR_LENGTH numbers).
 * Readings of another engine (engine v1's 128 numbers, or v2's before the
 * mirror average) count as not read, and are read again.
 */
export function currentDescriptor(
  reading: StoredFaceReading | undefined,
  version: string,
): number[] | null {
  if (!reading || reading.faceStatus !== 'found') return null;
  if (reading.faceDescriptorVersion !== version) return null;
  const descriptor = reading.faceDescriptor;
  return descriptor?.length === DESCRIPTOR_LENGTH ? descriptor : null;
}

/** The status of a reading as the running engine sees it: another engine's reading is unread. */
export function currentStatus(
  reading: StoredFaceReading,
  version: string,
): StoredFaceReading['faceStatus'] {
  return reading.faceDescriptorVersion === version ? reading.faceStatus : 'pending';
}

/** The lowest similarity of a capture to the reference, or null without both faces. */
export async function refreshFaceMinSimilarity(
  deps: Pick<PhotoFaceDeps, 'db' | 'face'>,
  examId: string,
): Promise<number | null> {
  const readings = await faceReadingsOf(deps.db, examId);
  const version = deps.face.descriptorVersion;
  const reference = currentDescriptor(
    readings.find((photo) => photo.kind === 'reference'),
    version,
  );
  let lowest: number | null = null;
  if (reference) {
    for (const photo of readings) {
      const capture = photo.kind === 'capture' ? currentDescriptor(photo, version) : null;
      if (!capture) continue;
      const { similarity } = deps.face.compare(reference, capture);
      lowest = lowest === null ? similarity : Math.min(lowest, similarity);
    }
  }
  await setFaceMinSimilarity(deps.db, examId, lowest, version);
  return lowest;
}

/** Reads what is unread among an exam's photos (at most `limit`); how many were read. */
export async function readExamFaces(
  deps: PhotoFaceDeps,
  examId: string,
  limit = 60,
): Promise<number> {
  const photos = await listUnreadExamPhotos(deps.db, examId, limit, deps.face.descriptorVersion);
  let read = 0;
  for (const photo of photos) {
    if (!(await readPhoto(deps, photo))) break;
    read += 1;
  }
  if (read > 0) await refreshFaceMinSimilarity(deps, examId);
  return read;
}

/**
 * Databases whose backlog was found to hold no reading of another engine,
 * by engine version: the sweep stops looking for them there (a walk of the
 * backlog's photos) and reads only photos never read (an index lookup).
 * Readings of another version written later, by an instance of another
 * version during a rolling upgrade, are read again when the exam is opened.
 */
const backlogCurrent = new WeakMap<object, Set<string>>();

/**
 * One pass of the background reading, oldest exam first: unread photos of
 * exams waiting for audit, then, after an engine change, those read by
 * another engine.
 */
export async function readPendingFaces(deps: PhotoFaceDeps, limit: number): Promise<number> {
  const version = deps.face.descriptorVersion;
  let photos = await listPendingFacePhotos(deps.db, limit);
  const current = backlogCurrent.get(deps.db) ?? new Set<string>();
  if (photos.length < limit && !current.has(version)) {
    const stale = await listStaleBacklogPhotos(deps.db, limit - photos.length, version);
    if (stale.length === 0) backlogCurrent.set(deps.db, current.add(version));
    photos = [...photos, ...stale];
  }
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
