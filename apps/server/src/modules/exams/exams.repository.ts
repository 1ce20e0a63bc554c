/** SQL for exams; every query is scoped to one federative unit. */
import { and, asc, count, desc, eq, gte, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import { literal, placeholders, preparedQueries, type Bind, type Executor } from '../../db/client';
import { estimatedRows } from '../../db/select-rows';
import {
  dayCountsCondition,
  dayCountsSum,
  totalFromDayCounts,
  type CounterFilter,
} from './exam-day-totals.repository';
import { escapeLike, searchForm } from '../../db/sql-text';
import {
  auditDecisions,
  examStatusHistory,
  exams,
  occurrences,
  schedulingLocals,
} from '../../db/schema/index';

export type ExamRow = typeof exams.$inferSelect;
export type NewExamRow = typeof exams.$inferInsert;

export type ExamListFilter = {
  /** First instant of the first day (inclusive). */
  start?: Date;
  /** First instant after the last day (exclusive). */
  endExclusive?: Date;
  schedulingLocals?: string[];
  statuses?: string[];
  results?: string[];
  search?: string;
};

export type { ExamSort } from '@exame/shared';
import {
  SEARCH_COUNT_LIMIT,
  TOTAL_COUNT_CAP,
  cappedTotal,
  roundedEstimate,
  type ExamSort,
} from '@exame/shared';

const SORT_COLUMNS = {
  schedulingDate: exams.schedulingDate,
  candidateName: exams.candidateName,
  status: exams.status,
  schedulingLocal: exams.schedulingLocal,
} as const;

/**
 * How a name search reads: `indexed`, where the trigram index may serve (a
 * rare name: a few matches found at once), or `scanned` along the list's
 * order, testing each entry (a common name: the page's twenty come first). A
 * prepared statement is planned for any pattern; the written form keeps each
 * one's plan right.
 */
type NameRead = 'indexed' | 'scanned';

function examListConditions(
  unit: string,
  filter: ExamListFilter,
  bind: Bind = literal,
  nameRead: NameRead = 'indexed',
): SQL | undefined {
  const conditions: Array<SQL | undefined> = [eq(exams.federativeUnit, bind('unit', unit))];
  if (filter.start) conditions.push(gte(exams.schedulingDate, bind('start', filter.start)));
  if (filter.endExclusive) {
    conditions.push(lt(exams.schedulingDate, bind('endExclusive', filter.endExclusive)));
  }
  if (filter.statuses?.length) {
    const statuses = filter.statuses as ExamRow['status'][];
    conditions.push(
      inArray(
        exams.status,
        statuses.map((status, index) => bind(`status${index}`, status)),
      ),
    );
  }
  if (filter.results?.length) {
    const results = filter.results as NonNullable<ExamRow['result']>[];
    conditions.push(
      inArray(
        exams.result,
        results.map((result, index) => bind(`result${index}`, result)),
      ),
    );
  }
  if (filter.schedulingLocals?.length) {
    // A local's exams carry a room suffix after a dash: DEMO.POSTO01-S2.
    conditions.push(
      sql`(${sql.join(
        filter.schedulingLocals.map(
          (local, index) =>
            sql`(${exams.schedulingLocal} = ${bind(`local${index}`, local)} or ${exams.schedulingLocal} like ${bind(`localRoom${index}`, `${escapeLike(local)}-%`)})`,
        ),
        sql` or `,
      )})`,
    );
  }
  const search = listSearch(filter.search);
  if (search?.kind === 'cpf') conditions.push(eq(exams.candidateCpf, bind('cpf', search.value)));
  if (search?.kind === 'name') {
    // A word prefix of the name: through the trigram index of search_name, or
    // tested on each row of the list's order (an expression no index has).
    const column = nameRead === 'indexed' ? exams.searchName : sql`(${exams.searchName} || '')`;
    conditions.push(like(column, bind('name', search.value)));
  }
  return and(...conditions);
}

/**
 * A whole CPF is looked up exactly; any other text is the start of a word of
 * the name (or of several words in a row), whatever the case and accents:
 * "ana" finds "Ana Lima" and "Maria Ana", "joao s" finds "João Silva".
 */
function listSearch(text: string | undefined): { kind: 'cpf' | 'name'; value: string } | undefined {
  const search = text?.trim();
  if (!search) return undefined;
  const digits = search.replace(/\D/g, '');
  if (digits.length === 11 && /^[\d.\-\s]+$/.test(search)) return { kind: 'cpf', value: digits };
  const words = searchForm(search).split(/\s+/).filter(Boolean).join(' ');
  return { kind: 'name', value: `% ${escapeLike(words)}%` };
}

type ExamListPage = { page: number; pageSize: number; sort: ExamSort; order: 'asc' | 'desc' };

/** What decides the text of the list's query (not the values). */
function examListShape(
  filter: ExamListFilter,
  page: ExamListPage,
  nameRead: NameRead,
  total: ListTotalKind,
): string {
  return [
    nameRead,
    total,
    filter.start ? 's' : '',
    filter.endExclusive ? 'e' : '',
    filter.statuses?.length ?? 0,
    filter.results?.length ?? 0,
    filter.schedulingLocals?.length ?? 0,
    listSearch(filter.search)?.kind ?? '',
    page.sort,
    page.order,
  ].join('|');
}

function buildExamListQuery(
  db: Executor,
  where: SQL | undefined,
  page: ExamListPage,
  total: SQL<number> | null,
  nameSearch: boolean,
) {
  const direction = page.order === 'asc' ? asc : desc;
  const columns = {
    exam: exams,
    schedulingLocalName: schedulingLocals.description,
    total: (total ?? sql<number>`null`).mapWith(Number),
  };
  const postJoin = and(
    eq(schedulingLocals.federativeUnit, exams.federativeUnit),
    sql`${schedulingLocals.identifier} = split_part(${exams.schedulingLocal}, '-', 1)`,
  );
  if (page.sort === 'candidateName' || (page.sort === 'schedulingDate' && nameSearch)) {
    // The page's ids from an index alone, then only the page's rows: the name index
    // carries the date (0034), the date index the searched name (0036).
    const column = SORT_COLUMNS[page.sort];
    const ids = db
      .select({ id: exams.id, key: column })
      .from(exams)
      .where(where)
      .orderBy(direction(column), direction(exams.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('page_ids');
    return db
      .select(columns)
      .from(ids)
      .innerJoin(exams, eq(exams.id, ids.id))
      .leftJoin(schedulingLocals, postJoin)
      .orderBy(direction(ids.key), direction(ids.id))
      .prepare('');
  }
  return db
    .select(columns)
    .from(exams)
    .leftJoin(schedulingLocals, postJoin)
    .where(where)
    .orderBy(direction(SORT_COLUMNS[page.sort]), direction(exams.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('');
}

const examListQueries = preparedQueries<ReturnType<typeof buildExamListQuery>>();

/**
 * How the list's total is got: `counters`, the exact sum of the day counters
 * (exam-day-totals.repository.ts); `capped`, the exams counted up to the cap
 * (past it the list says "more than", cappedTotal); `estimated`, none in the
 * statement (a common name: the planner's estimate).
 */
type ListTotalKind = 'counters' | 'capped' | 'estimated';

/** The list's filter as the day counters hold it (the name search aside). */
function counterFilterOf(filter: ExamListFilter): CounterFilter {
  return {
    start: filter.start,
    endExclusive: filter.endExclusive,
    statuses: filter.statuses,
    results: filter.results,
    posts: filter.schedulingLocals && { identifiers: filter.schedulingLocals, rule: 'room-suffix' },
  };
}

type ListTotal = { total: number; totalCapped?: boolean; totalEstimated?: boolean };

/** The rows `where` selects, counted up to the cap. */
async function countCapped(db: Executor, where: SQL | undefined): Promise<ListTotal> {
  const capped = db
    .select({ one: sql`1` })
    .from(exams)
    .where(where)
    .limit(TOTAL_COUNT_CAP + 1);
  const [counted] = await db.select({ total: count() }).from(capped.as('capped'));
  return cappedTotal(counted?.total ?? 0);
}

/**
 * One page of the exam list with its total, in one statement: the total is
 * an uncorrelated scalar subquery (computed once, not per row) next to the
 * page's columns, instead of a second round trip; a page past the end has no
 * row to carry it, so only then is the total got apart.
 * - Without a search every filter is a column of the day counters, so the
 *   total is their exact sum, whatever the number of exams; only a period
 *   given with another offset than São Paulo's is counted instead.
 * - A CPF, or a name the planner expects few of, is counted up to the cap
 *   (in the trigram or the date index); a common name is read along the
 *   list's order and its total is the planner's estimate (`totalEstimated`).
 * Prepared once per filter shape (`preparedQueries` in db/client.ts).
 */
export async function listExams(
  db: Executor,
  unit: string,
  filter: ExamListFilter,
  page: ExamListPage,
): Promise<{ items: Array<ExamRow & { schedulingLocalName: string | null }> } & ListTotal> {
  const search = listSearch(filter.search);
  // A name search asks the planner first how many exams it matches.
  const expected =
    search?.kind === 'name'
      ? await estimatedRows(
          db,
          sql`select 1 from ${exams} where ${examListConditions(unit, filter)}`,
        )
      : 0;
  const nameRead: NameRead = expected > SEARCH_COUNT_LIMIT ? 'scanned' : 'indexed';
  const { bind, values } = placeholders();
  const where = examListConditions(unit, filter, bind, nameRead);
  const counters = search ? null : dayCountsCondition(unit, counterFilterOf(filter), bind);
  const kind: ListTotalKind = counters
    ? 'counters'
    : nameRead === 'scanned'
      ? 'estimated'
      : 'capped';
  const query = examListQueries(db, examListShape(filter, page, nameRead, kind), () =>
    buildExamListQuery(
      db,
      where,
      page,
      counters
        ? dayCountsSum(counters)
        : kind === 'capped'
          ? sql<number>`(select count(*) from (select 1 from ${exams} where ${where}
              limit ${TOTAL_COUNT_CAP + 1}) capped)`
          : null,
      search?.kind === 'name',
    ),
  );
  const rows = await query.execute({
    ...values,
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  const items = rows.map((row) => ({ ...row.exam, schedulingLocalName: row.schedulingLocalName }));
  if (page.page === 1 && rows.length < page.pageSize) return { items, total: rows.length };
  if (kind === 'counters') {
    const total =
      rows.length > 0
        ? rows[0]?.total
        : await totalFromDayCounts(db, unit, counterFilterOf(filter));
    return { items, total: Number(total ?? 0) };
  }
  // A common name is not counted (that would read every match): its total is the estimate.
  if (kind === 'estimated')
    return { items, total: roundedEstimate(expected), totalEstimated: true };
  if (rows.length === 0)
    return { items, ...(await countCapped(db, examListConditions(unit, filter))) };
  return { items, ...cappedTotal(rows[0]?.total ?? 0) };
}

export async function findExam(
  db: Executor,
  unit: string,
  schedulingId: string,
  forUpdate = false,
) {
  const query = db
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), eq(exams.schedulingId, schedulingId)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findExamsForUpdate(db: Executor, unit: string, schedulingIds: string[]) {
  if (schedulingIds.length === 0) return [];
  return db
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), inArray(exams.schedulingId, schedulingIds)))
    .for('update');
}

export async function insertExam(db: Executor, row: NewExamRow): Promise<ExamRow> {
  const [created] = await db.insert(exams).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateExam(
  db: Executor,
  id: string,
  patch: Partial<NewExamRow>,
): Promise<void> {
  await db
    .update(exams)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(exams.id, id));
}

export async function insertHistory(
  db: Executor,
  row: typeof examStatusHistory.$inferInsert,
): Promise<void> {
  await db.insert(examStatusHistory).values(row);
}

export async function historyOf(db: Executor, examId: string) {
  return db
    .select()
    .from(examStatusHistory)
    .where(eq(examStatusHistory.examId, examId))
    .orderBy(asc(examStatusHistory.at));
}

export async function occurrencesOf(db: Executor, examId: string) {
  return db
    .select()
    .from(occurrences)
    .where(eq(occurrences.examId, examId))
    .orderBy(asc(occurrences.occurredAt));
}

export async function localName(
  db: Executor,
  unit: string,
  schedulingLocal: string | null,
): Promise<string | null> {
  if (!schedulingLocal) return null;
  const identifier = schedulingLocal.split('-')[0] ?? schedulingLocal;
  const [row] = await db
    .select({ description: schedulingLocals.description })
    .from(schedulingLocals)
    .where(
      and(eq(schedulingLocals.federativeUnit, unit), eq(schedulingLocals.identifier, identifier)),
    )
    .limit(1);
  return row?.description ?? null;
}

/**
 * The exams, among `ids`, whose audit decision waits for a second auditor:
 * their result belongs to the audit until it is confirmed or rejected.
 */
export async function examsAwaitingAuditConfirmation(
  db: Executor,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ examId: auditDecisions.examId })
    .from(auditDecisions)
    .where(
      and(inArray(auditDecisions.examId, ids), eq(auditDecisions.state, 'awaiting_confirmation')),
    );
  return new Set(rows.map((row) => row.examId));
}
