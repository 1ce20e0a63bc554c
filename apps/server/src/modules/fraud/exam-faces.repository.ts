/** The SQL of exam faces: what an exam's captures read, and the unit's searchable faces. */
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examFaces, examPhotos, exams } from '../../db/schema/index';

export type ExamForFace = {
  id: string;
  federativeUnit: string;
  candidateCpf: string;
  schedulingDate: Date;
};

/** The exam whose face is made (any unit: the reading is the system's own work). */
export async function findExamForFace(
  db: Executor,
  examId: string,
): Promise<ExamForFace | undefined> {
  const [row] = await db
    .select({
      id: exams.id,
      federativeUnit: exams.federativeUnit,
      candidateCpf: exams.candidateCpf,
      schedulingDate: exams.schedulingDate,
    })
    .from(exams)
    .where(eq(exams.id, examId));
  return row;
}

export type CaptureReading = {
  id: string;
  examId: string;
  faceStatus: 'pending' | 'found' | 'no_face';
  faceDescriptor: number[] | null;
  faceDescriptorVersion: string | null;
};

/** What the engine read in the captures of some exams (the reference photo is not one). */
export async function captureReadingsOf(
  db: Executor,
  examIds: readonly string[],
): Promise<CaptureReading[]> {
  if (examIds.length === 0) return [];
  return db
    .select({
      id: examPhotos.id,
      examId: examPhotos.examId,
      faceStatus: examPhotos.faceStatus,
      faceDescriptor: examPhotos.faceDescriptor,
      faceDescriptorVersion: examPhotos.faceDescriptorVersion,
    })
    .from(examPhotos)
    .where(and(inArray(examPhotos.examId, [...examIds]), eq(examPhotos.kind, 'capture')))
    .orderBy(asc(examPhotos.capturedAt));
}

export type ExamFaceRow = typeof examFaces.$inferSelect;

/** Writes an exam's face; every write takes a new `seq`, so that the indexes catch up. */
export async function saveExamFace(
  db: Executor,
  exam: ExamForFace,
  face: { descriptor: number[]; version: string; captures: number },
): Promise<void> {
  await db
    .insert(examFaces)
    .values({
      examId: exam.id,
      federativeUnit: exam.federativeUnit,
      candidateCpf: exam.candidateCpf,
      schedulingDate: exam.schedulingDate,
      descriptor: face.descriptor,
      descriptorVersion: face.version,
      captures: face.captures,
    })
    .onConflictDoUpdate({
      target: examFaces.examId,
      set: {
        candidateCpf: exam.candidateCpf,
        schedulingDate: exam.schedulingDate,
        descriptor: face.descriptor,
        descriptorVersion: face.version,
        captures: face.captures,
        seq: sql`nextval('exam_faces_seq')`,
        updatedAt: sql`now()`,
      },
    });
}

export async function deleteExamFace(db: Executor, examId: string): Promise<void> {
  await db.delete(examFaces).where(eq(examFaces.examId, examId));
}

/** The unit's faces written after `seq`, in `seq` order (an index catching up). */
export function examFacesSince(
  db: Executor,
  unit: string,
  seq: number,
  limit: number,
): Promise<Array<Pick<ExamFaceRow, 'examId' | 'descriptor' | 'descriptorVersion' | 'seq'>>> {
  return db
    .select({
      examId: examFaces.examId,
      descriptor: examFaces.descriptor,
      descriptorVersion: examFaces.descriptorVersion,
      seq: examFaces.seq,
    })
    .from(examFaces)
    .where(and(eq(examFaces.federativeUnit, unit), gt(examFaces.seq, seq)))
    .orderBy(asc(examFaces.seq))
    .limit(limit);
}

/** The exams of the unit with a face (an index drops what the table no longer holds). */
export async function examFaceIdsOf(db: Executor, unit: string): Promise<Set<string>> {
  const rows = await db
    .select({ examId: examFaces.examId })
    .from(examFaces)
    .where(eq(examFaces.federativeUnit, unit));
  return new Set(rows.map((row) => row.examId));
}

/** Some faces of the unit, searchable since `from` (the window): the index's hits checked. */
export function examFacesOf(
  db: Executor,
  unit: string,
  examIds: readonly string[],
  from: Date,
): Promise<ExamFaceRow[]> {
  if (examIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(examFaces)
    .where(
      and(
        eq(examFaces.federativeUnit, unit),
        inArray(examFaces.examId, [...examIds]),
        gte(examFaces.schedulingDate, from),
      ),
    );
}

/** The units with searchable faces. */
export async function unitsWithFaces(db: Executor): Promise<string[]> {
  const rows = await db.selectDistinct({ unit: examFaces.federativeUnit }).from(examFaces);
  return rows.map((row) => row.unit);
}

/** Removes a unit's faces of exams scheduled before `before`; how many. */
export async function deleteExamFacesBefore(
  db: Executor,
  unit: string,
  before: Date,
): Promise<number> {
  const rows = await db
    .delete(examFaces)
    .where(and(eq(examFaces.federativeUnit, unit), lt(examFaces.schedulingDate, before)))
    .returning({ examId: examFaces.examId });
  return rows.length;
}

/** Exams of the window with read captures (the rebuild command walks them by id). */
export async function examsWithReadCaptures(
  db: Executor,
  from: Date,
  afterId: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: exams.id })
    .from(exams)
    .innerJoin(examPhotos, eq(examPhotos.examId, exams.id))
    .where(
      and(
        gte(exams.schedulingDate, from),
        eq(examPhotos.kind, 'capture'),
        eq(examPhotos.faceStatus, 'found'),
        afterId ? gt(exams.id, afterId) : undefined,
      ),
    )
    .orderBy(asc(exams.id))
    .limit(limit);
  return rows.map((row) => row.id);
}
