/**
 * Exams: the list and detail for signed-in users, and the one write path used
 * by the integration API and the CSV import. Every status and result change
 * goes through the state machine of packages/shared; an illegal change is a
 * clear error and nothing of its batch is written. Every exam written is
 * announced as an `exam_changed` realtime event in the same transaction.
 */
import {
  checkResultTransition,
  checkStatusTransition,
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
  type ExamResult,
  type ExamChangedPayload,
  type ExamStatus,
  type ExamTransitionErrorCode,
  type IntegrationExam,
} from '@exame/shared';
import type { Database, Executor } from '../../db/client';
import { AppError, type ErrorDetail } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { signedPath, type SignedViewer } from '../../lib/signed-access';
import type { SessionUser } from '../../lib/actors';
import { insertActivity } from '../activity/activity.repository';
import { findCustody, findRoomByLocal } from '../exam-rooms/exam-rooms.repository';
import { publishRealtimeAll, type RealtimeEventInput } from '../realtime/realtime.repository';
import {
  examsAwaitingAuditConfirmation,
  findExam,
  findExamsForUpdate,
  findPhotoWithUnit,
  historyOf,
  insertExam,
  insertHistory,
  listExams,
  localName,
  occurrencesOf,
  photosOf,
  updateExam,
  type ExamListFilter,
  type ExamRow,
} from './exams.repository';

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

/** The `exam_changed` event of an exam as written (CPF masked: events reach every screen of the unit). */
export function examChangedEvent(row: ExamRow): RealtimeEventInput {
  const payload: ExamChangedPayload = {
    examId: row.id,
    schedulingId: row.schedulingId,
    status: row.status,
    result: row.result,
    schedulingLocal: row.schedulingLocal,
    room: row.room,
    station: row.station,
    candidateName: row.candidateName,
    candidateCpf: maskCpf(row.candidateCpf),
  };
  return {
    federativeUnit: row.federativeUnit,
    schedulingLocal: row.schedulingLocal,
    kind: 'exam_changed',
    payload,
  };
}

/** Announces exams written in `tx`; last in the transaction (see publishRealtime). */
export async function publishExamChanges(tx: Executor, rows: ExamRow[]): Promise<void> {
  await publishRealtimeAll(tx, rows.map(examChangedEvent));
}

type Change = {
  status: ExamStatus;
  result?: ExamResult | null;
  score?: number | null;
  at?: Date;
};

/** Validates a status/result change of an existing exam; returns the patch, or the problem. */
export function planChange(
  current: Pick<
    ExamRow,
    'status' | 'result' | 'score' | 'startedAt' | 'finishedAt' | 'interruptedAt'
  >,
  change: Change,
):
  | { ok: true; patch: Partial<ExamRow>; changed: boolean }
  | { ok: false; code: ExamTransitionErrorCode; message: string } {
  const statusCheck = checkStatusTransition(current.status, change.status);
  if (!statusCheck.ok) return statusCheck;
  const nextResult = change.result === undefined ? current.result : change.result;
  const resultCheck = checkResultTransition(change.status, current.result, nextResult);
  if (!resultCheck.ok) return resultCheck;
  const at = change.at ?? new Date();
  const patch: Partial<ExamRow> = {};
  if (change.status !== current.status) {
    patch.status = change.status;
    if (change.status === 'started' && !current.startedAt) patch.startedAt = at;
    if (change.status === 'done' && !current.finishedAt) patch.finishedAt = at;
    // Only a running exam is interrupted: leaving `started` ends the interruption.
    if (change.status !== 'started' && current.interruptedAt) patch.interruptedAt = null;
  }
  if (nextResult !== current.result) patch.result = nextResult;
  if (change.score !== undefined && change.score !== current.score) patch.score = change.score;
  return { ok: true, patch, changed: Object.keys(patch).length > 0 };
}

function fieldsOf(input: IntegrationExam) {
  return {
    candidateName: input.candidate.name,
    candidateCpf: input.candidate.cpf,
    candidateRenach: input.candidate.renach ?? null,
    schedulingDate: new Date(input.schedulingDate),
    schedulingLocal: input.metadata?.schedulingLocal ?? null,
    pendingAudit: input.metadata?.pendingAudit ?? 0,
    absence: input.metadata?.absence ?? 0,
    interrupted: input.metadata?.interrupted ?? 0,
    room: input.room ?? null,
    station: input.station ?? null,
  };
}

