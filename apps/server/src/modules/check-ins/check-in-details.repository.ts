/**
 * A check-in record's examiners and history, read in the record's own
 * statement (`findRecordWithDetails`): two JSON aggregates among its
 * columns, turned back into rows here.
 */
import { sql } from 'drizzle-orm';
import { checkIns, type checkInEvents, type checkInViewers } from '../../db/schema/index';

/** What a record shows of an examiner (`toRecord`). */
export type ExaminerOfRecord = Pick<
  typeof checkInViewers.$inferSelect,
  | 'id'
  | 'userId'
  | 'name'
  | 'cpf'
  | 'faceKey'
  | 'checkInDate'
  | 'checkOutValidated'
  | 'checkOutDate'
  | 'checkOutFaceKey'
  | 'removedAt'
  | 'admittedBy'
>;

/** An entry of a record's history, with who acted and whom it concerns by name. */
export type CheckInEventRow = {
  type: (typeof checkInEvents.$inferSelect)['type'];
  at: Date;
  actorName: string | null;
  subject: string | null;
  reason: string | null;
  details: Record<string, unknown>;
};

/** A record's examiners (in the order they came in) and its history (in order). */
export type RecordDetails = { examiners: ExaminerOfRecord[]; events: CheckInEventRow[] };

/** A row as JSON gives it: its times as text. */
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/** The examiners and the history of the record of the row, as columns of its statement. */
export const RECORD_DETAILS = {
  examiners: sql<Json<ExaminerOfRecord>[]>`(select coalesce(json_agg(json_build_object(
      'id', v.id, 'userId', v.user_id, 'name', v.name, 'cpf', v.cpf, 'faceKey', v.face_key,
      'checkInDate', v.check_in_date, 'checkOutValidated', v.check_out_validated,
      'checkOutDate', v.check_out_date, 'checkOutFaceKey', v.check_out_face_key,
      'removedAt', v.removed_at, 'admittedBy', v.admitted_by)
      order by v.check_in_date, v.seq), '[]'::json)
    from check_in_viewers v where v.check_in_id = ${checkIns.id})`,
  events: sql<Json<CheckInEventRow>[]>`(select coalesce(json_agg(json_build_object(
      'type', e.type, 'at', e.at, 'actorName', u.name, 'subject', cv.name,
      'reason', e.reason, 'details', e.details) order by e.seq), '[]'::json)
    from check_in_events e
    left join users u on u.id = e.actor_id
    left join check_in_viewers cv on cv.id = e.viewer_id
    where e.check_in_id = ${checkIns.id})`,
};

const dateOf = (value: string | null) => (value === null ? null : new Date(value));

/** The two aggregates of a row, their times back to dates. */
export function detailsOf(row: {
  examiners: Json<ExaminerOfRecord>[];
  events: Json<CheckInEventRow>[];
}): RecordDetails {
  return {
    examiners: row.examiners.map((examiner) => ({
      ...examiner,
      checkInDate: new Date(examiner.checkInDate),
      checkOutDate: dateOf(examiner.checkOutDate),
      removedAt: dateOf(examiner.removedAt),
    })),
    events: row.events.map((event) => ({ ...event, at: new Date(event.at) })),
  };
}
