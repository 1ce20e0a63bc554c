/**
 * Exam rooms of the service posts, their stations and the station board.
 *
 * Tenancy: every read and write is scoped by the actor's `federativeUnit`; a
 * room, a station, a post or an exam of another unit is simply not found. A
 * change and its activity event share one transaction.
 *
 * Custody: a room is held by the open check-ins that name it, and by those
 * of its post that name no room (opened when the post had no rooms). Only an
 * examiner in the room now (or an ADMIN) acts on its exams.
 */
import {
  EXAM_ERRORS,
  maskCpf,
  roomActionProblem,
  resolvePeriod,
  ROOM_ERRORS,
  stationStatusOf,
  dayInZone,
  type BoardCounter,
  type BoardExam,
  type CreateRoomInput,
  type OccurrenceAddedPayload,
  type RoomAction,
  type ExamRoom,
  type RoomBoard,
  type StationInput,
  type UpdateRoomInput,
  type UpdateStationInput,
} from '@exame/shared';
import { validateAndNormalizeImage } from '../../biometrics/image';
import type { Database, Executor } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { changeWithActivity, insertActivity } from '../activity/activity.repository';
import { storeExamPhoto } from '../exams/exam-photos.service';
import { insertHistory, updateExam } from '../exams/exams.repository';
import { planChange, publishExamChanges } from '../exams/exams.service';
import { publishRealtime } from '../realtime/realtime.repository';
import { findFederativeUnit } from '../federative-units/federative-units.repository';
import { findLocalByIdentifier } from '../scheduling-locals/scheduling-locals.repository';
import {
  findExamsWithoutRoom,
  findRoom,
  findRoomExams,
  findRoomHolders,
  insertRoom,
  countAttachments,
  countExamsNaming,
  insertRoomOccurrence,
  insertStations,
  listRooms,
  listStations,
  lockRoomExam,
  setExamInterruption,
  updateRoom,
  updateStation,
  type ExamRow,
  type RoomWithPost,
  type StationRow,
} from './exam-rooms.repository';

export type ExamRoomDeps = { db: Database };

const roomError = (code: keyof typeof ROOM_ERRORS, message?: string) =>
  AppError.from(ROOM_ERRORS, code, message);

/** The exams' local of a room: its post, a dash, its code (`DEMO.POSTO01-S2`). */
export function roomLocal(room: Pick<RoomWithPost, 'postIdentifier' | 'code'>): string {
  return `${room.postIdentifier}-${room.code}`;
}

type Holder = Awaited<ReturnType<typeof findRoomHolders>>[number];

function holdersOf(room: RoomWithPost, holders: Holder[]) {
  const mine = holders.filter(
    (holder) =>
      holder.examRoomId === room.id ||
      (holder.examRoomId === null && holder.schedulingLocalId === room.schedulingLocalId),
  );
  const byRecord = new Map<string, { checkInId: string; openedAt: string; examiners: string[] }>();
  for (const holder of mine) {
    const entry = byRecord.get(holder.checkInId) ?? {
      checkInId: holder.checkInId,
      openedAt: holder.openedAt.toISOString(),
      examiners: [],
    };
    entry.examiners.push(holder.name);
    byRecord.set(holder.checkInId, entry);
  }
  return { records: [...byRecord.values()], userIds: new Set(mine.map((h) => h.userId)) };
}

function toRoom(room: RoomWithPost, stations: StationRow[], holders: Holder[]): ExamRoom {
  return {
    id: room.id,
    federativeUnit: room.federativeUnit,
    schedulingLocal: room.postIdentifier,
    schedulingLocalDescription: room.postDescription,
    code: room.code,
    name: room.name,
    examLocal: roomLocal(room),
    isActive: room.isActive,
    stations: stations
      .filter((station) => station.examRoomId === room.id)
      .map((station) => ({
        id: station.id,
        code: station.code,
        position: station.position,
        isActive: station.isActive,
      })),
    heldBy: holdersOf(room, holders).records,
  };
}

async function roomsWithDetails(deps: ExamRoomDeps, unit: string, rooms: RoomWithPost[]) {
  const [stations, holders] = await Promise.all([
    listStations(
      deps.db,
      rooms.map((room) => room.id),
    ),
    findRoomHolders(deps.db, unit, rooms),
  ]);
  return rooms.map((room) => toRoom(room, stations, holders));
}

