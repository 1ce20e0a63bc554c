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
import { literal, type Bind, type Executor } from '../../db/client';
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

const list = (values: readonly string[], bind: Bind, name: string) =>
  sql.join(
    values.map((value, index) => sql`${bind(`${name}${index}`, value)}`),
    sql`, `,
  );

function postCondition(identifier: string, rule: PostRule, bind: Bind, index: number): SQL {
  const post = bind(`countPost${index}`, identifier);
  return rule === 'room-suffix'
    ? sql`(scheduling_local = ${post} or scheduling_local like ${bind(`countPostRoom${index}`, `${escapeLike(identifier)}-%`)})`
    : sql`(scheduling_local = ${post} or split_part(scheduling_local, '-', 1) = ${post})`;
}

/**
 * The counter rows of the unit's exams the filter selects (a WHERE over
 * `exam_day_counts`), its values bound through `bind` (placeholders for a
 * prepared statement, or the values themselves); null when a bound of the
 * period is not a São Paulo day start (a period given with another offset:
 * the counters' days would not match it).
 */
export function dayCountsCondition(
  unit: string,
  filter: CounterFilter,
  bind: Bind = literal,
): SQL | null {
  const conditions: SQL[] = [sql`federative_unit = ${bind('countUnit', unit)}`];
  if (filter.start) {
    const day = dayStarting(filter.start);
    if (!day) return null;
    conditions.push(sql`day >= ${bind('countFrom', day)}::date`);
  }
  if (filter.endExclusive) {
    const day = dayStarting(filter.endExclusive);
    if (!day) return null;
    conditions.push(sql`day < ${bind('countUntil', day)}::date`);
  }
  if (filter.statuses?.length) {
    conditions.push(sql`status in (${list(filter.statuses, bind, 'countStatus')})`);
  }
  if (filter.results?.length) {
    conditions.push(sql`result in (${list(filter.results, bind, 'countResult')})`);
  }
  const posts = filter.posts;
  if (posts?.identifiers.length) {
    conditions.push(
      sql`(${sql.join(
        posts.identifiers.map((identifier, index) =>
          postCondition(identifier, posts.rule, bind, index),
        ),
        sql` or `,
      )})`,
    );
  }
  return sql.join(conditions, sql` and `);
}

/** The sum of the counters `where` selects (dayCountsCondition), as one scalar expression. */
export function dayCountsSum(where: SQL): SQL<number> {
  return sql<number>`(select coalesce(sum(exams), 0) from exam_day_counts where ${where})`;
}

/**
 * The number of the unit's exams the filter selects, from the counters; null
 * when the period's bounds are not São Paulo day starts (dayCountsCondition).
 */
export async function totalFromDayCounts(
  db: Executor,
  unit: string,
  filter: CounterFilter,
): Promise<number | null> {
  const where = dayCountsCondition(unit, filter);
  if (!where) return null;
  const [row] = await selectRows<{ total: string | number | null }>(
    db,
    sql`select ${dayCountsSum(where)} as total`,
  );
  return Number(row?.total ?? 0);
}
