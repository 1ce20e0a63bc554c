/**
 * Exam rooms of the service posts and their stations (the board:
 * room-board.service.ts; the examiner's actions: room-actions.service.ts).
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
  ROOM_ERRORS,
  type CreateRoomInput,
  type ExamRoom,
  type StationInput,
  type UpdateRoomInput,
  type UpdateStationInput,
} from '@exame/shared';
import type { Database } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { changeWithActivity } from '../activity/activity.service';
import { findFederativeUnit } from '../federative-units/federative-units.service';
import { findLocalByIdentifier } from '../scheduling-locals/scheduling-locals.service';
import {
  findRoom,
  findRoomHolders,
  insertRoom,
  countExamsNaming,
  insertStations,
  listRooms,
  listStations,
  updateRoom,
  updateStation,
  type RoomWithPost,
  type StationRow,
} from './exam-rooms.repository';

export type ExamRoomDeps = { db: Database };

export const roomError = (code: keyof typeof ROOM_ERRORS, message?: string) =>
  AppError.from(ROOM_ERRORS, code, message);

/** The exams' local of a room: its post, a dash, its code (`DEMO.POSTO01-S2`). */
export function roomLocal(room: Pick<RoomWithPost, 'postIdentifier' | 'code'>): string {
  return `${room.postIdentifier}-${room.code}`;
}

type Holder = Awaited<ReturnType<typeof findRoomHolders>>[number];

export function holdersOf(room: RoomWithPost, holders: Holder[]) {
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

export async function roomsWithDetails(deps: ExamRoomDeps, unit: string, rooms: RoomWithPost[]) {
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

export async function visibleRoom(deps: ExamRoomDeps, actor: SessionUser, id: string) {
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

// The door of this module for the others (modules import each other only through services).
export { listRooms } from './exam-rooms.repository';
