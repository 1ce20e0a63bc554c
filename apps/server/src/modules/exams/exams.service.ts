/**
 * Exams: the list and detail for signed-in users, and the words every module
 * shows an exam in. The one write path used by the integration API and the
 * CSV import is exam-upsert.service.ts; the one door of a change of an
 * existing exam (row, history, notice) is exam-changes.service.ts. Every status and result change
 * goes through the state machine of packages/shared; an illegal change is a
 * clear error and nothing of its batch is written. Every exam written is
 * announced as an `exam_changed` realtime event in the same transaction.
 */
import {
  EXAM_ERRORS,
  postAndRoomOf,
  maskCpf,
  PERIOD_ERRORS,
  resolveOpenPeriod,
  pageReply,
  type Exam,
  type ExamDetail,
  type ExamListQuery,
  type ExamPage,
  type ExamPhotoLink,
} from '@exame/shared';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import type { SessionUser } from '../../lib/actors';
import { insertActivity } from '../activity/activity.service';
import { findCustody, findRoomByLocal } from './exam-custody.repository';
import {
  findExam,
  historyOf,
  listExams,
  localName,
  occurrencesOf,
  type ExamListFilter,
  type ExamRow,
} from './exams.repository';
import { examPhotoLinker, photoLink } from './exam-photo-links.service';
import { photosOf } from './exam-photos.repository';

export type ChangeSource = 'integration' | 'import' | 'user';

/**
 * Who writes exams (the actor of the write paths): the unit written to,
 * where the change comes from, and the user who made it (null for the
 * integration API).
 */
export type ExamWriter = { federativeUnit: string; source: ChangeSource; actorId: string | null };

/** What the exam routes need, built once in app.ts. */
export type ExamDeps = {
  db: Database;
  files: FileStorage;
  /** How long a signed photo address stays valid. */
  signedUrlTtlMs: number;
};

export const examNotFound = () => AppError.from(EXAM_ERRORS, 'EXAM_NOT_FOUND');

/**
 * Every screen shows the candidate's CPF masked, so users get it masked
 * (searching by the whole CPF still works on the server). Only the
 * integration API, which sent it, gets it back whole.
 */