/** `GET api/ExamRoom`: the rooms of the unit (of a post when named). */
export async function searchRooms(
  deps: ExamRoomDeps,
  actor: SessionUser,
  query: { schedulingLocal?: string; includeInactive: boolean; mine?: boolean },
): Promise<ExamRoom[]> {
  const rooms = await listRooms(deps.db, actor.federativeUnit, {
    postIdentifier: query.schedulingLocal,
    includeInactive: query.includeInactive,
  });
  if (!query.mine) return roomsWithDetails(deps, actor.federativeUnit, rooms);
  const holders = await findRoomHolders(deps.db, actor.federativeUnit, rooms);
  const held = rooms.filter((room) => holdersOf(room, holders).userIds.has(actor.id));
  return roomsWithDetails(deps, actor.federativeUnit, held);
}

async function visibleRoom(deps: ExamRoomDeps, actor: SessionUser, id: string) {
  const room = await findRoom(deps.db, actor.federativeUnit, id);
  if (!room) throw roomError('ROOM_NOT_FOUND');
  return room;
}

export async function getRoom(
  deps: ExamRoomDeps,
  actor: SessionUser,
  id: string,
): Promise<ExamRoom> {
  const [room] = await roomsWithDetails(deps, actor.federativeUnit, [
    await visibleRoom(deps, actor, id),
  ]);
  return room!;
}

function takenError(error: unknown): never {
  const constraint = uniqueViolation(error);
  if (constraint === 'exam_rooms_local_code_key') throw roomError('ROOM_CODE_TAKEN');
  if (constraint === 'exam_stations_room_code_key') throw roomError('STATION_CODE_TAKEN');
  throw error;
}

/** `POST api/ExamRoom`: a room of a post of the unit, with its stations. */
export async function createRoom(
  deps: ExamRoomDeps,
  actor: SessionUser,
  input: CreateRoomInput & { stations?: StationInput[] },
): Promise<ExamRoom> {
  const unit = await findFederativeUnit(deps.db, actor.federativeUnit);
  if (!unit?.isProctoringEnable) throw roomError('ROOM_PROCTORING_DISABLED');
  const post = await findLocalByIdentifier(deps.db, actor.federativeUnit, input.schedulingLocal);
  if (!post || !post.isActive) throw roomError('ROOM_POST_NOT_FOUND');
  const stations = input.stations ?? [];
  if (new Set(stations.map((station) => station.code)).size !== stations.length) {
    throw roomError('STATION_CODE_TAKEN');
  }
  let id: string;
  try {
    id = await changeWithActivity(deps.db, actor, async (tx) => {
      const room = await insertRoom(tx, {
        federativeUnit: actor.federativeUnit,
        schedulingLocalId: post.id,
        code: input.code,
        name: input.name,
      });
      await insertStations(
        tx,
        stations.map((station) => ({
          examRoomId: room.id,
          federativeUnit: actor.federativeUnit,
          code: station.code,
          position: Number(station.position),
        })),
      );
      return {
        result: room.id,
        type: 'room_add',
        payload: { roomId: room.id, schedulingLocal: post.identifier, code: room.code },
      };
    });
  } catch (error) {
    takenError(error);
  }
  return getRoom(deps, actor, id);
}

/** `PUT api/ExamRoom/{id}`: name, code or activity of a room. */
export async function editRoom(
  deps: ExamRoomDeps,
  actor: SessionUser,
  id: string,
  input: UpdateRoomInput,
): Promise<ExamRoom> {
  const room = await visibleRoom(deps, actor, id);
  try {
    await changeWithActivity(deps.db, actor, async (tx) => {
      // Exams name the room by its code (`DEMO.POSTO01-S2`): renaming it would strand them.
      if (input.code !== undefined && input.code !== room.code) {
        if ((await countExamsNaming(tx, actor.federativeUnit, roomLocal(room))) > 0) {
          throw roomError('ROOM_CODE_IN_USE');
        }
      }
      const row = await updateRoom(tx, actor.federativeUnit, id, input);
      if (!row) throw roomError('ROOM_NOT_FOUND');
      return {
        result: row.id,
        type: 'room_update',
        payload: { roomId: id, changes: Object.keys(input) },
      };
    });
  } catch (error) {
    takenError(error);
  }
  return getRoom(deps, actor, id);
}

