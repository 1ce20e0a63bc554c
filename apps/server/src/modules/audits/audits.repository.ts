/** The SQL of the audit queue and of the auditors' claims on its exams. */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import {
  auditClaims,
  auditDecisions,
  disqualificationReasons,
  examPhotos,
  exams,
  photoMarks,
  users,
} from '../../db/schema/index';

export type ExamRow = typeof exams.$inferSelect;
export type ClaimRow = typeof auditClaims.$inferSelect;
export type ClaimWithAuditor = ClaimRow & { auditorName: string; auditorCpf: string };

/** Done and waiting for an auditor (spec 4: `in_analysis`). */
const pending = and(eq(exams.status, 'done'), eq(exams.result, 'in_analysis'));

/** A live claim (not ended, not past its time) on the exam row of the outer query. */
const liveClaimOf = (now: Date) =>
  sql`exists (select 1 from ${auditClaims} c where c.exam_id = ${exams.id}
      and c.ended_at is null and c.expires_at > ${now.toISOString()}::timestamptz)`;

export type QueueFilter = {
  page: number;
  pageSize: number;
  schedulingLocal?: string;
  start?: Date;
  endExclusive?: Date;
  withOccurrences?: boolean;
  onlyFree?: boolean;
  stage?: 'all' | 'decision' | 'confirmation';
  sort?: 'oldest' | 'similarity';
  now: Date;
  /** The running engine's descriptor version: a lowest similarity of another engine ranks as unread. */
  faceVersion: string;
};

const awaitingOf = sql`exists (select 1 from audit_decisions d where d.exam_id = ${exams.id}
      and d.state = 'awaiting_confirmation')`;

/** The unit's exams waiting for audit, oldest exam first, with their counts. */
export async function listQueue(
  db: Executor,
  unit: string,
  filter: QueueFilter,
): Promise<{
  items: Array<ExamRow & { occurrenceCount: number; photoCount: number }>;
  total: number;
}> {
  const conditions: Array<SQL | undefined> = [eq(exams.federativeUnit, unit), pending];
  if (filter.schedulingLocal) {
    conditions.push(
      or(
        eq(exams.schedulingLocal, filter.schedulingLocal),
        sql`split_part(${exams.schedulingLocal}, '-', 1) = ${filter.schedulingLocal}`,
      ),
    );
  }
  if (filter.start) conditions.push(gte(exams.schedulingDate, filter.start));
  if (filter.endExclusive) conditions.push(lt(exams.schedulingDate, filter.endExclusive));
  if (filter.withOccurrences) {
    conditions.push(sql`exists (select 1 from occurrences o where o.exam_id = ${exams.id})`);
  }
  if (filter.onlyFree) conditions.push(sql`not ${liveClaimOf(filter.now)}`);
  if (filter.stage === 'decision') conditions.push(sql`not ${awaitingOf}`);
  if (filter.stage === 'confirmation') conditions.push(awaitingOf);
  const where = and(...conditions);
  const order =
    filter.sort === 'similarity'
      ? // The least like its reference first; exams not read yet after those read.
        [
          sql`case when ${exams.faceMinSimilarityVersion} = ${filter.faceVersion}
                then ${exams.faceMinSimilarity} end asc nulls last`,
          asc(exams.schedulingDate),
          asc(exams.schedulingId),
        ]
      : // Oldest exam first: the candidate who has waited longest for the result.
        [asc(exams.schedulingDate), asc(exams.schedulingId)];
  const [rows, totals] = await Promise.all([
    db
      .select({
        exam: exams,
        occurrenceCount: sql<number>`(select count(*)::int from occurrences o where o.exam_id = "exams"."id")`,
        photoCount: sql<number>`(select count(*)::int from exam_photos p where p.exam_id = "exams"."id" and p.kind = 'capture')`,
      })
      .from(exams)
      .where(where)
      .orderBy(...order)
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ total: count() }).from(exams).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      ...row.exam,
      occurrenceCount: row.occurrenceCount,
      photoCount: row.photoCount,
    })),
    total: totals[0]?.total ?? 0,
  };
}

const selectClaims = (db: Executor) =>
  db
    .select({ claim: auditClaims, auditorName: users.name, auditorCpf: users.cpf })
    .from(auditClaims)
    .innerJoin(users, eq(users.id, auditClaims.auditorId));

type ClaimJoin = Awaited<ReturnType<ReturnType<typeof selectClaims>['execute']>>[number];
const withAuditor = (row: ClaimJoin): ClaimWithAuditor => ({
  ...row.claim,
  auditorName: row.auditorName,
  auditorCpf: row.auditorCpf,
});

