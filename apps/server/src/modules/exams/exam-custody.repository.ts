/**
 * Where an exam ran and who held its room (exam detail, certificates, the
 * room board's certificate action): reads of the rooms and check-ins the
 * exam's local names. The exams module owns them because the modules above
 * it (exam-rooms, certificates) ask them of an exam.
 */
import { sql } from 'drizzle-orm';
import { type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';

/** The room of the unit an exam's local names (`DEMO.POSTO01-S2`), if any. */
export async function findRoomByLocal(
  db: Executor,
  unit: string,
  examLocal: string,
): Promise<{ id: string; name: string; code: string } | undefined> {
  const rows = await selectRows<{ id: string; name: string; code: string }>(
    db,
    sql`select r.id, r.name, r.code from exam_rooms r
        join scheduling_locals l on l.id = r.scheduling_local_id
        where r.federative_unit = ${unit} and l.identifier || '-' || r.code = ${examLocal}
        limit 1`,
  );
  return rows[0];
}

/**
 * Who held the room of an exam while it ran: the examiners of the post's
 * check-ins (those naming that room, or no room) whose time in the room
 * overlaps [from, to].
 */
export async function findCustody(
  db: Executor,
  unit: string,
  exam: { postIdentifier: string; roomCode: string | null; from: Date; to: Date },
): Promise<
  Array<{ checkInId: string; userId: string; name: string; checkInDate: Date; leftAt: Date | null }>
> {
  const rows = await selectRows<{
    check_in_id: string;
    user_id: string;
    name: string;
    check_in_date: string | Date;
    left_at: string | Date | null;
  }>(
    db,
    sql`select v.check_in_id, v.user_id, v.name, v.check_in_date, coalesce(v.check_out_date, v.removed_at) as left_at
        from check_in_viewers v
        join check_ins c on c.id = v.check_in_id
        left join exam_rooms r on r.id = c.exam_room_id
        where c.federative_unit = ${unit}
          and c.scheduling_local = ${exam.postIdentifier}
          and (c.exam_room_id is null or r.code = ${exam.roomCode})
          and v.check_in_date <= ${exam.to.toISOString()}::timestamptz
          and coalesce(v.check_out_date, v.removed_at, now()) >= ${exam.from.toISOString()}::timestamptz
        order by v.check_in_date, v.seq`,
  );
  return rows.map((row) => ({
    checkInId: row.check_in_id,
    userId: row.user_id,
    name: row.name,
    checkInDate: new Date(row.check_in_date),
    leftAt: row.left_at ? new Date(row.left_at) : null,
  }));
}
