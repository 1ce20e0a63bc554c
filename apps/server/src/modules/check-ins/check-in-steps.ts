/**
 * The steps every change of a check-in record shares, inside its
 * transaction: putting an admitted examiner in the room, the 409 of an
 * examiner who already holds a room, the room a new record takes, locking
 * the open record the actor may change, the activity event and the notice
 * to the boards that follow the record.
 */
import type { AdmittedBy } from '@exame/shared';
import type { Executor } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { type AppError } from '../../lib/app-error';
import { insertActivity, type ActivityType } from '../activity/activity.service';
import { listRooms } from '../exam-rooms/exam-rooms.service';
import { roomLocal } from '../exam-rooms/exam-rooms.service';
import { publishRealtimeAll } from '../realtime/realtime.service';
import type { UserRow } from '../users/users.service';
import { admitEntry, type Admitted } from './examiner-identity';
import { alreadyOpenError } from './already-open';
import {
  insertEvent,
  insertExaminer,
  listExaminers,
  lockCheckIn,
  type CheckInRow,
  type CheckInExaminerRow,
} from './check-ins.repository';
import { checkInError, type CheckInDeps } from './check-in-rules';
import { useFaceTicket } from './check-in-face.service';

/**
 * Puts an admitted examiner in the room of `record` (using their face
 * verification), with its history row; how they were admitted, or a refusal
 * that rolls the whole change back.
 */
export async function addExaminer(
  tx: Executor,
  actor: SessionUser,
  record: Pick<CheckInRow, 'id' | 'schedulingLocal'>,
  entry: Admitted,
  now: Date,
  how: { type: 'viewer_add' | 'examiner_transfer'; details?: Record<string, unknown> } = {
    type: 'viewer_add',
  },
): Promise<AdmittedBy> {
  const ticket = entry.verificationId
    ? await useFaceTicket(tx, actor, {
        verificationId: entry.verificationId,
        cpf: entry.person.cpf,
        post: record.schedulingLocal,
      })
    : null;
  const way = await admitEntry(tx, actor, record, entry, ticket?.ownFactor ?? null);
  const faceKey = ticket?.captureKey ?? null;
  const examiner = await insertExaminer(tx, {
    checkInId: record.id,
    federativeUnit: actor.federativeUnit,
    userId: entry.person.id,
    name: entry.person.name,
    cpf: entry.person.cpf,
    checkInDate: now,
    verificationId: entry.verificationId,
    faceKey,
    admittedBy: way,
  });
  await insertEvent(tx, {
    checkInId: record.id,
    federativeUnit: actor.federativeUnit,
    type: how.type,
    actorId: actor.id,
    viewerId: examiner.id,
    details: { faceValidated: faceKey !== null, admittedBy: way, ...how.details },
  });
  return way;
}

/** 409 naming the room, post and time of the record an examiner already holds (already-open.ts). */
export async function alreadyOpen(deps: CheckInDeps, person: UserRow): Promise<AppError | null> {
  return alreadyOpenError(deps.db, person);
}

/** A unique violation of "one open record per examiner": the record that won, as a 409. */
export async function raceLost(
  deps: CheckInDeps,
  people: UserRow[],
  error: unknown,
): Promise<never> {
  const constraint = uniqueViolation(error);
  if (constraint === 'check_ins_one_open_per_room_key') throw checkInError('CHECKIN_ROOM_TAKEN');
  if (constraint === 'check_in_viewers_one_open_key') {
    for (const person of people) {
      const conflict = await alreadyOpen(deps, person);
      if (conflict) throw conflict;
    }
  }
  throw error;
}

export async function recordActivity(
  tx: Executor,
  actor: SessionUser,
  type: ActivityType,
  payload: Record<string, unknown>,
): Promise<void> {
  await insertActivity(tx, {
    type,
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    payload,
  });
}

/**
 * The room a new record takes: required (and active, of that post) when the
 * post has active rooms; none for a post without rooms, whose record then
 * holds the post as a whole.
 */
export async function roomToTake(
  deps: CheckInDeps,
  actor: SessionUser,
  post: { identifier: string },
  examRoomId: string | null | undefined,
): Promise<string | null> {
  const rooms = await listRooms(deps.db, actor.federativeUnit, {
    postIdentifier: post.identifier,
    includeInactive: false,
  });
  if (!examRoomId) {
    if (rooms.length > 0) throw checkInError('CHECKIN_ROOM_REQUIRED');
    return null;
  }
  if (!rooms.some((room) => room.id === examRoomId)) throw checkInError('CHECKIN_ROOM_NOT_FOUND');
  return examRoomId;
}

/**
 * Announces a change of a record to the boards that follow it: the board of
 * its room, or, for a record without a room, the post and every room of it.
 * Last in the transaction (realtime.repository).
 */
export async function announceCheckIn(
  tx: Executor,
  record: Pick<CheckInRow, 'id' | 'federativeUnit' | 'schedulingLocal' | 'examRoomId'>,
  status: CheckInRow['status'],
): Promise<void> {
  const rooms = await listRooms(tx, record.federativeUnit, {
    postIdentifier: record.schedulingLocal,
    includeInactive: true,
  });
  const locals = record.examRoomId
    ? rooms.filter((room) => room.id === record.examRoomId).map(roomLocal)
    : [record.schedulingLocal, ...rooms.map(roomLocal)];
  const payload = { checkInId: record.id, schedulingLocal: record.schedulingLocal, status };
  await publishRealtimeAll(
    tx,
    locals.map((local) => ({
      federativeUnit: record.federativeUnit,
      schedulingLocal: local,
      kind: 'check_in_changed' as const,
      payload,
    })),
  );
}

/**
 * The open record, locked, of which the actor is an examiner in the room (or
 * ADMIN). With `afterOwnCheckOut`, an examiner who already checked out of it
 * (or opened it) may still act: the room's device stays signed in as
 * examiner 1 while examiner 2 leaves.
 */
export async function lockOpenRecord(
  tx: Executor,
  actor: SessionUser,
  id: string,
  options: { afterOwnCheckOut?: boolean } = {},
): Promise<{ record: CheckInRow; examiners: CheckInExaminerRow[] }> {
  const record = await lockCheckIn(tx, actor.federativeUnit, id);
  if (!record) throw checkInError('CHECKIN_NOT_FOUND');
  const examiners = await listExaminers(tx, id);
  const isAdmin = actor.role === 'ADMIN';
  const member =
    record.openedBy === actor.id || examiners.some((examiner) => examiner.userId === actor.id);
  if (!member && !isAdmin) throw checkInError('CHECKIN_NOT_FOUND');
  if (record.status !== 'open') throw checkInError('CHECKIN_CLOSED');
  const inRoom = examiners.some(
    (examiner) =>
      examiner.userId === actor.id &&
      (examiner.active || (options.afterOwnCheckOut === true && examiner.removedAt === null)),
  );
  const opener = options.afterOwnCheckOut === true && record.openedBy === actor.id;
  if (!inRoom && !opener && !isAdmin) throw checkInError('CHECKIN_NOT_A_VIEWER');
  return { record, examiners };
}