/** The live claims (not ended, not expired) on some exams. */
export async function findLiveClaims(
  db: Executor,
  examIds: string[],
  now: Date,
): Promise<ClaimWithAuditor[]> {
  if (examIds.length === 0) return [];
  const rows = await selectClaims(db).where(
    and(
      sql`${auditClaims.examId} in ${examIds}`,
      isNull(auditClaims.endedAt),
      gt(auditClaims.expiresAt, now),
    ),
  );
  return rows.map(withAuditor);
}

/** Every claim an exam had, oldest first (who worked on it). */
export async function listClaimsOfExam(db: Executor, examId: string): Promise<ClaimWithAuditor[]> {
  const rows = await selectClaims(db)
    .where(eq(auditClaims.examId, examId))
    .orderBy(asc(auditClaims.claimedAt));
  return rows.map(withAuditor);
}

/** The caller's live claims in the unit, newest first (my audit). */
export async function listLiveClaimsOf(
  db: Executor,
  unit: string,
  auditorId: string,
  now: Date,
): Promise<Array<ClaimWithAuditor & { exam: ExamRow }>> {
  const rows = await db
    .select({ claim: auditClaims, auditorName: users.name, auditorCpf: users.cpf, exam: exams })
    .from(auditClaims)
    .innerJoin(users, eq(users.id, auditClaims.auditorId))
    .innerJoin(exams, eq(exams.id, auditClaims.examId))
    .where(
      and(
        eq(auditClaims.federativeUnit, unit),
        eq(auditClaims.auditorId, auditorId),
        isNull(auditClaims.endedAt),
        gt(auditClaims.expiresAt, now),
      ),
    )
    .orderBy(desc(auditClaims.claimedAt));
  return rows.map((row) => ({ ...withAuditor(row), exam: row.exam }));
}

/** An exam of the unit (not locked). */
export async function findUnitExam(
  db: Executor,
  unit: string,
  examId: string,
): Promise<ExamRow | undefined> {
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), eq(exams.id, examId)))
    .limit(1);
  return row;
}

/** An exam of the unit, locked until the transaction ends: claims on it go one at a time. */
export async function lockExam(
  tx: Executor,
  unit: string,
  examId: string,
): Promise<ExamRow | undefined> {
  const [row] = await tx
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), eq(exams.id, examId)))
    .for('update');
  return row;
}

/** Ends the exam's unended claims that are past their time. */
export async function endExpiredClaims(tx: Executor, examId: string, now: Date): Promise<void> {
  await tx
    .update(auditClaims)
    .set({ endedAt: now, endReason: 'expired' })
    .where(
      and(
        eq(auditClaims.examId, examId),
        isNull(auditClaims.endedAt),
        lte(auditClaims.expiresAt, now),
      ),
    );
}

