/** The SQL of exam rooms: rooms, stations, who holds a room, and the exams on its board. */
import { and, asc, eq, gte, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import {
  checkIns,
  checkInViewers,
  examRooms,
  exams,
  examStations,
  occurrences,
  schedulingLocals,
} from '../../db/schema/index';

export type RoomRow = typeof examRooms.$inferSelect;
export type StationRow = typeof examStations.$inferSelect;
export type RoomWithPost = RoomRow & { postIdentifier: string; postDescription: string };
export type ExamRow = typeof exams.$inferSelect;

function selectRoomsWithPost(db: Executor) {
  return db
    .select({
      room: examRooms,
      postIdentifier: schedulingLocals.identifier,
      postDescription: schedulingLocals.description,
    })
    .from(examRooms)
    .innerJoin(schedulingLocals, eq(schedulingLocals.id, examRooms.schedulingLocalId));
}

type RoomJoin = Awaited<ReturnType<ReturnType<typeof selectRoomsWithPost>['execute']>>[number];
const withPost = (row: RoomJoin): RoomWithPost => ({
  ...row.room,
  postIdentifier: row.postIdentifier,
  postDescription: row.postDescription,
});

/** The rooms of the unit (of one post when named), by post and code. */
export async function listRooms(
  db: Executor,
  unit: string,
  filter: { postIdentifier?: string; includeInactive: boolean },
): Promise<RoomWithPost[]> {
  const rows = await selectRoomsWithPost(db)
    .where(
      and(
        eq(examRooms.federativeUnit, unit),
        filter.postIdentifier ? eq(schedulingLocals.identifier, filter.postIdentifier) : undefined,
        filter.includeInactive ? undefined : eq(examRooms.isActive, true),
      ),
    )
    .orderBy(asc(schedulingLocals.description), asc(examRooms.code));
  return rows.map(withPost);
}

export async function findRoom(
  db: Executor,
  unit: string,
  id: string,
): Promise<RoomWithPost | undefined> {
  const [row] = await selectRoomsWithPost(db)
    .where(and(eq(examRooms.federativeUnit, unit), eq(examRooms.id, id)))
    .limit(1);
  return row ? withPost(row) : undefined;
}

export async function insertRoom(tx: Executor, row: typeof examRooms.$inferInsert) {
  const [created] = await tx.insert(examRooms).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateRoom(
  tx: Executor,
  unit: string,
  id: string,
  patch: Partial<Pick<RoomRow, 'code' | 'name' | 'isActive'>>,
) {
  const [row] = await tx
    .update(examRooms)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(examRooms.federativeUnit, unit), eq(examRooms.id, id)))
    .returning();
  return row;
}

/** The stations of some rooms, in board order. */
export async function listStations(db: Executor, roomIds: string[]): Promise<StationRow[]> {
  if (roomIds.length === 0) return [];
  return db
    .select()
    .from(examStations)
    .where(inArray(examStations.examRoomId, roomIds))
    .orderBy(asc(examStations.position), asc(examStations.code));
}

export async function insertStations(tx: Executor, rows: Array<typeof examStations.$inferInsert>) {
  if (rows.length === 0) return [];
  return tx.insert(examStations).values(rows).returning();
}

export async function updateStation(
  tx: Executor,
  roomId: string,
  id: string,
  patch: Partial<Pick<StationRow, 'code' | 'position' | 'isActive'>>,
) {
  const [row] = await tx
    .update(examStations)
    .set(patch)
    .where(and(eq(examStations.examRoomId, roomId), eq(examStations.id, id)))
    .returning();
  return row;
}

/**
 * The open check-ins that hold rooms of the unit: those naming the room, and
 * those of its post naming no room (they hold every room of the post), with
 * the examiners in the room now.
 */
export async function findRoomHolders(
  db: Executor,
  unit: string,
  rooms: Array<Pick<RoomRow, 'id' | 'schedulingLocalId'>>,
  options: { lock?: boolean } = {},
): Promise<
  Array<{
    checkInId: string;
    examRoomId: string | null;
    schedulingLocalId: string;
    openedAt: Date;
    userId: string;
    name: string;
  }>
