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
 * examiner 2's password, or the separate viewer identity's password typed
 * with the face: examiner-identity.ts). Where the unit requires face
 * validation (spec 5: DF), every examiner enters and leaves with a
 * verification of their own, each used once and within
 * CHECK_IN_FACE_TICKET_TTL_MS; its capture is kept as the evidence, and the
 * examiner's row says how they were admitted (`admittedBy`).
 */
import {
  ADMITTED_BY,
  CHECK_IN_ERRORS,
  CHECK_IN_FACE_TICKET_TTL_MS,
  CHECK_IN_MAX_VIEWERS,
  FACE_VALIDATION_UNIT,
  dayInZone,
  maskCpf,
  pageReply,
  resolveOpenPeriod,
  resolvePeriod,
  type AdmittedBy,
  type BiometricViewerCheckinResponse,
  type CheckInConfig,
  type CheckInExam,
  type CheckInRecord,
  type CheckInResponse,
  type CheckInSummary,
  type Page,
  type Role,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { signedPath } from '../../lib/signed-access';
import { insertActivity, type ActivityType } from '../activity/activity.repository';
import { cpfTarget } from '../activity/activity.service';
import type { IdentityDeps } from '../auth/identity-deps';
import { consumeVerifiedCapture, findCaptureOwner } from '../biopass/biopass.repository';
import { verifyBurst, type BiopassDeps } from '../biopass/biopass.service';
import { findFederativeUnit } from '../federative-units/federative-units.repository';
import { listRooms } from '../exam-rooms/exam-rooms.repository';
import { roomLocal } from '../exam-rooms/exam-rooms.service';
import { publishRealtimeAll } from '../realtime/realtime.repository';
import { findLocalByIdentifier } from '../scheduling-locals/scheduling-locals.repository';
import { findUserInUnit, type UserRow } from '../users/users.repository';
import {
  admittedBy,
  captureFactor,
  checkExaminer,
  personOfToken,
  proveViewer,
  type Admitted,
  type NamedBy,
  type ViewerEntry,
} from './examiner-identity';
import {
  checkOutViewer,
  closeCheckIn,
  findCheckIn,
  findOpenRecordByViewer,
  findOpenRecordOfUser,
  findViewerOfUnit,
  insertCheckIn,
  insertEvent,
  insertViewer,
  isViewerOf,
  listEvents,
  listExamsOfPost,
  listViewers,
  lockCheckIn,
  removeViewer,
  searchCheckIns,
  type CheckInRow,
  type CheckInSearch,
  type CheckInViewerRow,
  type CheckInWithNames,
} from './check-ins.repository';

/** The face engine's parts (verification) and the identity's (examiner 2's password). */
export type CheckInDeps = BiopassDeps & { identity: IdentityDeps };

const checkInError = (code: keyof typeof CHECK_IN_ERRORS, message?: string) =>
  AppError.from(CHECK_IN_ERRORS, code, message);

const SEES_EVERY_RECORD: readonly Role[] = ['ADMIN', 'auditor'];
const FACE_IMAGE_PATH = '/api/SchedulingLocalCheckIn/face';

/* ------------------------------------------------------------------------ */
/* The unit's rules                                                          */
/* ------------------------------------------------------------------------ */

function faceRequired(unit: string): boolean {
  return unit === FACE_VALIDATION_UNIT;
}

/** `GET getConfig?federativeUnit`: what the caller's unit requires of a check-in. */
export async function getConfig(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { federativeUnit: string },
): Promise<CheckInConfig> {
  if (input.federativeUnit.trim().toUpperCase() !== actor.federativeUnit) {
    throw checkInError('CHECKIN_OTHER_UNIT');
  }
  const unit = await findFederativeUnit(deps.db, actor.federativeUnit);
  return {
    federativeUnit: actor.federativeUnit,
    faceValidationRequired: faceRequired(actor.federativeUnit),
    secondExaminerAllowed: true,
    maxViewers: CHECK_IN_MAX_VIEWERS,
    proctoringEnabled: unit?.isProctoringEnable ?? false,
    faceAloneAllowed: unit?.faceAloneAllowed ?? false,
  };
}

/* ------------------------------------------------------------------------ */
/* Face verification of an examiner (`api/Auth/biometric-viewer-checkin`)    */
/* ------------------------------------------------------------------------ */

function faceUrl(deps: CheckInDeps, key: string | null, viewer: string): string | null {
  if (!key) return null;
  const expiresAt = Date.now() + deps.signedUrlTtlMs;
  return signedPath(
    deps.files,
    'check-in-face',
    `${FACE_IMAGE_PATH}/${key}`,
    key,
    viewer,
    expiresAt,
  );
}

/** The CPF of an examiner of an open record the actor is in (examiners leaving on any device). */
async function cpfOfRoomViewer(deps: CheckInDeps, actor: SessionUser, viewerId: string) {
  const found = await findViewerOfUnit(deps.db, actor.federativeUnit, viewerId);
  if (!found) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
  const member =
    found.openedBy === actor.id || (await isViewerOf(deps.db, found.viewer.checkInId, actor.id));
  if (!member) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
  if (found.status !== 'open') throw checkInError('CHECKIN_CLOSED');
  return found.viewer.cpf;
}

/**
 * Whose face a challenge of the check-in flows is for (`api/BiopassID/Challenge`):
 * the examiner of a record the actor is in (`checkInViewerId`), examiner 2
 * named by `proctoringToken`, or the CPF given, resolved the way the
 * capture that answers it will resolve it.
 */
export async function challengeSubjectCpf(
  deps: CheckInDeps,
  actor: SessionUser,
  subject: { cpf?: string; checkInViewerId?: string; proctoringToken?: string },
): Promise<string> {
  if (subject.checkInViewerId) return cpfOfRoomViewer(deps, actor, subject.checkInViewerId);
  if (subject.proctoringToken) {
    return checkExaminer(await personOfToken(deps, actor, subject.proctoringToken), actor).cpf;
  }
  return subject.cpf ?? '';
}

/**
 * Verifies the face of an examiner of the unit at the room of `local`; the
 * verified capture is kept, recorded with the post, the device and the
 * examiner's own factor (checked first: examiner-identity.ts), and the
 * answer (its id) admits that examiner once to a check-in or a check-out.
 */
export async function biometricViewerCheckin(
  deps: CheckInDeps,
  actor: SessionUser,
  input: {
    cpf?: string;
    checkInViewerId?: string;
    proctoringToken?: string;
    password?: string;
    ip: string;
    challengeId?: string | null;
    image: string;
    frames?: string[];
    uf?: string;
    local?: string | null;
    deviceId?: string | null;
  },
): Promise<BiometricViewerCheckinResponse> {
  const { password, ip, ...capture } = input;
  const namedBy: NamedBy = input.checkInViewerId
    ? 'record'
    : input.proctoringToken
      ? 'token'
      : 'cpf';
  const cpf = input.checkInViewerId
    ? await cpfOfRoomViewer(deps, actor, input.checkInViewerId)
    : input.proctoringToken
      ? ((await personOfToken(deps, actor, input.proctoringToken))?.cpf ?? '')
      : (input.cpf ?? '');
  const ownFactor = await captureFactor(deps, actor, { cpf, namedBy, password, ip });
  const person = checkExaminer(await findUserInUnit(deps.db, actor.federativeUnit, { cpf }), actor);
  const { response, captureKey } = await verifyBurst(
    deps,
    actor,
    { ...capture, cpf },
    { keepCapture: true, ownFactor },
  );
  // The level explains the decision to the examiner (never ADMIN: checkExaminer); no raw numbers.
  const level = { similarityLevel: response.similarityLevel };
  if (!response.verified) {
    throw checkInError('FACE_NOT_VERIFIED', response.message).withFields(level);
  }
  return {
    verificationId: response.verificationId,
    name: person.name,
    cpf: maskCpf(person.cpf),
    faceUrl: faceUrl(deps, captureKey, actor.id) ?? '',
    currentDate: new Date().toISOString(),
    ...level,
  };
}

/* ------------------------------------------------------------------------ */
/* Reading records                                                           */
/* ------------------------------------------------------------------------ */

async function toRecord(
  deps: CheckInDeps,
  actor: SessionUser,
  record: CheckInWithNames,
): Promise<CheckInRecord> {
  const [viewers, events] = await Promise.all([
    listViewers(deps.db, record.id),
    listEvents(deps.db, record.id),
  ]);
  return {
    id: record.id,
    federativeUnit: record.federativeUnit,
    schedulingLocal: record.schedulingLocal,
    schedulingLocalDescription: record.schedulingLocalDescription,
    examRoom: record.examRoom,
    status: record.status,
    checkInDate: record.openedAt.toISOString(),
    checkOutDate: record.closedAt?.toISOString() ?? null,
    openedBy: { id: record.openedBy, name: record.openedByName },
    deviceId: record.deviceId,
    closeReason: record.closeReason,
    faceValidationRequired: record.faceValidationRequired,
    viewers: viewers.map((viewer) => ({
      id: viewer.id,
      userId: viewer.userId,
      name: viewer.name,
      cpf: maskCpf(viewer.cpf),
      faceUrl: faceUrl(deps, viewer.faceKey, actor.id),
      checkInDate: viewer.checkInDate.toISOString(),
      checkOutValidated: viewer.checkOutValidated,
      checkOutDate: viewer.checkOutDate?.toISOString() ?? null,
      checkOutFaceUrl: faceUrl(deps, viewer.checkOutFaceKey, actor.id),
      removedAt: viewer.removedAt?.toISOString() ?? null,
      admittedBy: viewer.admittedBy ?? null,
    })),
    history: events.map((event) => ({
      type: event.type,
      at: event.at.toISOString(),
      actorName: event.actorName,
      subject: event.subject,
      reason: event.reason,
      transferredFrom:
        event.type === 'examiner_transfer' && typeof event.details.from === 'string'
          ? event.details.from
          : null,
      admittedBy: ADMITTED_BY.find((way) => way === event.details.admittedBy) ?? null,
    })),
  };
}

/** A record the actor may see: any of the unit for ADMIN and AUDITOR, their own for examiners. */
async function visibleRecord(
  deps: CheckInDeps,
  actor: SessionUser,
  id: string,
): Promise<CheckInWithNames> {
  const record = await findCheckIn(deps.db, actor.federativeUnit, id);
  if (!record) throw checkInError('CHECKIN_NOT_FOUND');
  if (SEES_EVERY_RECORD.includes(actor.role)) return record;
  if (record.openedBy === actor.id || (await isViewerOf(deps.db, id, actor.id))) return record;
  throw checkInError('CHECKIN_NOT_FOUND');
}

/** `GET findCheckInById/{id}`. */
export async function getCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { id: string },
): Promise<CheckInRecord> {
  return toRecord(deps, actor, await visibleRecord(deps, actor, input.id));
}