export async function insertClaim(
  tx: Executor,
  row: typeof auditClaims.$inferInsert,
): Promise<ClaimRow> {
  const [created] = await tx.insert(auditClaims).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Prolongs a live claim (the same auditor opens the exam again). */
export async function extendClaim(tx: Executor, id: string, expiresAt: Date): Promise<ClaimRow> {
  const [row] = await tx
    .update(auditClaims)
    .set({ expiresAt })
    .where(eq(auditClaims.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function endClaim(
  tx: Executor,
  id: string,
  end: { at: Date; reason: 'released' | 'decided' },
): Promise<void> {
  await tx
    .update(auditClaims)
    .set({ endedAt: end.at, endReason: end.reason })
    .where(eq(auditClaims.id, id));
}

/* ----- Decisions (send_result) ----- */

export type DecisionRow = typeof auditDecisions.$inferSelect;
export type DecisionView = DecisionRow & {
  auditorName: string;
  confirmerName: string | null;
  reopenerName: string | null;
  reasonCode: string | null;
  reasonText: string | null;
};

const confirmer = alias(users, 'confirmer');
const reopener = alias(users, 'reopener');

const selectDecisions = (db: Executor) =>
  db
    .select({
      decision: auditDecisions,
      auditorName: users.name,
      confirmerName: confirmer.name,
      reopenerName: reopener.name,
      reasonCode: disqualificationReasons.code,
      reasonText: disqualificationReasons.text,
    })
    .from(auditDecisions)
    .innerJoin(users, eq(users.id, auditDecisions.auditorId))
    .leftJoin(confirmer, eq(confirmer.id, auditDecisions.confirmedBy))
    .leftJoin(reopener, eq(reopener.id, auditDecisions.reopenedBy))
    .leftJoin(disqualificationReasons, eq(disqualificationReasons.id, auditDecisions.reasonId));

type DecisionJoin = Awaited<ReturnType<ReturnType<typeof selectDecisions>['execute']>>[number];
const decisionView = (row: DecisionJoin): DecisionView => ({
  ...row.decision,
  auditorName: row.auditorName,
  confirmerName: row.confirmerName,
  reopenerName: row.reopenerName,
  reasonCode: row.reasonCode,
  reasonText: row.reasonText,
});

/** The decisions awaiting a second auditor on some exams, with who made them. */
export async function findAwaitingDecisions(
  db: Executor,
  examIds: string[],
): Promise<DecisionView[]> {
  if (examIds.length === 0) return [];
  const rows = await selectDecisions(db).where(
    and(inArray(auditDecisions.examId, examIds), eq(auditDecisions.state, 'awaiting_confirmation')),
  );
  return rows.map(decisionView);
}

/** Every decision on an exam, oldest first. */
export async function listDecisionsOf(db: Executor, examId: string): Promise<DecisionView[]> {
  const rows = await selectDecisions(db)
    .where(eq(auditDecisions.examId, examId))
    .orderBy(asc(auditDecisions.decidedAt));
  return rows.map(decisionView);
}

const openStates = inArray(auditDecisions.state, ['awaiting_confirmation', 'effective']);

/** The exam's open decision (awaiting confirmation or in effect), if any. */
export async function findOpenDecision(
  db: Executor,
  examId: string,
): Promise<DecisionRow | undefined> {
  const [row] = await db
    .select()
    .from(auditDecisions)
    .where(and(eq(auditDecisions.examId, examId), openStates))
    .limit(1);
  return row;
}

export async function insertDecision(
  tx: Executor,
  row: typeof auditDecisions.$inferInsert,
): Promise<DecisionRow> {
  const [created] = await tx.insert(auditDecisions).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateDecision(
  tx: Executor,
  id: string,
  patch: Partial<typeof auditDecisions.$inferInsert>,
): Promise<DecisionRow> {
  const [row] = await tx
    .update(auditDecisions)
    .set(patch)
    .where(eq(auditDecisions.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

/** The auditor's decisions in the unit, newest first, with their exams. */
export async function listDecisionsBy(
  db: Executor,
  unit: string,
  auditorId: string,
  limit: number,
): Promise<Array<DecisionRow & { exam: ExamRow }>> {
  const rows = await db
    .select({ decision: auditDecisions, exam: exams })
    .from(auditDecisions)
    .innerJoin(exams, eq(exams.id, auditDecisions.examId))
    .where(and(eq(auditDecisions.federativeUnit, unit), eq(auditDecisions.auditorId, auditorId)))
    .orderBy(desc(auditDecisions.decidedAt))
    .limit(limit);
  return rows.map((row) => ({ ...row.decision, exam: row.exam }));
}

/* ----- Photos: what the engine read, and the photo audit's marks ----- */

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

/** Photos of the unit-less backlog of exams waiting for audit that meet `condition`, oldest exam first. */
function backlogPhotos(
  db: Executor,
  condition: SQL | undefined,
  limit: number,
): Promise<PendingFacePhoto[]> {
  return db
    .select(photoToRead)
    .from(examPhotos)
    .innerJoin(exams, eq(exams.id, examPhotos.examId))
    .where(and(condition, pending))
    .orderBy(asc(exams.schedulingDate), asc(examPhotos.capturedAt))
    .limit(limit);
}

/** Photos of the backlog never read (the partial index on unread photos finds them). */
export function listPendingFacePhotos(db: Executor, limit: number): Promise<PendingFacePhoto[]> {
  return backlogPhotos(db, eq(examPhotos.faceStatus, 'pending'), limit);
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
): Promise<PendingFacePhoto[]> {
  return backlogPhotos(db, readByAnotherEngine(version), limit);
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

/** A capture of the exam (not its reference photo). */
export async function findCapture(
  db: Executor,
  examId: string,
  photoId: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: examPhotos.id })
    .from(examPhotos)
    .where(
      and(
        eq(examPhotos.examId, examId),
        eq(examPhotos.id, photoId),
        eq(examPhotos.kind, 'capture'),
      ),
    )
    .limit(1);
  return row;
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
