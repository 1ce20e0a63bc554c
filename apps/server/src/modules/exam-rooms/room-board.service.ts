/**
 * A room's board (spec 2 `/exam-room/:id`): its stations with their exams on
 * a São Paulo day, the counters on top, who may act on it, and the exams of
 * a post whose room no room names.
 */
import {
  maskCpf,
  resolvePeriod,
  stationStatusOf,
  dayInZone,
  type BoardCounter,
  type BoardExam,
  type RoomBoard,
} from '@exame/shared';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import {
  findExamsWithoutRoom,
  findRoomExams,
  findRoomHolders,
  listRooms,
  type ExamRow,
  type RoomWithPost,
} from './exam-rooms.repository';
import { certificateExamIds } from './board-certificates';
import {
  type ExamRoomDeps,
  roomLocal,
  holdersOf,
  roomsWithDetails,
  visibleRoom,
} from './exam-rooms.service';

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
  const certificates = await certificateExamIds(deps.db, actor, room, rows);
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
    certificateExamIds: certificates,
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