/** `GET findCheckIn?viewerCpf&schedulingLocal`: the open record of that examiner at that post. */
export async function findOpenCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: { viewerCpf: string; schedulingLocal: string },
): Promise<CheckInRecord> {
  const id = await findOpenRecordByViewer(
    deps.db,
    actor.federativeUnit,
    input.viewerCpf,
    input.schedulingLocal,
  );
  if (!id) throw checkInError('CHECKIN_NOT_FOUND');
  return getCheckIn(deps, actor, { id });
}

/** `GET searchCheckIn`: the records of the unit (ADMIN and AUDITOR), newest first. */
export async function searchRecords(
  deps: CheckInDeps,
  actor: SessionUser,
  query: Omit<CheckInSearch, 'start' | 'endExclusive'> & { startDate?: string; endDate?: string },
): Promise<Page<CheckInSummary>> {
  const period = resolveOpenPeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const found = await searchCheckIns(deps.db, actor.federativeUnit, {
    ...query,
    start: period.start,
    endExclusive: period.endExclusive,
  });
  return pageReply(query, {
    total: found.total,
    items: found.items.map((record) => ({
      id: record.id,
      schedulingLocal: record.schedulingLocal,
      schedulingLocalDescription: record.schedulingLocalDescription,
      examRoomName: record.examRoom?.name ?? null,
      status: record.status,
      checkInDate: record.openedAt.toISOString(),
      checkOutDate: record.closedAt?.toISOString() ?? null,
      viewers: record.viewers.map((viewer) => ({
        name: viewer.name,
        cpf: maskCpf(viewer.cpf),
        checkOutDate: viewer.checkOutDate?.toISOString() ?? null,
        checkOutValidated: viewer.checkOutValidated,
      })),
    })),
  });
}

