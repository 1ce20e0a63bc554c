/**
 * Leaving a room (spec 2-9): an examiner checks out, with a verification of
 * their own where the unit requires face validation; the record closes when
 * the last examiner has left. ADMIN closes a record left open, with a
 * written reason. Each change, its history rows and its activity event
 * share one transaction.
 */
import type { CheckInRecord } from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import {
  checkOutExaminer,
  closeCheckIn,
  insertEvent,
  type CheckInExaminerRow,
} from './check-ins.repository';
import { checkInError, type CheckInDeps } from './check-in-rules';
import { recordActivity, announceCheckIn, lockOpenRecord } from './check-in-steps';
import { recordAfterChange } from './check-in-records.service';
import { useFaceTicket } from './check-in-face.service';

/**
 * `POST checkOut`: an examiner leaves the room. Where the unit requires face
 * validation each examiner leaves with a verification of their own
 * (`checkOutValidated`, with the capture); elsewhere the signed-in examiner
 * records the leaving of one examiner or of all. The record closes when the
 * last examiner has left.
 */
export async function checkOut(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { checkInId: string; viewerId?: string; verificationId?: string },
): Promise<CheckInRecord> {
  const id = input.checkInId;
  await deps.db.transaction(async (tx) => {
    const { record, examiners } = await lockOpenRecord(tx, actor, id, { afterOwnCheckOut: true });
    const active = examiners.filter((examiner) => examiner.active);
    const now = new Date();
    let leaving: CheckInExaminerRow[];
    if (input.viewerId) {
      const target = active.find((examiner) => examiner.id === input.viewerId);
      if (!target) {
        const known = examiners.some((examiner) => examiner.id === input.viewerId);
        throw checkInError(known ? 'CHECKIN_VIEWER_ALREADY_OUT' : 'CHECKIN_VIEWER_NOT_FOUND');
      }
      leaving = [target];
    } else {
      if (record.faceValidationRequired) throw checkInError('CHECKIN_VIEWER_REQUIRED');
      leaving = active;
    }
    for (const examiner of leaving) {
      let faceKey: string | null = null;
      if (record.faceValidationRequired) {
        if (!input.verificationId) throw checkInError('CHECKIN_FACE_REQUIRED');
        faceKey = (
          await useFaceTicket(tx, actor, {
            verificationId: input.verificationId,
            cpf: examiner.cpf,
            post: record.schedulingLocal,
          })
        ).captureKey;
      }
      await checkOutExaminer(tx, examiner.id, {
        at: now,
        validated: record.faceValidationRequired,
        verificationId: record.faceValidationRequired ? (input.verificationId ?? null) : null,
        faceKey,
      });
      await insertEvent(tx, {
        checkInId: id,
        federativeUnit: actor.federativeUnit,
        type: 'viewer_check_out',
        actorId: actor.id,
        viewerId: examiner.id,
        details: { faceValidated: faceKey !== null },
      });
    }
    const remaining = active.length - leaving.length;
    if (remaining === 0) {
      await closeCheckIn(tx, id, { status: 'closed', at: now, closedBy: actor.id, reason: null });
      await insertEvent(tx, {
        checkInId: id,
        federativeUnit: actor.federativeUnit,
        type: 'close',
        actorId: actor.id,
      });
    }
    await recordActivity(tx, actor, remaining === 0 ? 'checkin_close' : 'checkin_update', {
      checkInId: id,
      checkedOut: leaving.map((examiner) => examiner.userId),
    });
    await announceCheckIn(tx, record, remaining === 0 ? 'closed' : 'open');
  });
  return recordAfterChange(deps, actor, id);
}

/** ADMIN closes a record left open, with a written reason (recorded in its history). */
export async function forceClose(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { checkInId: string; reason: string },
): Promise<CheckInRecord> {
  const id = input.checkInId;
  await deps.db.transaction(async (tx) => {
    const { record } = await lockOpenRecord(tx, actor, id);
    const now = new Date();
    await closeCheckIn(tx, id, {
      status: 'force_closed',
      at: now,
      closedBy: actor.id,
      reason: input.reason,
    });
    await insertEvent(tx, {
      checkInId: id,
      federativeUnit: actor.federativeUnit,
      type: 'force_close',
      actorId: actor.id,
      reason: input.reason,
    });
    await recordActivity(tx, actor, 'checkin_force_close', { checkInId: id, reason: input.reason });
    await announceCheckIn(tx, record, 'force_closed');
  });
  return recordAfterChange(deps, actor, id);
}
