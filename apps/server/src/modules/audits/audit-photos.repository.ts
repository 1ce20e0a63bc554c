/** The SQL of an exam's photos for the audit: what the face engine read of them, and the photo audit's marks. */
import { and, asc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { JOB_SCHEMA } from '../../db/job-boss';
import { examPhotos, exams, photoMarks, users } from '../../db/schema/index';
import { pending } from './audit-claims.repository';

export type AuditPhotoRow = {
  id: string;
  kind: 'capture' | 'reference';
  capturedAt: Date;
  width: number;
  height: number;
  faceStatus: 'pending' | 'found' | 'no_face';
  faceDescriptor: number[] | null;
  faceDescriptorVersion: string | null;
  verdict: 'compatible' | 'incompatible' | null;
  markedAt: Date | null;
  markerName: string | null;
};

/** The exam's photos (captures and reference) with their face reading and mark. */
export async function listAuditPhotos(db: Executor, examId: string): Promise<AuditPhotoRow[]> {
  return db
    .select({
      id: examPhotos.id,
      kind: examPhotos.kind,
      capturedAt: examPhotos.capturedAt,
      width: examPhotos.width,
      height: examPhotos.height,
      faceStatus: examPhotos.faceStatus,
      faceDescriptor: examPhotos.faceDescriptor,
      faceDescriptorVersion: examPhotos.faceDescriptorVersion,
      verdict: photoMarks.verdict,
      markedAt: photoMarks.markedAt,
      markerName: users.name,
    })
    .from(examPhotos)
    .leftJoin(photoMarks, eq(photoMarks.photoId, examPhotos.id))
    .leftJoin(users, eq(users.id, photoMarks.auditorId))
    .where(eq(examPhotos.examId, examId))
    .orderBy(asc(examPhotos.capturedAt));
}

export type PendingFacePhoto = { id: string; examId: string; storageKey: string; sha256: string };

const photoToRead = {
  id: examPhotos.id,
  examId: examPhotos.examId,
  storageKey: examPhotos.storageKey,
  sha256: examPhotos.sha256,
};

/** A reading made by another engine (another descriptor version, or none: stored before versions). */
const readByAnotherEngine = (version: string) =>
  and(
    ne(examPhotos.faceStatus, 'pending'),
    sql`${examPhotos.faceDescriptorVersion} is distinct from ${version}`,
  );

/** An exam's photos the running engine has not read: never read, or read by another engine. */
export async function listUnreadExamPhotos(
  db: Executor,
  examId: string,
  limit: number,
  version: string,
): Promise<PendingFacePhoto[]> {
  return db
    .select(photoToRead)
    .from(examPhotos)
    .where(
      and(
        eq(examPhotos.examId, examId),
        or(eq(examPhotos.faceStatus, 'pending'), readByAnotherEngine(version)),
      ),
    )
    .orderBy(asc(examPhotos.capturedAt))
    .limit(limit);
}

/**
 * A photo without a live job (waiting, to be retried or running) in the
 * reading queue `queue` (its jobs are keyed by photo id; the predicate is the
 * one of pg-boss's index of such keys).
 */
const withoutLiveJob = (queue: string) =>
  sql`not exists (select 1 from ${sql.identifier(JOB_SCHEMA)}.job j
        where j.name = ${queue} and j.state <= 'active' and j.policy = 'stately'
          and coalesce(j.singleton_key, '') = ${examPhotos.id}::text)`;

/**
 * Photos of the unit-less backlog of exams waiting for audit that meet
 * `condition`, oldest exam first; with `unqueuedIn`, only those without a
 * live job in that reading queue.
 */
function backlogPhotos(
  db: Executor,
  condition: SQL | undefined,
  limit: number,
  unqueuedIn?: string,
): Promise<PendingFacePhoto[]> {
  return db
    .select(photoToRead)
    .from(examPhotos)
    .innerJoin(exams, eq(exams.id, examPhotos.examId))
    .where(and(condition, pending, unqueuedIn ? withoutLiveJob(unqueuedIn) : undefined))
    .orderBy(asc(exams.schedulingDate), asc(examPhotos.capturedAt))
    .limit(limit);
}

/** Photos of the backlog never read (the partial index on unread photos finds them). */
export function listPendingFacePhotos(
  db: Executor,
  limit: number,
  unqueuedIn?: string,
): Promise<PendingFacePhoto[]> {
  return backlogPhotos(db, eq(examPhotos.faceStatus, 'pending'), limit, unqueuedIn);
}

/**
 * Photos of the backlog read by another engine. No index serves "another
 * version": this walks the backlog's photos, so the sweep asks it only until
 * it comes back empty (photo-faces.service.ts).
 */
export function listStaleBacklogPhotos(
  db: Executor,
  limit: number,
  version: string,
  unqueuedIn?: string,
): Promise<PendingFacePhoto[]> {
  return backlogPhotos(db, readByAnotherEngine(version), limit, unqueuedIn);
}

/** One photo to read, with what the engine read of it so far (undefined: no longer stored). */
export async function findPhotoToRead(
  db: Executor,
  photoId: string,
): Promise<
  | (PendingFacePhoto & {
      faceStatus: 'pending' | 'found' | 'no_face';
      faceDescriptorVersion: string | null;
    })
  | undefined
> {
  const [row] = await db
    .select({
      ...photoToRead,
      faceStatus: examPhotos.faceStatus,
      faceDescriptorVersion: examPhotos.faceDescriptorVersion,
    })
    .from(examPhotos)
    .where(eq(examPhotos.id, photoId))
    .limit(1);
  return row;
}

/**
 * Locks the exam's row: readers of one exam's photos recompute its lowest
 * similarity one at a time, so the last one to write saw every reading.
 */
export async function lockExamForSimilarity(tx: Executor, examId: string): Promise<void> {
  await tx.select({ id: exams.id }).from(exams).where(eq(exams.id, examId)).for('update');
}

/** Stores what the engine read, unless the picture was replaced meanwhile (the sha no longer matches). */
export async function saveFaceReading(
  db: Executor,
  photo: { id: string; sha256: string },
  reading: { status: 'found'; descriptor: number[] } | { status: 'no_face' },
  at: Date,
  version: string,
): Promise<void> {
  await db
    .update(examPhotos)
    .set({
      faceStatus: reading.status,
      faceDescriptor: reading.status === 'found' ? reading.descriptor : null,
      faceDescriptorVersion: version,
      faceAnalysedAt: at,
    })
    .where(and(eq(examPhotos.id, photo.id), eq(examPhotos.sha256, photo.sha256)));
}

export async function faceReadingsOf(
  db: Executor,
  examId: string,
): Promise<
  Array<{
    kind: 'capture' | 'reference';
    faceStatus: 'pending' | 'found' | 'no_face';
    faceDescriptor: number[] | null;
    faceDescriptorVersion: string | null;
  }>
> {
  return db
    .select({
      kind: examPhotos.kind,
      faceStatus: examPhotos.faceStatus,
      faceDescriptor: examPhotos.faceDescriptor,
      faceDescriptorVersion: examPhotos.faceDescriptorVersion,
    })
    .from(examPhotos)
    .where(eq(examPhotos.examId, examId));
}

export async function setFaceMinSimilarity(
  db: Executor,
  examId: string,
  value: number | null,
  version: string,
): Promise<void> {
  await db
    .update(exams)
    .set({ faceMinSimilarity: value, faceMinSimilarityVersion: version })
    .where(eq(exams.id, examId));
}

/** Marks a capture; returns the verdict it had before (null when it had none). */
export async function upsertMark(
  tx: Executor,
  row: {
    federativeUnit: string;
    examId: string;
    photoId: string;
    auditorId: string;
    verdict: 'compatible' | 'incompatible';
    markedAt: Date;
  },
): Promise<{ before: { verdict: string; auditorId: string } | null }> {
  const [previous] = await tx
    .select({ verdict: photoMarks.verdict, auditorId: photoMarks.auditorId })
    .from(photoMarks)
    .where(eq(photoMarks.photoId, row.photoId))
    .for('update');
  await tx
    .insert(photoMarks)
    .values(row)
    .onConflictDoUpdate({
      target: photoMarks.photoId,
      set: { verdict: row.verdict, auditorId: row.auditorId, markedAt: row.markedAt },
    });
  return { before: previous ?? null };
}

/** My photo audit: the exams whose captures the auditor marked, newest mark first. */
export async function listPhotoAuditsBy(
  db: Executor,
  unit: string,
  auditorId: string,
  limit: number,
) {
  return db
    .select({
      examId: exams.id,
      schedulingId: exams.schedulingId,
      candidateName: exams.candidateName,
      marked: sql<number>`count(*)::int`,
      incompatible: sql<number>`count(*) filter (where ${photoMarks.verdict} = 'incompatible')::int`,
      captures: sql<number>`(select count(*)::int from exam_photos p where p.exam_id = ${exams.id} and p.kind = 'capture')`,
      lastMarkedAt: sql<Date>`max(${photoMarks.markedAt})`.mapWith((value: string | Date) =>
        value instanceof Date ? value : new Date(value),
      ),
    })
    .from(photoMarks)
    .innerJoin(exams, eq(exams.id, photoMarks.examId))
    .where(and(eq(photoMarks.federativeUnit, unit), eq(photoMarks.auditorId, auditorId)))
    .groupBy(exams.id)
    .orderBy(sql`max(${photoMarks.markedAt}) desc`)
    .limit(limit);
}
