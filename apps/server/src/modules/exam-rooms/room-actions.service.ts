/**
 * The examiner's actions on the exams of the room they hold: absence,
 * finish, interrupt and resume (each through the exams' one door of change,
 * with the activity event and the board's notice in the same transaction),
 * and an occurrence with its photo.
 */
import {
  EXAM_ERRORS,
  roomActionProblem,
  type BoardExam,
  type OccurrenceAddedPayload,
  type RoomAction,
} from '@exame/shared';
import { validateAndNormalizeImage } from '../../biometrics/image';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { insertActivity } from '../activity/activity.service';
import { storeExamPhoto } from '../exams/exam-photos.service';
import { planChange, publishExamChanges, writeExamChange } from '../exams/exam-changes.service';
import { publishRealtime } from '../realtime/realtime.service';
import {
  countAttachments,
  insertRoomOccurrence,
  lockRoomExam,
  setExamInterruption,
  type ExamRow,
  type RoomWithPost,
} from './exam-rooms.repository';
import { type ExamRoomDeps, roomError, roomLocal, visibleRoom } from './exam-rooms.service';
import { toBoardExam, mayActOn } from './room-board.service';

/** Refuses, inside the action's transaction, an actor who does not hold the room now. */
async function holdOrRefuse(tx: Executor, actor: SessionUser, room: RoomWithPost): Promise<void> {
  if (!(await mayActOn(tx, actor, room, { lock: true }))) throw roomError('ROOM_NOT_HELD');
}

/**
 * `POST api/ExamRoom/{id}/exams/{examId}/action`: absence, interrupt, resume
 * or finish-and-send-the-result, each refused with its reason when the exam's
 * state does not allow it. A finished exam without a result from the
 * delivery system goes to the auditors (`in_analysis`); finishing is recorded
 * as `send_result`.
 */
export async function actOnRoomExam(
  deps: ExamRoomDeps,
  actor: SessionUser,
  input: { roomId: string; examId: string; action: RoomAction },
): Promise<BoardExam> {
  const room = await visibleRoom(deps, actor, input.roomId);
  const exam = await deps.db.transaction(async (tx) => {
    await holdOrRefuse(tx, actor, room);
    const row = await lockRoomExam(tx, actor.federativeUnit, roomLocal(room), input.examId);
    if (!row) throw roomError('ROOM_EXAM_NOT_FOUND');
    const problem = roomActionProblem(input.action, {
      status: row.status,
      interrupted: row.interruptedAt !== null,
    });
    if (problem) throw roomError('ROOM_ACTION_INVALID', problem);
    let next: ExamRow;
    if (input.action === 'interrupt' || input.action === 'resume') {
      next = await setExamInterruption(tx, row.id, input.action === 'interrupt');
    } else {
      const plan = planChange(
        row,
        input.action === 'absence'
          ? { status: 'absence' }
          : { status: 'done', result: row.result ?? 'in_analysis' },
      );
      if (!plan.ok) throw AppError.from(EXAM_ERRORS, plan.code, plan.message);
      next = await writeExamChange(tx, row, plan.patch, { source: 'user', actorId: actor.id });
    }
    await insertActivity(tx, {
      type: input.action === 'finish' ? 'send_result' : 'room_action',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      target: `exam:${row.schedulingId}`,
      payload: {
        examId: row.id,
        schedulingId: row.schedulingId,
        roomId: room.id,
        action: input.action,
        result: next.result,
      },
    });
    // Last in the transaction: every open board of the room follows (realtime.repository).
    await publishExamChanges(tx, [next]);
    return next;
  });
  return toBoardExam(exam);
}

/**
 * `POST api/ExamRoom/{id}/exams/{examId}/occurrences`: an occurrence recorded
 * by the examiner, with an optional photo validated and re-encoded before
 * the transaction (CPU work holds no locks).
 */
export async function recordRoomOccurrence(
  deps: ExamRoomDeps & {
    files: FileStorage;
    photosStored?: (photoIds: readonly string[]) => void;
  },
  actor: SessionUser,
  input: { roomId: string; examId: string; type: string; description: string; photo?: string },
): Promise<BoardExam> {
  const room = await visibleRoom(deps, actor, input.roomId);
  // A quick refusal before the image work; checked again, locked, in the transaction.
  if (!(await mayActOn(deps.db, actor, room))) throw roomError('ROOM_NOT_HELD');
  const picture = input.photo ? await validateAndNormalizeImage(input.photo) : null;
  let storedPhoto: string | null = null;
  const exam = await deps.db.transaction(async (tx) => {
    await holdOrRefuse(tx, actor, room);
    const row = await lockRoomExam(tx, actor.federativeUnit, roomLocal(room), input.examId);
    if (!row) throw roomError('ROOM_EXAM_NOT_FOUND');
    if (row.status === 'cancelled') {
      throw roomError('ROOM_ACTION_INVALID', 'Um exame cancelado não recebe ocorrências.');
    }
    const now = new Date();
    const photo = picture ? await storeExamPhoto(tx, deps.files, row.id, picture, now) : null;
    storedPhoto = photo?.created ? photo.id : null;
    const occurrenceId = await insertRoomOccurrence(tx, {
      examId: row.id,
      type: input.type,
      description: input.description,
      occurredAt: now,
      photoId: photo?.id ?? null,
    });
    await insertActivity(tx, {
      type: 'room_occurrence',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { examId: row.id, schedulingId: row.schedulingId, roomId: room.id, photo: !!photo },
    });
    const payload: OccurrenceAddedPayload = {
      examId: row.id,
      schedulingId: row.schedulingId,
      occurrenceId,
      type: input.type,
      description: input.description,
      occurredAt: now.toISOString(),
      hasPhoto: photo !== null,
    };
    await publishRealtime(tx, {
      federativeUnit: row.federativeUnit,
      schedulingLocal: row.schedulingLocal,
      kind: 'occurrence_added',
      payload,
    });
    return row;
  });
  if (storedPhoto) deps.photosStored?.([storedPhoto]);
  return toBoardExam({ ...exam, ...(await countAttachments(deps.db, exam.id)) });
}
