/**
 * Check-in and check-out of examiners at a service post (spec 2-9).
 *
 * Tenancy: every read and write is scoped by the actor's `federativeUnit`; a
 * record, a post or an examiner of another unit is simply not found.
 * Examiners see the records they are (or were) in; ADMIN and AUDITOR see every
 * record of the unit. A change, its history row and its activity event share
 * one transaction.
 *
 * Who may be an examiner of a record: an enabled VIEWER or ROOM_INSPECTOR of
 * the unit who proves who they are with a factor of their own (the session,
 * examiner 2's password, or the separate examiner identity's password typed
 * with the face: examiner-identity.ts). Where the unit requires face
 * validation (spec 5: DF), every examiner enters and leaves with a
 * verification of their own, each used once and within
 * CHECK_IN_FACE_TICKET_TTL_MS; its capture is kept as the evidence, and the
 * examiner's row says how they were admitted (`admittedBy`).
 *
 * Here: the changes that admit examiners (open a room, add or remove one,
 * transfer). Leaving and closing: check-out.service.ts; reading:
 * check-in-records.service.ts; the face at the room: check-in-face.service.ts;
 * the steps they share: check-in-steps.ts; the unit's rules: check-in-rules.ts.
 */
import {
  CHECK_IN_MAX_VIEWERS,
  type AdmittedBy,
  type CheckInRecord,
  type CheckInResponse,
} from '@exame/shared';
import type { SessionUser } from '../../lib/actors';
import { findLocalByIdentifier } from '../scheduling-locals/scheduling-locals.service';
import { proveExaminer, type Admitted, type ExaminerEntry } from './examiner-identity';
import { insertCheckIn, insertEvent, removeExaminer } from './check-ins.repository';
import { checkInError, faceRequired, type CheckInDeps } from './check-in-rules';
import {
  addExaminer,
  alreadyOpen,
  raceLost,
  recordActivity,
  roomToTake,
  announceCheckIn,
  lockOpenRecord,
} from './check-in-steps';
import { recordAfterChange } from './check-in-records.service';

/** `POST checkIn {viewers, schedulingLocal, examRoomId}`: opens a room of a post for one or two examiners. */
export async function checkIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: {
    viewers: ExaminerEntry[];
    schedulingLocal?: string | null;
    examRoomId?: string | null;
    deviceId?: string | null;
  },
): Promise<CheckInResponse> {
  const identifier = input.schedulingLocal?.trim();
  if (!identifier) throw checkInError('CHECKIN_LOCAL_REQUIRED');
  const post = await findLocalByIdentifier(deps.db, actor.federativeUnit, identifier);
  if (!post || !post.isActive) throw checkInError('CHECKIN_LOCAL_NOT_FOUND');
  const examRoomId = await roomToTake(deps, actor, post, input.examRoomId);
  if (input.viewers.length > CHECK_IN_MAX_VIEWERS) throw checkInError('CHECKIN_TOO_MANY_VIEWERS');
  const required = faceRequired(actor.federativeUnit);
  const admitted: Admitted[] = [];
  for (const [index, entry] of input.viewers.entries()) {
    // Examiner 1 may be the separate examiner identity of spec 6 (face and own password).
    admitted.push(
      await proveExaminer(deps, actor, entry, {
        required,
        separateIdentity: index === 0,
        admission: { schedulingLocal: post.identifier, checkInId: null },
      }),
    );
  }
  const people = admitted.map((entry) => entry.person);
  if (new Set(people.map((person) => person.id)).size !== people.length) {
    throw checkInError('CHECKIN_SAME_EXAMINER');
  }
  for (const person of people) {
    const conflict = await alreadyOpen(deps, person);
    if (conflict) throw conflict;
  }

  try {
    const record = await deps.db.transaction(async (tx) => {
      const now = new Date();
      const created = await insertCheckIn(tx, {
        federativeUnit: actor.federativeUnit,
        schedulingLocalId: post.id,
        schedulingLocal: post.identifier,
        examRoomId,
        openedBy: actor.id,
        deviceId: input.deviceId ?? null,
        openedAt: now,
        faceValidationRequired: required,
      });
      await insertEvent(tx, {
        checkInId: created.id,
        federativeUnit: actor.federativeUnit,
        type: 'open',
        actorId: actor.id,
      });
      const ways: Record<string, AdmittedBy> = {};
      for (const entry of admitted) {
        ways[entry.person.id] = await addExaminer(tx, actor, created, entry, now);
      }
      await recordActivity(tx, actor, 'checkin_open', {
        checkInId: created.id,
        schedulingLocal: post.identifier,
        examRoomId,
        viewers: people.map((person) => person.id),
        admittedBy: ways,
      });
      await announceCheckIn(tx, created, 'open');
      return created;
    });
    return { id: record.id, checkInDate: record.openedAt.toISOString() };
  } catch (error) {
    return raceLost(deps, people, error);
  }
}

