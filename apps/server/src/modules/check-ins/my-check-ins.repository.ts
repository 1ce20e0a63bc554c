/**
 * The SQL of an examiner's open records: the ones a signed-in examiner works
 * in (read on any device, whatever the browser kept), and the one that stops
 * them from entering another room.
 */
import { and, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { checkIns, checkInViewers, examRooms, schedulingLocals } from '../../db/schema/index';

export type OpenRecordOfUser = {
  checkInId: string;
  /** The user's examiner entry; null when they opened the record for someone else. */
  examinerId: string | null;
  inRoom: boolean;
};

/**
 * The open records of the unit that are the user's: those where they are an
 * examiner not removed (in the room, or already out while the other is still
 * in), and those they opened without being an examiner of them (for the
 * separate examiner identity). Someone who handed the room over (transfer) or
 * was removed from it is no longer in it. Newest first.
 */
export async function listOpenRecordsOfUser(
  db: Executor,
  unit: string,
  userId: string,
): Promise<OpenRecordOfUser[]> {
  const rows = await db
    .select({
      checkInId: checkIns.id,
      examinerId: checkInViewers.id,
      active: checkInViewers.active,
    })
    .from(checkIns)
    .leftJoin(
      checkInViewers,
      and(eq(checkInViewers.checkInId, checkIns.id), eq(checkInViewers.userId, userId)),
    )
    .where(
      and(
        eq(checkIns.federativeUnit, unit),
        eq(checkIns.status, 'open'),
        or(
          and(isNotNull(checkInViewers.id), isNull(checkInViewers.removedAt)),
          and(eq(checkIns.openedBy, userId), isNull(checkInViewers.id)),
        ),
      ),
    )
    .orderBy(desc(checkIns.openedAt), desc(checkInViewers.active));
  // One entry per record: an examiner who left and came back has two rows, the active one wins.
  const byRecord = new Map<string, OpenRecordOfUser>();
  for (const row of rows) {
    const seen = byRecord.get(row.checkInId);
    if (seen?.inRoom) continue;
    byRecord.set(row.checkInId, {
      checkInId: row.checkInId,
      examinerId: row.examinerId,
      inRoom: row.active === true,
    });
  }
  return [...byRecord.values()];
}

export type OpenHolding = {
  checkInId: string;
  openedAt: Date;
  schedulingLocal: string;
  schedulingLocalDescription: string;
  examRoom: { name: string; code: string } | null;
};

/**
 * The open record the user is in the room of, if any (at most one: see
 * `check_in_viewers_one_open_key`), with the names of its post and room.
 */
export async function findOpenHoldingOfUser(
  db: Executor,
  userId: string,
): Promise<OpenHolding | undefined> {
  const [row] = await db
    .select({
      checkInId: checkIns.id,
      openedAt: checkIns.openedAt,
      schedulingLocal: checkIns.schedulingLocal,
      schedulingLocalDescription: schedulingLocals.description,
      roomName: examRooms.name,
      roomCode: examRooms.code,
    })
    .from(checkInViewers)
    .innerJoin(checkIns, eq(checkIns.id, checkInViewers.checkInId))
    .innerJoin(schedulingLocals, eq(schedulingLocals.id, checkIns.schedulingLocalId))
    .leftJoin(examRooms, eq(examRooms.id, checkIns.examRoomId))
    .where(and(eq(checkInViewers.userId, userId), eq(checkInViewers.active, true)))
    .limit(1);
  if (!row) return undefined;
  return {
    checkInId: row.checkInId,
    openedAt: row.openedAt,
    schedulingLocal: row.schedulingLocal,
    schedulingLocalDescription: row.schedulingLocalDescription,
    examRoom:
      row.roomName !== null && row.roomCode !== null
        ? { name: row.roomName, code: row.roomCode }
        : null,
  };
}