function sameFields(row: ExamRow, fields: ReturnType<typeof fieldsOf>): boolean {
  return (
    row.candidateName === fields.candidateName &&
    row.candidateCpf === fields.candidateCpf &&
    row.candidateRenach === fields.candidateRenach &&
    row.schedulingDate.getTime() === fields.schedulingDate.getTime() &&
    row.schedulingLocal === fields.schedulingLocal &&
    row.pendingAudit === fields.pendingAudit &&
    row.absence === fields.absence &&
    row.interrupted === fields.interrupted &&
    row.room === fields.room &&
    row.station === fields.station
  );
}

/**
 * Creates or updates exams by schedulingId, in the caller's transaction.
 * Idempotent: sending the same batch again changes nothing. All or nothing:
 * the first problem found in any item rejects the whole batch, listing every
 * problem.
 */
export async function upsertExams(
  deps: { tx: Executor },
  writer: ExamWriter,
  input: { exams: IntegrationExam[]; createOnly?: boolean },
): Promise<{ created: number; updated: number; unchanged: number }> {
  const { tx } = deps;
  const { federativeUnit: unit, source, actorId } = writer;
  const items = input.exams;
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const previous = seen.get(item.schedulingId);
    if (previous !== undefined) {
      problems.push({
        path: `exams.${index}.schedulingId`,
        message: `schedulingId ${item.schedulingId} repetido (também no item ${previous + 1}).`,
      });
    }
    seen.set(item.schedulingId, index);
  });
  const existing = new Map(
    (await findExamsForUpdate(tx, unit, [...seen.keys()])).map((row) => [row.schedulingId, row]),
  );

  type Plan =
    | { kind: 'create'; item: IntegrationExam }
    | { kind: 'update'; row: ExamRow; patch: Partial<ExamRow>; statusChanged: boolean }
    | { kind: 'same' };
  const plans: Plan[] = [];
  items.forEach((item, index) => {
    const row = existing.get(item.schedulingId);
    if (!row) {
      if (item.result && item.status !== 'done') {
        problems.push({
          path: `exams.${index}.result`,
          message: EXAM_ERRORS.EXAM_RESULT_REQUIRES_DONE.message,
        });
      }
      plans.push({ kind: 'create', item });
      return;
    }
    if (input.createOnly) {
      problems.push({
        path: `exams.${index}.schedulingId`,
        message: `O agendamento ${item.schedulingId} já existe.`,
      });
      return;
    }
    const plan = planChange(row, {
      status: item.status,
      result: item.result,
      score: item.score,
      at: item.finishedAt ? new Date(item.finishedAt) : undefined,
    });
    if (!plan.ok) {
      problems.push({
        path: `exams.${index}.status`,
        message: `${item.schedulingId}: ${plan.message}`,
      });
      return;
    }
    const fields = fieldsOf(item);
    const patch = sameFields(row, fields) ? plan.patch : { ...fields, ...plan.patch };
    if (Object.keys(patch).length === 0) plans.push({ kind: 'same' });
    else
      plans.push({
        kind: 'update',
        row,
        patch,
        statusChanged: patch.status !== undefined || patch.result !== undefined,
      });
  });
  // A result whose audit decision waits for a second auditor is the audit's, not the integration's.
  const underAudit = await examsAwaitingAuditConfirmation(
    tx,
    plans.flatMap((plan) =>
      plan.kind === 'update' && plan.patch.result !== undefined ? [plan.row.id] : [],
    ),
  );
  if (underAudit.size > 0) {
    items.forEach((item, index) => {
      const row = existing.get(item.schedulingId);
      if (row && underAudit.has(row.id)) {
        problems.push({
          path: `exams.${index}.result`,
          message: `${item.schedulingId}: ${EXAM_ERRORS.EXAM_RESULT_UNDER_AUDIT.message}`,
        });
      }
    });
  }
  if (problems.length > 0) {
    const { status, message } = EXAM_ERRORS.EXAM_BATCH_REJECTED;
    throw new AppError('EXAM_BATCH_REJECTED', message, status, problems);
  }

  const counts = { created: 0, updated: 0, unchanged: 0 };
  const written: ExamRow[] = [];
  for (const plan of plans) {
    if (plan.kind === 'same') {
      counts.unchanged += 1;
    } else if (plan.kind === 'create') {
      const created = await insertExam(tx, {
        federativeUnit: unit,
        schedulingId: plan.item.schedulingId,
        ...fieldsOf(plan.item),
        status: plan.item.status,
        result: plan.item.result ?? null,
        score: plan.item.score ?? null,
        // An exam that arrives already started or finished gets the moment it arrived when none is sent.
        startedAt: plan.item.startedAt
          ? new Date(plan.item.startedAt)
          : ['started', 'done'].includes(plan.item.status)
            ? new Date()
            : null,
        finishedAt: plan.item.finishedAt
          ? new Date(plan.item.finishedAt)
          : plan.item.status === 'done'
            ? new Date()
            : null,
      });
      await insertHistory(tx, {
        examId: created.id,
        fromStatus: null,
        toStatus: created.status,
        toResult: created.result,
        source,
        actorId,
      });
      written.push(created);
      counts.created += 1;
    } else {
      await updateExam(tx, plan.row.id, plan.patch);
      if (plan.statusChanged) {
        await insertHistory(tx, {
          examId: plan.row.id,
          fromStatus: plan.row.status,
          toStatus: plan.patch.status ?? plan.row.status,
          fromResult: plan.row.result,
          toResult: plan.patch.result === undefined ? plan.row.result : plan.patch.result,
          source,
          actorId,
        });
      }
      written.push({ ...plan.row, ...plan.patch });
      counts.updated += 1;
    }
  }
  await publishExamChanges(tx, written);
  return counts;
}