/** `GET exams?checkInId`: the exams of the record's post on the day it was opened (São Paulo). */
export async function listRecordExams(
  deps: CheckInDeps,
  actor: SessionUser,
  query: { checkInId: string; page: number; pageSize: number },
): Promise<Page<CheckInExam>> {
  const record = await visibleRecord(deps, actor, query.checkInId);
  const day = dayInZone(record.openedAt);
  const period = resolvePeriod(day, day);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  const found = await listExamsOfPost(
    deps.db,
    actor.federativeUnit,
    { identifier: record.schedulingLocal, start: period.start, endExclusive: period.endExclusive },
    query,
  );
  return pageReply(query, {
    total: found.total,
    items: found.items.map((exam) => ({
      id: exam.id,
      cpf: maskCpf(exam.candidateCpf),
      schedulingId: exam.schedulingId,
      candidateName: exam.candidateName,
      schedulingDate: exam.schedulingDate.toISOString(),
      status: exam.status,
      result: exam.result,
      room: exam.room,
      station: exam.station,
    })),
  });
}

/* ------------------------------------------------------------------------ */
/* Changes                                                                   */
/* ------------------------------------------------------------------------ */

/** Uses the face verification of an examiner: its capture key and the factor that came with it, or a refusal. */
async function useFaceTicket(
  tx: Executor,
  actor: SessionUser,
  ticket: { verificationId: string; cpf: string; schedulingLocal: string },
) {
  const used = await consumeVerifiedCapture(tx, {
    id: ticket.verificationId,
    federativeUnit: actor.federativeUnit,
    cpf: ticket.cpf,
    requestedBy: actor.id,
    schedulingLocal: ticket.schedulingLocal,
    notBefore: new Date(Date.now() - CHECK_IN_FACE_TICKET_TTL_MS),
  });
  if (!used) throw checkInError('CHECKIN_FACE_INVALID');
  return used;
}

