/**
 * The SQL of the check-in records: records, their examiners, their history and
 * the post's exams (the unit's search: check-in-search.repository.ts).
 */
import { and, asc, count, desc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { RECORD_DETAILS, detailsOf, type RecordDetails } from './check-in-details.repository';
import {
  checkInEvents,
  checkIns,
  checkInViewers,
  examRooms,
  exams,
  schedulingLocals,
  users,
} from '../../db/schema/index';

export type CheckInRow = typeof checkIns.$inferSelect;
export type CheckInExaminerRow = typeof checkInViewers.$inferSelect;
export type NewCheckInExaminerRow = typeof checkInViewers.$inferInsert;
export type NewCheckInEventRow = typeof checkInEvents.$inferInsert;

export type CheckInWithNames = CheckInRow & {
  schedulingLocalDescription: string;
  openedByName: string;
  examRoom: { id: string; name: string; code: string } | null;
};

const openers = alias(users, 'openers');

/**
 * Records with their post's name and who opened them (where and order are the
 * caller's); `actorInRecord` says whether `actorId` opened the record or is or
 * was one of its examiners (false without an actor); `extra`, more columns.
 */
export function selectWithNames<Extra extends Record<string, SQL>>(
  db: Executor,
  actorId?: string,
  extra: Extra = {} as Extra,
) {
  const actorInRecord = actorId
    ? sql<boolean>`(${checkIns.openedBy} = ${actorId} or exists (
        select 1 from check_in_viewers v where v.check_in_id = ${checkIns.id} and v.user_id = ${actorId}))`
    : sql<boolean>`false`;
  return db
    .select({
      record: checkIns,
      schedulingLocalDescription: schedulingLocals.description,
      openedByName: openers.name,
      examRoomName: examRooms.name,
      examRoomCode: examRooms.code,
      actorInRecord,
      ...extra,
    })
    .from(checkIns)
    .innerJoin(schedulingLocals, eq(schedulingLocals.id, checkIns.schedulingLocalId))
    .innerJoin(openers, eq(openers.id, checkIns.openedBy))
    .leftJoin(examRooms, eq(examRooms.id, checkIns.examRoomId));
}

type RowWithNames = Awaited<
  ReturnType<ReturnType<typeof selectWithNames<Record<never, SQL>>>['execute']>
>[number];

export function withNames(row: RowWithNames): CheckInWithNames {
  return {
    ...row.record,
    schedulingLocalDescription: row.schedulingLocalDescription,
    openedByName: row.openedByName,
    examRoom:
      row.record.examRoomId && row.examRoomName !== null && row.examRoomCode !== null
        ? { id: row.record.examRoomId, name: row.examRoomName, code: row.examRoomCode }
        : null,
  };
}

/** A record of the unit with its post's name and who opened it. */
export async function findCheckIn(
  db: Executor,
  unit: string,
  id: string,
): Promise<CheckInWithNames | undefined> {
  return (await findRecordFor(db, unit, { id }))?.record;
}

/** A record found for an actor, and whether the actor opened it or is or was one of its examiners. */
export type RecordFor = { record: CheckInWithNames; actorInRecord: boolean };

/** A record found with its examiners and history (read in the same statement). */
export type RecordWithDetails = RecordFor & { details: RecordDetails };

export type WhichRecord = { id: string } | { examinerCpf: string; post: string };

/**
 * A record of the unit, named by id or as the open record at `post` that has
 * the CPF among its examiners (in the room, or already out while the other is
 * still in: the room's device keeps showing it until the last one leaves; the
 * newest, if the data had two).
 */
function recordWhere(db: Executor, unit: string, which: WhichRecord): SQL | undefined {
  const id =
    'id' in which
      ? eq(checkIns.id, which.id)
      : eq(
          checkIns.id,
          sql`(${db
            .select({ id: checkIns.id })
            .from(checkIns)
            .innerJoin(checkInViewers, eq(checkInViewers.checkInId, checkIns.id))
            .where(
              and(
                eq(checkIns.federativeUnit, unit),
                eq(checkIns.schedulingLocal, which.post),
                eq(checkIns.status, 'open'),
                eq(checkInViewers.cpf, which.examinerCpf),
                isNull(checkInViewers.removedAt),
              ),
            )
            .orderBy(desc(checkIns.openedAt))
            .limit(1)})`,
        );
  return and(eq(checkIns.federativeUnit, unit), id);
}

/**
 * One statement: a record (`recordWhere`) with its names and, for `actorId`,
 * whether the actor is in it.
 */
export async function findRecordFor(
  db: Executor,
  unit: string,
  which: WhichRecord,
  actorId?: string,
): Promise<RecordFor | undefined> {
  const [row] = await selectWithNames(db, actorId)
    .where(recordWhere(db, unit, which))
    .limit(1);
  return row ? { record: withNames(row), actorInRecord: row.actorInRecord } : undefined;
}

/**
 * `findRecordFor` with the record's examiners and history in the same
 * statement (the board reads it every few seconds).
 */
export async function findRecordWithDetails(
  db: Executor,
  unit: string,
  which: WhichRecord,
  actorId?: string,
): Promise<RecordWithDetails | undefined> {
  const [row] = await selectWithNames(db, actorId, RECORD_DETAILS)
    .where(recordWhere(db, unit, which))
    .limit(1);
  return row
    ? { record: withNames(row), actorInRecord: row.actorInRecord, details: detailsOf(row) }
    : undefined;
}

/** Locks a record of the unit until the transaction ends (changes to one record go one at a time). */
export async function lockCheckIn(
  tx: Executor,
  unit: string,
  id: string,
): Promise<CheckInRow | undefined> {
  const [row] = await tx
    .select()
    .from(checkIns)
    .where(and(eq(checkIns.federativeUnit, unit), eq(checkIns.id, id)))
    .for('update');
  return row;
}

export async function insertCheckIn(
  tx: Executor,
  row: typeof checkIns.$inferInsert,
): Promise<CheckInRow> {
  const [created] = await tx.insert(checkIns).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function insertExaminer(
  tx: Executor,
  row: NewCheckInExaminerRow,
): Promise<CheckInExaminerRow> {
  const [created] = await tx.insert(checkInViewers).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function insertEvent(tx: Executor, row: NewCheckInEventRow): Promise<void> {
  await tx.insert(checkInEvents).values(row);
}

/** The examiners of a record, in the order they came in (spec 4). */
export async function listExaminers(
  db: Executor,
  checkInId: string,
): Promise<CheckInExaminerRow[]> {
  return db
    .select()
    .from(checkInViewers)
    .where(eq(checkInViewers.checkInId, checkInId))
    .orderBy(asc(checkInViewers.checkInDate), asc(checkInViewers.seq));
}

/** Whether the user is or was an examiner of the record. */
export async function isExaminerOf(db: Executor, checkInId: string, userId: string) {
  const [row] = await db
    .select({ id: checkInViewers.id })
    .from(checkInViewers)
    .where(and(eq(checkInViewers.checkInId, checkInId), eq(checkInViewers.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Records the check-out of an examiner still in the room; undefined when they were not. */
export async function checkOutExaminer(
  tx: Executor,
  examinerId: string,
  values: {
    at: Date;
    validated: boolean;
    verificationId: string | null;
    faceKey: string | null;
  },
): Promise<CheckInExaminerRow | undefined> {
  const [row] = await tx
    .update(checkInViewers)
    .set({
      checkOutDate: values.at,
      checkOutValidated: values.validated,
      checkOutVerificationId: values.verificationId,
      checkOutFaceKey: values.faceKey,
      active: false,
    })
    .where(and(eq(checkInViewers.id, examinerId), eq(checkInViewers.active, true)))
    .returning();
  return row;
}

export async function removeExaminer(
  tx: Executor,
  examinerId: string,
  at: Date,
): Promise<CheckInExaminerRow | undefined> {
  const [row] = await tx
    .update(checkInViewers)
    .set({ removedAt: at, active: false })
    .where(and(eq(checkInViewers.id, examinerId), eq(checkInViewers.active, true)))
    .returning();
  return row;
}

/** Closes a record: every examiner still in the room leaves it (unvalidated, at `at`). */
export async function closeCheckIn(
  tx: Executor,
  id: string,
  values: {
    status: 'closed' | 'force_closed';
    at: Date;
    closedBy: string;
    reason: string | null;
  },
): Promise<void> {
  await tx
    .update(checkInViewers)
    .set({ checkOutDate: values.at, active: false })
    .where(and(eq(checkInViewers.checkInId, id), eq(checkInViewers.active, true)));
  await tx
    .update(checkIns)
    .set({
      status: values.status,
      closedAt: values.at,
      closedBy: values.closedBy,
      closeReason: values.reason,
    })
    .where(eq(checkIns.id, id));
}

/**
 * The exams of a post (by the exam-local rule of `examLocalBelongsToPost`)
 * scheduled in [start, endExclusive), in time order.
 */
export async function listExamsOfPost(
  db: Executor,
  unit: string,
  post: { identifier: string; start: Date; endExclusive: Date },
  page: { page: number; pageSize: number },
) {
  const belongs =
    unit === 'CE'
      ? or(
          eq(exams.schedulingLocal, post.identifier),
          sql`'CE.' || ${exams.schedulingLocal} = ${post.identifier}`,
        )
      : sql`split_part(${exams.schedulingLocal}, '-', 1) = ${post.identifier}`;
  const where = and(
    eq(exams.federativeUnit, unit),
    gte(exams.schedulingDate, post.start),
    lt(exams.schedulingDate, post.endExclusive),
    belongs,
  );
  const items = await db
    .select()
    .from(exams)
    .where(where)
    .orderBy(asc(exams.schedulingDate), asc(exams.schedulingId))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  // A post's day usually fits the first page (the board polls it): then it is the total.
  if (page.page === 1 && items.length < page.pageSize) return { items, total: items.length };
  const [counted] = await db.select({ total: count() }).from(exams).where(where);
  return { items, total: counted?.total ?? 0 };
}

/** Whether a key is a check-in capture of a record of `unit` (for the signed image route). */
export async function isCheckInCapture(db: Executor, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkInViewers.id })
    .from(checkInViewers)
    .where(or(eq(checkInViewers.faceKey, key), eq(checkInViewers.checkOutFaceKey, key)))
    .limit(1);
  return row !== undefined;
}

/** An examiner of a record of the unit, with the record's state and opener. */
export async function findExaminerOfUnit(db: Executor, unit: string, examinerId: string) {
  const [row] = await db
    .select({ examiner: checkInViewers, status: checkIns.status, openedBy: checkIns.openedBy })
    .from(checkInViewers)
    .innerJoin(checkIns, eq(checkIns.id, checkInViewers.checkInId))
    .where(and(eq(checkInViewers.federativeUnit, unit), eq(checkInViewers.id, examinerId)))
    .limit(1);
  return row;
}