export function toExam(
  row: ExamRow,
  schedulingLocalName: string | null,
  cpf: 'masked' | 'whole' = 'masked',
): Exam {
  return {
    id: row.id,
    schedulingId: row.schedulingId,
    federativeUnit: row.federativeUnit,
    candidateName: row.candidateName,
    candidateCpf: cpf === 'whole' ? row.candidateCpf : maskCpf(row.candidateCpf),
    candidateRenach: row.candidateRenach,
    schedulingDate: row.schedulingDate.toISOString(),
    status: row.status,
    result: row.result,
    score: row.score,
    schedulingLocal: row.schedulingLocal,
    schedulingLocalName,
    pendingAudit: row.pendingAudit,
    absence: row.absence,
    interrupted: row.interrupted,
    room: row.room,
    station: row.station,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Exact totals of exam lists from the day counters, for the lists of other modules (the audit queue). */
export { totalFromDayCounts as examTotalFromCounters } from './exam-day-totals.repository';

/** `GET api/Exam`: one page of the unit's exams; the period follows the API's period contract. */
export async function searchExams(
  deps: Pick<ExamDeps, 'db'>,
  actor: SessionUser,
  query: ExamListQuery,
): Promise<ExamPage> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.from(PERIOD_ERRORS, period.code);
  const filter: ExamListFilter = {
    start: period.start,
    endExclusive: period.endExclusive,
    schedulingLocals: query.schedulingLocal,
    statuses: query.status,
    results: query.result,
    search: query.search,
  };
  const page = { page: query.page, pageSize: query.pageSize, sort: query.sort, order: query.order };
  const found = await listExams(deps.db, actor.federativeUnit, filter, page);
  return pageReply(page, {
    items: found.items.map((row) => toExam(row, row.schedulingLocalName)),
    total: found.total,
    totalCapped: found.totalCapped,
    totalEstimated: found.totalEstimated,
  });
}

/** The exam with its timeline, occurrences and photos (short-lived signed addresses); records `load_exam`. */
export async function getExamDetail(
  deps: ExamDeps,
  actor: SessionUser,
  schedulingId: string,
): Promise<ExamDetail> {
  const { db } = deps;
  const row = await findExam(db, actor.federativeUnit, schedulingId);
  if (!row) throw examNotFound();
  const [history, occurrenceRows, photos, name, room, custody] = await Promise.all([
    historyOf(db, row.id),
    occurrencesOf(db, row.id),
    photosOf(db, row.id),
    localName(db, actor.federativeUnit, row.schedulingLocal),
    row.schedulingLocal
      ? findRoomByLocal(db, actor.federativeUnit, row.schedulingLocal)
      : Promise.resolve(undefined),
    custodyOf(db, actor.federativeUnit, row),
  ]);
  await insertActivity(db, {
    type: 'load_exam',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    payload: { schedulingId },
    target: `exam:${schedulingId}`,
  });
  const link = examPhotoLinker(deps, actor);
  const reference = photos.find((photo) => photo.kind === 'reference');
  return {
    exam: toExam(row, name),
    history: history.map(historyEntryView),
    occurrences: occurrenceRows.map((occurrence) => occurrenceView(occurrence, link)),
    photos: photos
      .filter((photo) => photo.kind === 'capture')
      .map((photo): ExamPhotoLink => photoLink(photo, link)),
    referencePhoto: reference ? photoLink(reference, link) : null,
    room: room ?? null,
    custody: custody.map((entry) => ({
      checkInId: entry.checkInId,
      name: entry.name,
      checkInDate: entry.checkInDate.toISOString(),
      leftAt: entry.leftAt?.toISOString() ?? null,
    })),
  };
}

/** A change of the exam's timeline, as the detail screens show it. */
export function historyEntryView(entry: Awaited<ReturnType<typeof historyOf>>[number]) {
  return {
    fromStatus: entry.fromStatus,
    toStatus: entry.toStatus,
    fromResult: entry.fromResult,
    toResult: entry.toResult,
    source: entry.source,
    at: entry.at.toISOString(),
  };
}

/** An occurrence with the signed address of its photo, if it has one. */
export function occurrenceView(
  occurrence: Awaited<ReturnType<typeof occurrencesOf>>[number],
  link: (photoId: string) => string,
) {
  return {
    id: occurrence.id,
    type: occurrence.type,
    description: occurrence.description,
    occurredAt: occurrence.occurredAt.toISOString(),
    photoUrl: occurrence.photoId ? link(occurrence.photoId) : null,
  };
}

/** When an exam ran: from its start (or its scheduled time) to its end (or now). */
export function examWindow(row: ExamRow, now = new Date()): { from: Date; to: Date } {
  return { from: row.startedAt ?? row.schedulingDate, to: row.finishedAt ?? now };
}

/**
 * Who held the exam's room while it ran (examWindow): "who had custody when
 * this exam ran" is a query.
 */
export function custodyOf(db: Executor, unit: string, row: ExamRow) {
  const place = postAndRoomOf(unit, row.schedulingLocal);
  if (!place) return Promise.resolve([]);
  return findCustody(db, unit, {
    postIdentifier: place.post,
    roomCode: place.room,
    ...examWindow(row),
  });
}

/** Whether `userId` held the exam's room while it ran: one of custodyOf's answers. */
export async function heldExamRoom(db: Executor, row: ExamRow, userId: string): Promise<boolean> {
  const custody = await custodyOf(db, row.federativeUnit, row);
  return custody.some((entry) => entry.userId === userId);
}

// The door of this module for the others (modules import each other only through services).
export { findExam, localName, occurrencesOf, type ExamRow } from './exams.repository';
export { findCustody, findRoomByLocal } from './exam-custody.repository';