/**
 * Puts an admitted examiner in the room of `record` (using their face
 * verification), with its history row; how they were admitted, or a refusal
 * that rolls the whole change back.
 */
async function addViewer(
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
        schedulingLocal: record.schedulingLocal,
      })
    : null;
  const way = admittedBy(entry.proof, ticket?.ownFactor ?? null);
  const faceKey = ticket?.captureKey ?? null;
  const viewer = await insertViewer(tx, {
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
    viewerId: viewer.id,
    details: { faceValidated: faceKey !== null, admittedBy: way, ...how.details },
  });
  return way;
}

/** 409 naming the open record an examiner already holds (spec 8: its id and date are kept). */
async function alreadyOpen(deps: CheckInDeps, person: UserRow): Promise<AppError | null> {
  const open = await findOpenRecordOfUser(deps.db, person.id);
  if (!open) return null;
  return checkInError(
    'CHECKIN_ALREADY_OPEN',
    `${person.name} já tem uma entrada aberta no posto ${open.schedulingLocal}. Registre a saída antes de abrir outra.`,
  ).withFields({ id: open.checkInId, checkInDate: open.openedAt.toISOString() });
}

/** A unique violation of "one open record per examiner": the record that won, as a 409. */
async function raceLost(deps: CheckInDeps, people: UserRow[], error: unknown): Promise<never> {
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

async function recordActivity(
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
async function roomToTake(
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
async function announceCheckIn(
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

/** `POST checkIn {viewers, schedulingLocal, examRoomId}`: opens a room of a post for one or two examiners. */
export async function checkIn(
  deps: CheckInDeps,
  actor: SessionUser,
  input: {
    viewers: ViewerEntry[];
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
    // Examiner 1 may be the separate viewer identity of spec 6 (face and own password).
    admitted.push(
      await proveViewer(deps, actor, entry, { required, separateIdentity: index === 0 }),
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
        ways[entry.person.id] = await addViewer(tx, actor, created, entry, now);
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

/**
 * The open record, locked, of which the actor is an examiner in the room (or
 * ADMIN). With `afterOwnCheckOut`, an examiner who already checked out of it
 * (or opened it) may still act: the room's device stays signed in as
 * examiner 1 while examiner 2 leaves.
 */
async function lockOpenRecord(
  tx: Executor,
  actor: SessionUser,
  id: string,
  options: { afterOwnCheckOut?: boolean } = {},
): Promise<{ record: CheckInRow; viewers: CheckInViewerRow[] }> {
  const record = await lockCheckIn(tx, actor.federativeUnit, id);
  if (!record) throw checkInError('CHECKIN_NOT_FOUND');
  const viewers = await listViewers(tx, id);
  const isAdmin = actor.role === 'ADMIN';
  const member =
    record.openedBy === actor.id || viewers.some((viewer) => viewer.userId === actor.id);
  if (!member && !isAdmin) throw checkInError('CHECKIN_NOT_FOUND');
  if (record.status !== 'open') throw checkInError('CHECKIN_CLOSED');
  const inRoom = viewers.some(
    (viewer) =>
      viewer.userId === actor.id &&
      (viewer.active || (options.afterOwnCheckOut === true && viewer.removedAt === null)),
  );
  const opener = options.afterOwnCheckOut === true && record.openedBy === actor.id;
  if (!inRoom && !opener && !isAdmin) throw checkInError('CHECKIN_NOT_A_VIEWER');
  return { record, viewers };
}

async function recordAfterChange(deps: CheckInDeps, actor: SessionUser, id: string) {
  const record = await findCheckIn(deps.db, actor.federativeUnit, id);
  if (!record) throw checkInError('CHECKIN_NOT_FOUND');
  return toRecord(deps, actor, record);
}

/** `PUT update-checkIn/{id}`: adds an examiner to the open room, or removes one. */
export async function updateCheckIn(
  deps: CheckInDeps,
  actor: SessionUser,
  id: string,
  input: { add?: ViewerEntry; removeViewerId?: string },
): Promise<CheckInRecord> {
  if (!input.add && !input.removeViewerId) throw checkInError('CHECKIN_UPDATE_EMPTY');
  const required = faceRequired(actor.federativeUnit);
  const adding = input.add
    ? await proveViewer(deps, actor, input.add, { required, separateIdentity: false })
    : null;
  if (adding) {
    const conflict = await alreadyOpen(deps, adding.person);
    if (conflict) throw conflict;
  }
  try {
    await deps.db.transaction(async (tx) => {
      const { record, viewers } = await lockOpenRecord(tx, actor, id);
      const active = viewers.filter((viewer) => viewer.active);
      const now = new Date();
      let way: AdmittedBy | null = null;
      if (adding) {
        if (active.length >= CHECK_IN_MAX_VIEWERS) throw checkInError('CHECKIN_TOO_MANY_VIEWERS');
        way = await addViewer(tx, actor, record, adding, now);
      }
      if (input.removeViewerId) {
        const target = active.find((viewer) => viewer.id === input.removeViewerId);
        if (!target) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
        if (active.length <= 1) throw checkInError('CHECKIN_LAST_VIEWER');
        await removeViewer(tx, target.id, now);
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
  input: { checkInId: string; fromViewerId: string; to: ViewerEntry },
): Promise<CheckInRecord> {
  const id = input.checkInId;
  const required = faceRequired(actor.federativeUnit);
  const receiving = await proveViewer(deps, actor, input.to, {
    required,
    separateIdentity: false,
  });
  const conflict = await alreadyOpen(deps, receiving.person);
  if (conflict) throw conflict;
  try {
    await deps.db.transaction(async (tx) => {
      const { record, viewers } = await lockOpenRecord(tx, actor, id);
      const leaving = viewers.find((viewer) => viewer.active && viewer.id === input.fromViewerId);
      if (!leaving) throw checkInError('CHECKIN_VIEWER_NOT_FOUND');
      if (leaving.userId === receiving.person.id) throw checkInError('CHECKIN_SAME_EXAMINER');
      const now = new Date();
      await removeViewer(tx, leaving.id, now);
      const way = await addViewer(tx, actor, record, receiving, now, {
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
    const { record, viewers } = await lockOpenRecord(tx, actor, id, { afterOwnCheckOut: true });
    const active = viewers.filter((viewer) => viewer.active);
    const now = new Date();
    let leaving: CheckInViewerRow[];
    if (input.viewerId) {
      const target = active.find((viewer) => viewer.id === input.viewerId);
      if (!target) {
        const known = viewers.some((viewer) => viewer.id === input.viewerId);
        throw checkInError(known ? 'CHECKIN_VIEWER_ALREADY_OUT' : 'CHECKIN_VIEWER_NOT_FOUND');
      }
      leaving = [target];
    } else {
      if (record.faceValidationRequired) throw checkInError('CHECKIN_VIEWER_REQUIRED');
      leaving = active;
    }
    for (const viewer of leaving) {
      let faceKey: string | null = null;
      if (record.faceValidationRequired) {
        if (!input.verificationId) throw checkInError('CHECKIN_FACE_REQUIRED');
        faceKey = (
          await useFaceTicket(tx, actor, {
            verificationId: input.verificationId,
            cpf: viewer.cpf,
            schedulingLocal: record.schedulingLocal,
          })
        ).captureKey;
      }
      await checkOutViewer(tx, viewer.id, {
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
        viewerId: viewer.id,
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
      checkedOut: leaving.map((viewer) => viewer.userId),
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

/* ------------------------------------------------------------------------ */
/* The captures                                                              */
/* ------------------------------------------------------------------------ */

/**
 * `GET face/{key}` by signed address: a check-in or check-out capture, once
 * the signature (bound to this route, the capture and the viewer) and its
 * expiry are checked; each view is written down (`face_image_view`).
 */
export async function readCheckInFace(
  deps: CheckInDeps,
  access: { viewer: string; expires: number; signature: string },
  input: { key: string },
): Promise<Buffer> {
  if (
    !deps.files.verifyAccess(
      'check-in-face',
      input.key,
      access.viewer,
      access.expires,
      access.signature,
    )
  ) {
    throw AppError.forbidden('Endereço da imagem inválido ou expirado. Recarregue a página.');
  }
  const owner = await findCaptureOwner(deps.db, input.key);
  if (!owner) throw AppError.notFound('Imagem não encontrada.', 'FACE_IMAGE_NOT_FOUND');
  const content = await deps.files.read(input.key);
  await insertActivity(deps.db, {
    type: 'face_image_view',
    actorId: access.viewer,
    federativeUnit: owner.federativeUnit,
    payload: { cpf: owner.cpf, purpose: 'check-in' },
    target: cpfTarget(deps.pseudonym, owner.cpf),
  });
  return content;
}
