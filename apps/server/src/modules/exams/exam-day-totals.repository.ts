/**
 * Exact totals of exam lists from the maintained day counters
 * (`exam_day_counts`, migration 0016: one row per unit, São Paulo day, local,
 * status and result, kept by the exams' own statement triggers in the same
 * transaction). A list whose filters are all counter columns (period, post,
 * status, result) is counted by summing a few hundred counter rows instead of
 * reading up to TOTAL_COUNT_CAP exams: exact at any size, and the same cost
 * at a million exams as at ten thousand. A filter the counters do not hold (a
 * name, occurrences, a claim) is counted by its caller.
 */
import { dayInZone, zonedDayStart } from '@exame/shared';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { escapeLike } from '../../db/sql-text';

/**
 * How a post's identifier selects exam locals: `room-suffix`, the local
 * itself or the local followed by `-` and a room (the exam list);
 * `first-part`, the local up to its first `-` (the audit queue).
 */
export type PostRule = 'room-suffix' | 'first-part';

export type CounterFilter = {
  /** First instant of the first day (inclusive): a São Paulo day start, or no total is given. */
  start?: Date;
  /** First instant after the last day (exclusive): likewise. */
  endExclusive?: Date;
  statuses?: readonly string[];
  results?: readonly string[];
  posts?: { identifiers: readonly string[]; rule: PostRule };
};

/** The São Paulo day an instant starts, or null when it is not a day's first instant. */
function dayStarting(instant: Date): string | null {
  const day = dayInZone(instant);
  return zonedDayStart(day).getTime() === instant.getTime() ? day : null;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

function postCondition(identifier: string, rule: PostRule): SQL {
  return rule === 'room-suffix'
    ? sql`(scheduling_local = ${identifier} or scheduling_local like ${`${escapeLike(identifier)}-%`})`
    : sql`(scheduling_local = ${identifier} or split_part(scheduling_local, '-', 1) = ${identifier})`;
}

/**
 * The number of the unit's exams the filter selects, from the counters; null
 * when a bound of the period is not a São Paulo day start (a period given
 * with another offset: the counters' days would not match it).
 */
export async function totalFromDayCounts(
  db: Executor,
  unit: string,
  filter: CounterFilter,
): Promise<number | null> {
  const conditions: SQL[] = [sql`federative_unit = ${unit}`];
  if (filter.start) {
    const day = dayStarting(filter.start);
    if (!day) return null;
    conditions.push(sql`day >= ${day}::date`);
  }
  if (filter.endExclusive) {
    const day = dayStarting(filter.endExclusive);
    if (!day) return null;
    conditions.push(sql`day < ${day}::date`);
  }
  if (filter.statuses?.length) conditions.push(sql`status in (${list(filter.statuses)})`);
  if (filter.results?.length) conditions.push(sql`result in (${list(filter.results)})`);
  const posts = filter.posts;
  if (posts?.identifiers.length) {
    conditions.push(
      sql`(${sql.join(
        posts.identifiers.map((identifier) => postCondition(identifier, posts.rule)),
        sql` or `,
      )})`,
    );
  }
  const [row] = await selectRows<{ total: string | number | null }>(
    db,
    sql`select coalesce(sum(exams), 0) as total from exam_day_counts
      where ${sql.join(conditions, sql` and `)}`,
  );
  return Number(row?.total ?? 0);
}