/** One status/result change of one exam (integration), with the row locked against a concurrent change. */
export async function changeExamStatus(
  deps: Pick<ExamDeps, 'db'>,
  writer: ExamWriter,
  input: { schedulingId: string; change: Change },
): Promise<ExamRow> {
  const { schedulingId, change } = input;
  return deps.db.transaction(async (tx) => {
    const row = await findExam(tx, writer.federativeUnit, schedulingId, true);
    if (!row) throw examNotFound();
    const plan = planChange(row, change);
    if (!plan.ok) throw AppError.from(EXAM_ERRORS, plan.code, plan.message);
    if (!plan.changed) return row;
    if (
      plan.patch.result !== undefined &&
      (await examsAwaitingAuditConfirmation(tx, [row.id])).size > 0
    ) {
      throw AppError.from(EXAM_ERRORS, 'EXAM_RESULT_UNDER_AUDIT');
    }
    await updateExam(tx, row.id, plan.patch);
    await insertHistory(tx, {
      examId: row.id,
      fromStatus: row.status,
      toStatus: plan.patch.status ?? row.status,
      fromResult: row.result,
      toResult: plan.patch.result === undefined ? row.result : plan.patch.result,
      source: writer.source,
      actorId: writer.actorId,
    });
    const changed = { ...row, ...plan.patch };
    await publishExamChanges(tx, [changed]);
    return changed;
  });
}

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

/** Signs the addresses of exam photos for one viewer, valid for the configured time. */
export function examPhotoLinker(
  deps: Pick<ExamDeps, 'files' | 'signedUrlTtlMs'>,
  actor: SessionUser,
): (photoId: string) => string {
  const expiresAt = Date.now() + deps.signedUrlTtlMs;
  return (photoId) =>
    signedPath(deps.files, 'exam-photo', `/api/ExamPhoto/${photoId}`, photoId, actor.id, expiresAt);
}

export function photoLink(
  photo: { id: string; capturedAt: Date; width: number; height: number },
  link: (photoId: string) => string,
): ExamPhotoLink {
  return {
    id: photo.id,
    capturedAt: photo.capturedAt.toISOString(),
    url: link(photo.id),
    width: photo.width,
    height: photo.height,
  };
}

/**
 * Who held the exam's room while it ran (from its start, or its scheduled
 * time, to its end, or now): "who had custody when this exam ran" is a query.
 */
export function custodyOf(db: Executor, unit: string, row: ExamRow) {
  const place = postAndRoomOf(unit, row.schedulingLocal);
  if (!place) return Promise.resolve([]);
  return findCustody(db, unit, {
    postIdentifier: place.post,
    roomCode: place.room,
    from: row.startedAt ?? row.schedulingDate,
    to: row.finishedAt ?? new Date(),
  });
}

/**
 * `GET api/ExamPhoto/{id}` by signed address: the photo's bytes, after the
 * signature (bound to this route, the photo and the viewer) and its expiry
 * are checked; each view is written down (`photo_view`) in the photo's unit.
 */
export async function openExamPhoto(
  deps: ExamDeps,
  access: SignedViewer,
  input: { photoId: string },
): Promise<Buffer> {
  const { photoId } = input;
  const { viewer, expires, signature } = access;
  if (!deps.files.verifyAccess('exam-photo', photoId, viewer, expires, signature)) {
    throw AppError.from(EXAM_ERRORS, 'PHOTO_LINK_INVALID');
  }
  const found = await findPhotoWithUnit(deps.db, photoId);
  if (!found) throw AppError.from(EXAM_ERRORS, 'PHOTO_NOT_FOUND');
  const content = await deps.files.read(found.photo.storageKey);
  await insertActivity(deps.db, {
    type: 'photo_view',
    actorId: viewer,
    federativeUnit: found.federativeUnit,
    payload: { photoId, schedulingId: found.schedulingId },
    target: `exam:${found.schedulingId}`,
  });
  return content;
}
