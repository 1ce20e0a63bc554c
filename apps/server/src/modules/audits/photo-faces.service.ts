/**
 * What the face engine reads in an exam's photos: each photo is read once
 * (its descriptor stored with it), outside any transaction (the CPU work
 * holds no lock), and the exam keeps the lowest similarity of a capture to
 * its reference photo, which ranks the audit queue. A face mismatch never
 * decides anything: it only ranks and explains; the auditor decides.
 *
 * Reads happen when an auditor opens the exam (what is still unread, on the
 * request path) and, in the background, through the `face-read` queue
 * (face-read-queue.service.ts): a job per photo, sent when it is stored and
 * consumed by any process with a face pool (the server, or dedicated
 * `face:worker` processes); the `face-sweep` job (once per interval across
 * instances: jobs/scheduled-jobs.ts) enqueues what is unread without a job.
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
  findPhotoToRead,
  listPendingFacePhotos,
  lockExamForSimilarity,
  listStaleBacklogPhotos,
  listUnreadExamPhotos,
  saveFaceReading,
  setFaceMinSimilarity,
  type PendingFacePhoto,
} from './audit-photos.repository';

export type PhotoFaceDeps = {
  db: Database;
  files: FileStorage;
  face: FaceService;
  /**
   * Told after an exam's readings changed, once its similarity is written:
   * the search for the same face in other exams (modules/fraud, wired by the
   * app and the face worker; it logs its own failures).
   */
  afterExamRead?: (examId: string) => Promise<unknown>;
};

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

/**
 * The lowest similarity of a capture to the reference, or null without both
 * faces. Readers of one exam's photos in other processes recompute it too:
 * on the exam's locked row, so that the last write saw every reading.
 */
export async function refreshFaceMinSimilarity(
  deps: Pick<PhotoFaceDeps, 'db' | 'face' | 'afterExamRead'>,
  examId: string,
): Promise<number | null> {
  const version = deps.face.descriptorVersion;
  const lowest = await deps.db.transaction(async (tx) => {
    await lockExamForSimilarity(tx, examId);
    const readings = await faceReadingsOf(tx, examId);
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
    await setFaceMinSimilarity(tx, examId, lowest, version);
    return lowest;
  });
  await deps.afterExamRead?.(examId);
  return lowest;
}

/**
 * One photo of the `face-read` queue: read unless the running engine already
 * read it (a job delivered twice, or the exam opened meanwhile), then the
 * exam's lowest similarity recomputed. Throws when the engine or the storage
 * could not read it (the job is retried).
 */
export async function readQueuedPhoto(
  deps: PhotoFaceDeps,
  photoId: string,
): Promise<{ status: 'read' | 'already-read' | 'gone'; examId?: string }> {
  const photo = await findPhotoToRead(deps.db, photoId);
  if (!photo) return { status: 'gone' };
  const version = deps.face.descriptorVersion;
  if (photo.faceStatus !== 'pending' && photo.faceDescriptorVersion === version) {
    return { status: 'already-read', examId: photo.examId };
  }
  if (!(await readPhoto(deps, photo))) {
    throw new Error('motor facial ou armazenamento indisponível; a foto será lida de novo');
  }
  await refreshFaceMinSimilarity(deps, photo.examId);
  return { status: 'read', examId: photo.examId };
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
 * The photos of exams waiting for audit the running engine has not read,
 * oldest exam first: never read, then, after an engine change, those read by
 * another engine. With `unqueuedIn`, only those without a live job in that
 * reading queue (whose job reads them; if it fails for good, the next sweep
 * finds the photo again, or the exam's opening reads it).
 */
export async function listBacklogToRead(
  deps: Pick<PhotoFaceDeps, 'db' | 'face'>,
  limit: number,
  unqueuedIn?: string,
): Promise<PendingFacePhoto[]> {
  const version = deps.face.descriptorVersion;
  const photos = await listPendingFacePhotos(deps.db, limit, unqueuedIn);
  const current = backlogCurrent.get(deps.db) ?? new Set<string>();
  if (photos.length >= limit || current.has(version)) return photos;
  const stale = await listStaleBacklogPhotos(deps.db, limit - photos.length, version, unqueuedIn);
  if (stale.length === 0) backlogCurrent.set(deps.db, current.add(version));
  return [...photos, ...stale];
}

/**
 * One pass of the background reading in this process (the backlog read
 * here and now); the server enqueues the backlog instead (the `face-sweep`).
 */
export async function readPendingFaces(deps: PhotoFaceDeps, limit: number): Promise<number> {
  const photos = await listBacklogToRead(deps, limit);
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