/** `POST api/ExamRoom/{id}/stations`: a station more on the board. */
export async function addStation(
  deps: ExamRoomDeps,
  actor: SessionUser,
  roomId: string,
  input: StationInput,
): Promise<ExamRoom> {
  await visibleRoom(deps, actor, roomId);
  try {
    await changeWithActivity(deps.db, actor, async (tx) => {
      const [station] = await insertStations(tx, [
        {
          examRoomId: roomId,
          federativeUnit: actor.federativeUnit,
          code: input.code,
          position: Number(input.position),
        },
      ]);
      return {
        result: station,
        type: 'room_update',
        payload: { roomId, stationAdded: input.code },
      };
    });
  } catch (error) {
    takenError(error);
  }
  return getRoom(deps, actor, roomId);
}

/** `PUT api/ExamRoom/{id}/stations/{stationId}`. */
export async function editStation(
  deps: ExamRoomDeps,
  actor: SessionUser,
  roomId: string,
  stationId: string,
  input: UpdateStationInput,
): Promise<ExamRoom> {
  const room = await visibleRoom(deps, actor, roomId);
  try {
    await changeWithActivity(deps.db, actor, async (tx) => {
      if (input.code !== undefined) {
        const current = (await listStations(tx, [roomId])).find((s) => s.id === stationId);
        if (!current) throw roomError('STATION_NOT_FOUND');
        // Exams name their station by its code: renaming it would take them off the board.
        if (
          input.code !== current.code &&
          (await countExamsNaming(tx, actor.federativeUnit, roomLocal(room), current.code)) > 0
        ) {
          throw roomError('STATION_CODE_IN_USE');
        }
      }
      const row = await updateStation(tx, roomId, stationId, {
        ...input,
        position: input.position === undefined ? undefined : Number(input.position),
      });
      if (!row) throw roomError('STATION_NOT_FOUND');
      return {
        result: row,
        type: 'room_update',
        payload: { roomId, stationId, changes: Object.keys(input) },
      };
    });
  } catch (error) {
    takenError(error);
  }
  return getRoom(deps, actor, roomId);
}

/* ------------------------------------------------------------------------ */
/* The board                                                                 */
/* ------------------------------------------------------------------------ */

function dayPeriod(day: string | undefined) {
  const chosen = day ?? dayInZone(new Date());
  const period = resolvePeriod(chosen, chosen);
  if (!period.ok) throw AppError.badRequest(period.code, period.message);
  return { day: chosen, period };
}

export function toBoardExam(
  exam: ExamRow & { occurrenceCount?: number; photoCount?: number },
): BoardExam {
  // Only a running exam is interrupted (planChange clears it when the status moves on).
  const interrupted = exam.interruptedAt !== null && exam.status === 'started';
  return {
    id: exam.id,
    schedulingId: exam.schedulingId,
    candidateName: exam.candidateName,
    candidateCpf: maskCpf(exam.candidateCpf),
    schedulingDate: exam.schedulingDate.toISOString(),
    status: exam.status,
    result: exam.result,
    interrupted,
    stationStatus: stationStatusOf({ status: exam.status, result: exam.result, interrupted }),
    station: exam.station,
    occurrences: exam.occurrenceCount ?? 0,
    photos: exam.photoCount ?? 0,
  };
}

/** Which exam a station shows: the running one, else the next to start, else the last one. */
function currentOf(exams: BoardExam[], now: Date): BoardExam | null {
  const running = exams.find((exam) => exam.status === 'started');
  if (running) return running;
  const next = exams.find(
    (exam) =>
      exam.status === 'scheduled' && Date.parse(exam.schedulingDate) >= now.getTime() - 3_600_000,
  );
  if (next) return next;
  return exams.at(-1) ?? null;
}

/** The counters on top of the board; a cancelled exam is listed but not counted. */
function countersOf(exams: BoardExam[]): Record<BoardCounter, number> {
  const count = (test: (exam: BoardExam) => boolean) => exams.filter(test).length;
  return {
    total: count((exam) => exam.status !== 'cancelled'),
    scheduled: count((exam) => exam.status === 'scheduled'),
    started: count((exam) => exam.status === 'started' && !exam.interrupted),
    interrupted: count((exam) => exam.status === 'started' && exam.interrupted),
    absent: count((exam) => exam.status === 'absence'),
    finished: count((exam) => exam.status === 'done'),
  };
}