> {
  if (rooms.length === 0) return [];
  const query = db
    .select({
      checkInId: checkIns.id,
      examRoomId: checkIns.examRoomId,
      schedulingLocalId: checkIns.schedulingLocalId,
      openedAt: checkIns.openedAt,
      userId: checkInViewers.userId,
      name: checkInViewers.name,
    })
    .from(checkIns)
    .innerJoin(checkInViewers, eq(checkInViewers.checkInId, checkIns.id))
    .where(
      and(
        eq(checkIns.federativeUnit, unit),
        eq(checkIns.status, 'open'),
        eq(checkInViewers.active, true),
        or(
          inArray(
            checkIns.examRoomId,
            rooms.map((room) => room.id),
          ),
          and(
            isNull(checkIns.examRoomId),
            inArray(
              checkIns.schedulingLocalId,
              rooms.map((room) => room.schedulingLocalId),
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(checkIns.openedAt), asc(checkInViewers.checkInDate));
  // FOR SHARE of the records: a check-out (FOR UPDATE of its record) waits for the action.
  return options.lock ? query.for('share', { of: checkIns }) : query;
}

/** How many exams (any day) name a room's local, or one station of it. */
export async function countExamsNaming(
  db: Executor,
  unit: string,
  examLocal: string,
  station?: string,
): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exams
        where federative_unit = ${unit} and scheduling_local = ${examLocal}
          ${station === undefined ? sql`` : sql`and station = ${station}`}`,
  );
  return rows[0]?.n ?? 0;
}

/** How many occurrences and photos an exam has. */
export async function countAttachments(
  db: Executor,
  examId: string,
): Promise<{ occurrenceCount: number; photoCount: number }> {
  const [row] = await selectRows<{ occurrenceCount: number; photoCount: number }>(
    db,
    sql`select (select count(*)::int from occurrences where exam_id = ${examId}) as "occurrenceCount",
               (select count(*)::int from exam_photos where exam_id = ${examId}) as "photoCount"`,
  );
  return row ?? { occurrenceCount: 0, photoCount: 0 };
}

/** The exams of a room (its exams' local) in [start, endExclusive), with their occurrences and photos counted. */
export async function findRoomExams(
  db: Executor,
  unit: string,
  examLocal: string,
  period: { start: Date; endExclusive: Date },
): Promise<Array<ExamRow & { occurrenceCount: number; photoCount: number }>> {
  // The outer table is named in full: inside a subquery a bare "id" would be the inner table's.
  const rows = await db
    .select({
      exam: exams,
      occurrenceCount: sql<number>`(select count(*)::int from occurrences o where o.exam_id = "exams"."id")`,
      photoCount: sql<number>`(select count(*)::int from exam_photos p where p.exam_id = "exams"."id")`,
    })
    .from(exams)
    .where(
      and(
        eq(exams.federativeUnit, unit),
        eq(exams.schedulingLocal, examLocal),
        gte(exams.schedulingDate, period.start),
        lt(exams.schedulingDate, period.endExclusive),
      ),
    )
    .orderBy(asc(exams.schedulingDate), asc(exams.schedulingId));
  return rows.map((row) => ({
    ...row.exam,
    occurrenceCount: row.occurrenceCount,
    photoCount: row.photoCount,
  }));
}

/** The exams of a post on a day whose local names none of `roomLocals` (no known room). */
export async function findExamsWithoutRoom(
  db: Executor,
  unit: string,
  post: { identifier: string; roomLocals: string[] },
  period: { start: Date; endExclusive: Date },
): Promise<ExamRow[]> {
  return db
    .select()
    .from(exams)
    .where(
      and(
        eq(exams.federativeUnit, unit),
        sql`split_part(${exams.schedulingLocal}, '-', 1) = ${post.identifier}`,
        post.roomLocals.length > 0 ? notInArray(exams.schedulingLocal, post.roomLocals) : undefined,
        gte(exams.schedulingDate, period.start),
        lt(exams.schedulingDate, period.endExclusive),
      ),
    )
    .orderBy(asc(exams.schedulingDate), asc(exams.schedulingId));
}

/** An exam of the room (by its local), locked until the transaction ends. */
export async function lockRoomExam(
  tx: Executor,
  unit: string,
  examLocal: string,
  examId: string,
): Promise<ExamRow | undefined> {
  const [row] = await tx
    .select()
    .from(exams)
    .where(
      and(
        eq(exams.federativeUnit, unit),
        eq(exams.schedulingLocal, examLocal),
        eq(exams.id, examId),
      ),
    )
    .for('update');
  return row;
}

/** Interrupts (counting it in the `interrupted` metadata) or resumes an exam; the row as it is now. */
export async function setExamInterruption(
  tx: Executor,
  examId: string,
  interrupted: boolean,
): Promise<ExamRow> {
  const [row] = await tx
    .update(exams)
    .set(
      interrupted
        ? {
            interruptedAt: new Date(),
            interrupted: sql`${exams.interrupted} + 1`,
            updatedAt: new Date(),
          }
        : { interruptedAt: null, updatedAt: new Date() },
    )
    .where(eq(exams.id, examId))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

/** Rooms of a post: ids and codes (for the check-in's room choice and the unplaced exams). */
export async function countActiveRoomsOfPost(db: Executor, postId: string): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exam_rooms where scheduling_local_id = ${postId} and is_active`,
  );
  return rows[0]?.n ?? 0;
}

/** An occurrence the examiner records (no external id: each one is new); returns its id. */
export async function insertRoomOccurrence(
  tx: Executor,
  row: Omit<typeof occurrences.$inferInsert, 'externalId'>,
): Promise<string> {
  const [created] = await tx
    .insert(occurrences)
    .values({ ...row, externalId: null })
    .returning({ id: occurrences.id });
  if (!created) throw new Error('insert returned no row');
  return created.id;
}
