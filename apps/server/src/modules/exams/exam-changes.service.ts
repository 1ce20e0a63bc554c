/**
 * The one door of a change of an existing exam: the state machine's check
 * (planChange), the row and its history row written together
 * (writeExamChange), and the `exam_changed` notice, last in the transaction
 * (publishExamChanges). The integration API, the room's examiner and the
 * auditors' decisions all change exams through here.
 */
import {
  checkResultTransition,
  checkStatusTransition,
  EXAM_ERRORS,
  maskCpf,
  type ExamResult,
  type ExamChangedPayload,
  type ExamStatus,
  type ExamTransitionErrorCode,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { publishRealtimeAll, type RealtimeEventInput } from '../realtime/realtime.service';
import {
  examsAwaitingAuditConfirmation,
  findExam,
  insertHistory,
  updateExam,
  type ExamRow,
  type NewExamRow,
} from './exams.repository';
import { type ExamWriter, type ExamDeps, examNotFound } from './exams.service';

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

/** One status/result change of one exam (integration), with the row locked against a concurrent change. */
/** Who changes an exam: where the change comes from, and the user who made it (null for the integration API). */
export type ExamChangeBy = Pick<ExamWriter, 'source' | 'actorId'>;

/**
 * Writes a change of an existing exam in `tx`: its row and, unless told the
 * change is not one of status or result (`history: false`), its history row,
 * from what it was to what it is. Returns the exam as it now stands, for
 * publishExamChanges, which the caller runs last in the transaction (after
 * its other writes and row locks: see publishRealtime).
 */
export async function writeExamChange(
  tx: Executor,
  row: ExamRow,
  patch: Partial<NewExamRow>,
  by: ExamChangeBy,
  options: { history?: boolean } = {},
): Promise<ExamRow> {
  await updateExam(tx, row.id, patch);
  if (options.history !== false) {
    await insertHistory(tx, {
      examId: row.id,
      fromStatus: row.status,
      toStatus: patch.status ?? row.status,
      fromResult: row.result,
      toResult: patch.result === undefined ? row.result : patch.result,
      source: by.source,
      actorId: by.actorId,
    });
  }
  return { ...row, ...patch };
}

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
    const changed = await writeExamChange(tx, row, plan.patch, writer);
    await publishExamChanges(tx, [changed]);
    return changed;
  });
}