/**
 * Whether the actor may act on the room: an examiner in a check-in that
 * holds it, or ADMIN. Inside an action's transaction (`lock`) the holding
 * check-ins are locked too, so that a check-out cannot end between this
 * check and the action.
 */
export async function mayActOn(
  db: Executor,
  actor: SessionUser,
  room: RoomWithPost,
  options: { lock?: boolean } = {},
): Promise<boolean> {
  if (actor.role === 'ADMIN') return true;
  const holders = await findRoomHolders(db, actor.federativeUnit, [room], options);
  return holdersOf(room, holders).userIds.has(actor.id);
}

/** `GET api/ExamRoom/{id}/board?day`: the stations with their exams on a São Paulo day (today by default). */
export async function getBoard(
  deps: ExamRoomDeps,
  actor: SessionUser,
  input: { id: string; day?: string },
): Promise<RoomBoard> {
  const room = await visibleRoom(deps, actor, input.id);
  const { day, period } = dayPeriod(input.day);
  const [[details], rows, canAct] = await Promise.all([
    roomsWithDetails(deps, actor.federativeUnit, [room]),
    findRoomExams(deps.db, actor.federativeUnit, roomLocal(room), period),
    mayActOn(deps.db, actor, room),
  ]);
  const exams = rows.map(toBoardExam);
  const stations = details!.stations.filter((station) => station.isActive);
  const codes = new Set(stations.map((station) => station.code));
  const now = new Date();
  return {
    room: details!,
    day,
    counters: countersOf(exams),
    stations: stations.map((station) => {
      const here = exams.filter((exam) => exam.station === station.code);
      const exam = currentOf(here, now);
      return { station, exam, others: here.length - (exam ? 1 : 0) };
    }),
    exams,
    unplaced: exams.filter((exam) => !exam.station || !codes.has(exam.station)),
    canAct,
  };
}

/** `GET api/ExamRoom/unplaced?schedulingLocal&day`: exams of a post whose room no room names. */
export async function listExamsWithoutRoom(
  deps: ExamRoomDeps,
  actor: SessionUser,
  input: { schedulingLocal: string; day?: string },
): Promise<BoardExam[]> {
  const { period } = dayPeriod(input.day);
  const rooms = await listRooms(deps.db, actor.federativeUnit, {
    postIdentifier: input.schedulingLocal,
    includeInactive: true,
  });
  const rows = await findExamsWithoutRoom(
    deps.db,
    actor.federativeUnit,
    { identifier: input.schedulingLocal, roomLocals: rooms.map(roomLocal) },
    period,
  );
  return rows.map(toBoardExam);
}

/* ------------------------------------------------------------------------ */
/* The examiner's actions                                                    */
/* ------------------------------------------------------------------------ */

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
      await updateExam(tx, row.id, plan.patch);
      await insertHistory(tx, {
        examId: row.id,
        fromStatus: row.status,
        toStatus: plan.patch.status ?? row.status,
        fromResult: row.result,
        toResult: plan.patch.result === undefined ? row.result : plan.patch.result,
        source: 'user',
        actorId: actor.id,
      });
      next = { ...row, ...plan.patch };
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
  deps: ExamRoomDeps & { files: FileStorage },
  actor: SessionUser,
  input: { roomId: string; examId: string; type: string; description: string; photo?: string },
): Promise<BoardExam> {
  const room = await visibleRoom(deps, actor, input.roomId);
  // A quick refusal before the image work; checked again, locked, in the transaction.
  if (!(await mayActOn(deps.db, actor, room))) throw roomError('ROOM_NOT_HELD');
  const picture = input.photo ? await validateAndNormalizeImage(input.photo) : null;
  const exam = await deps.db.transaction(async (tx) => {
    await holdOrRefuse(tx, actor, room);
    const row = await lockRoomExam(tx, actor.federativeUnit, roomLocal(room), input.examId);
    if (!row) throw roomError('ROOM_EXAM_NOT_FOUND');
    if (row.status === 'cancelled') {
      throw roomError('ROOM_ACTION_INVALID', 'Um exame cancelado não recebe ocorrências.');
    }
    const now = new Date();
    const photo = picture ? await storeExamPhoto(tx, deps.files, row.id, picture, now) : null;
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
  return toBoardExam({ ...exam, ...(await countAttachments(deps.db, exam.id)) });
}