/** `PUT update-checkIn/{id}`: adds an examiner to the open room, or removes one. */
export async function updateCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  id: string,
  input: { add?: ExaminerEntry; removeViewerId?: string },
): Promise<CheckInRecord> {
  if (!input.add && !input.removeViewerId) throw checkInError('CHECKIN_UPDATE_EMPTY');
  const required = faceRequired(actor.federativeUnit);
  const adding = input.add
    ? await proveExaminer(deps, actor, input.add, {
        required,
        separateIdentity: false,
        admission: { checkInId: id },
      })
    : null;
  if (adding) {
    const conflict = await alreadyOpen(deps, adding.person);
    if (conflict) throw conflict;
  }
  try {
    await deps.db.transaction(async (tx) => {
      const { record, examiners } = await lockOpenRecord(tx, actor, id);
      const active = examiners.filter((examiner) => examiner.active);
      const now = new Date();
      let way: AdmittedBy | null = null;
      if (adding) {
        if (active.length >= CHECK_IN_MAX_VIEWERS) throw checkInError('CHECKIN_TOO_MANY_VIEWERS');
        way = await addExaminer(tx, actor, record, adding, now);
      }
      if (input.removeViewerId) {
        const target = active.find((examiner) => examiner.id === input.removeViewerId);
        if (!target) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
        if (active.length <= 1) throw checkInError('CHECKIN_LAST_VIEWER');
        await removeExaminer(tx, target.id, now);
        await insertEvent(tx, {
          checkInId: id,
          federativeUnit: actor.federativeUnit,
          type: 'viewer_remove',
          actorId: actor.id,
          viewerId: target.id,
        });
      }
      await recordActivity(tx, actor, 'checkin_update', {
        checkInId: id,
        added: adding?.person.id ?? null,
        admittedBy: way,
        removed: input.removeViewerId ?? null,
      });
      await announceCheckIn(tx, record, 'open');
    });
  } catch (error) {
    await raceLost(deps, adding ? [adding.person] : [], error);
  }
  return recordAfterChange(deps, actor, id);
}

/**
 * `POST transfer`: the room passes from an examiner in it to another examiner
 * of the unit (spec 2 `/change-examiner`), proven by password (and by face
 * where the unit requires it), in one change: the history says who handed
 * the room to whom (`examiner_transfer`), and the activity log records
 * `examiner_transfered`.
 */
export async function transferExaminer(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { checkInId: string; fromViewerId: string; to: ExaminerEntry },
): Promise<CheckInRecord> {
  const id = input.checkInId;
  const required = faceRequired(actor.federativeUnit);
  const receiving = await proveExaminer(deps, actor, input.to, {
    required,
    separateIdentity: false,
    admission: { checkInId: id },
  });
  const conflict = await alreadyOpen(deps, receiving.person);
  if (conflict) throw conflict;
  try {
    await deps.db.transaction(async (tx) => {
      const { record, examiners } = await lockOpenRecord(tx, actor, id);
      const leaving = examiners.find(
        (examiner) => examiner.active && examiner.id === input.fromViewerId,
      );
      if (!leaving) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
      if (leaving.userId === receiving.person.id) throw checkInError('CHECKIN_SAME_EXAMINER');
      const now = new Date();
      await removeExaminer(tx, leaving.id, now);
      const way = await addExaminer(tx, actor, record, receiving, now, {
        type: 'examiner_transfer',
        details: { fromViewerId: leaving.id, from: leaving.name },
      });
      await recordActivity(tx, actor, 'examiner_transfered', {
        checkInId: id,
        from: leaving.userId,
        to: receiving.person.id,
        admittedBy: way,
      });
      await announceCheckIn(tx, record, 'open');
    });
  } catch (error) {
    await raceLost(deps, [receiving.person], error);
  }
  return recordAfterChange(deps, actor, id);
}

// The door of this module for the others (modules import each other only through services).
export { deleteProctoringTokensExpiredBefore } from './proctoring-tokens.repository';
