/** The SQL of the check-in records' search: the unit's records, filtered, newest first. */
import { SEARCH_COUNT_LIMIT, TOTAL_COUNT_CAP } from '@exame/shared';
import { and, asc, count, desc, eq, gte, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { plannedPerCall, type Executor } from '../../db/client';
import { estimatedRows } from '../../db/select-rows';
import { checkIns, checkInViewers, searchable } from '../../db/schema/index';
import { containing } from '../../db/sql-text';
import {
  selectWithNames,
  withNames,
  type CheckInExaminerRow,
  type CheckInWithNames,
} from './check-ins.repository';

export type CheckInSearch = {
  page: number;
  pageSize: number;
  schedulingLocal?: string;
  examiner?: string;
  status?: 'open' | 'closed';
  start?: Date;
  endExclusive?: Date;
};

/**
 * The planner's estimate of the unit's records that some examiner found by
 * `examinersFound` is in and that pass `others`: the records the examiners
 * are in, times the share of the unit's records the other filters keep (its
 * estimate of the semi-join itself is far off for a text).
 */
async function estimatedRecords(
  db: Executor,
  unit: string,
  examinersFound: SQL,
  others: Array<SQL | undefined>,
): Promise<number> {
  const records = await estimatedRows(
    db,
    sql`select distinct f.check_in_id from (${examinersFound}) f`,
  );
  if (others.length === 0) return records;
  const unitWhere = eq(checkIns.federativeUnit, unit);
  const [all, kept] = await Promise.all([
    estimatedRows(db, sql`select 1 from ${checkIns} where ${unitWhere}`),
    estimatedRows(db, sql`select 1 from ${checkIns} where ${and(unitWhere, ...others)}`),
  ]);
  return all === 0 ? 0 : Math.round((records * kept) / all);
}

/**
 * Records of the unit, newest first, with their examiners, filtered and
 * paginated. Each filter reads an index in the list's order (migration 0029):
 * the unit's, the post's, the open ones'; the examiner by name through the
 * trigram index (without case or accents), by CPF through (unit, cpf). The
 * records grow by the day, so the total is counted up to TOTAL_COUNT_CAP + 1
 * (`cappedTotal` says "more than").
 */
export async function searchCheckIns(
  db: Executor,
  unit: string,
  search: CheckInSearch,
): Promise<{
  items: Array<CheckInWithNames & { examiners: CheckInExaminerRow[] }>;
  /** Up to TOTAL_COUNT_CAP + 1, or the planner's estimate when `estimated`. */
  counted: number;
  estimated?: true;
}> {
  const conditions: Array<SQL | undefined> = [eq(checkIns.federativeUnit, unit)];
  if (search.schedulingLocal) conditions.push(eq(checkIns.schedulingLocal, search.schedulingLocal));
  if (search.status === 'open') conditions.push(eq(checkIns.status, 'open'));
  if (search.status === 'closed') conditions.push(sql`${checkIns.status} <> 'open'`);
  if (search.start) conditions.push(gte(checkIns.openedAt, search.start));
  if (search.endExclusive) conditions.push(lt(checkIns.openedAt, search.endExclusive));
  const examiner = search.examiner?.trim();
  let estimated: number | undefined;
  if (examiner) {
    const digits = examiner.replace(/\D/g, '');
    const byName = like(searchable(checkInViewers.name), containing(examiner));
    const matches = digits.length === 11 ? or(byName, eq(checkInViewers.cpf, digits)) : byName;
    const others = conditions.slice(1);
    // A text's plan depends on how many examiners it matches: planned with it on every call.
    conditions.push(plannedPerCall());
    // The examiners of a record are of its unit: the unit leads both indexes of the match.
    const examinersFound = sql`select ${checkInViewers.checkInId} from ${checkInViewers}
      where ${checkInViewers.federativeUnit} = ${unit} and ${matches}`;
    // One examiner's records are few (one a working day): they are found first, then
    // ordered. A text that many examiners share is read along the list's order (its
    // first records come soon), and its total is the planner's estimate.
    if ((await estimatedRows(db, examinersFound)) <= SEARCH_COUNT_LIMIT) {
      conditions.push(sql`${checkIns.id} = any(array(${examinersFound}))`);
    } else {
      conditions.push(
        sql`exists (${examinersFound} and ${checkInViewers.checkInId} = ${checkIns.id})`,
      );
      estimated = await estimatedRecords(db, unit, examinersFound, others);
    }
  }
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    selectWithNames(db)
      .where(where)
      .orderBy(desc(checkIns.openedAt), desc(checkIns.id))
      .limit(search.pageSize)
      .offset((search.page - 1) * search.pageSize),
    estimated !== undefined
      ? [{ total: estimated }]
      : db.select({ total: count() }).from(
          db
            .select({ one: sql`1`.as('one') })
            .from(checkIns)
            .where(where)
            .limit(TOTAL_COUNT_CAP + 1)
            .as('found'),
        ),
  ]);
  const ids = rows.map((row) => row.record.id);
  const examiners =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(checkInViewers)
          .where(sql`${checkInViewers.checkInId} in ${ids}`)
          .orderBy(asc(checkInViewers.checkInDate), asc(checkInViewers.seq));
  return {
    items: rows.map((row) => ({
      ...withNames(row),
      examiners: examiners.filter((examiner) => examiner.checkInId === row.record.id),
    })),
    counted: totals[0]?.total ?? 0,
    ...(estimated !== undefined ? { estimated: true } : {}),
  };
}
