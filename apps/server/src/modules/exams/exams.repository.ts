/** SQL for exams; every query is scoped to one federative unit. */
import { and, asc, count, desc, eq, gte, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import { literal, placeholders, preparedQueries, type Bind, type Executor } from '../../db/client';
import { escapeLike } from '../../db/sql-text';
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
import type { ExamSort } from '@exame/shared';

const SORT_COLUMNS = {
  schedulingDate: exams.schedulingDate,
  candidateName: exams.candidateName,
  status: exams.status,
  schedulingLocal: exams.schedulingLocal,
} as const;

export function examListConditions(
  unit: string,
  filter: ExamListFilter,
  bind: Bind = literal,
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
    // Prefix match on the lower-cased name uses the text_pattern_ops index.
    conditions.push(like(sql`lower(${exams.candidateName})`, bind('name', search.value)));
  }
  return and(...conditions);
}

/** A whole CPF is looked up exactly; any other text is a prefix of the name. */
function listSearch(text: string | undefined): { kind: 'cpf' | 'name'; value: string } | undefined {
  const search = text?.trim();
  if (!search) return undefined;
  const digits = search.replace(/\D/g, '');
  if (digits.length === 11 && /^[\d.\-\s]+$/.test(search)) return { kind: 'cpf', value: digits };
  return { kind: 'name', value: `${escapeLike(search.toLowerCase())}%` };
}

type ExamListPage = { page: number; pageSize: number; sort: ExamSort; order: 'asc' | 'desc' };

/** What decides the text of the list's query (not the values). */
function examListShape(filter: ExamListFilter, page: ExamListPage): string {
  return [
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

function buildExamListQuery(db: Executor, where: SQL | undefined, page: ExamListPage) {
  const column = SORT_COLUMNS[page.sort];
  const direction = page.order === 'asc' ? asc : desc;
  return db
    .select({
      exam: exams,
      schedulingLocalName: schedulingLocals.description,
      total: sql<number>`(select count(*) from ${exams} where ${where})`.mapWith(Number),
    })
    .from(exams)
    .leftJoin(
      schedulingLocals,
      and(
        eq(schedulingLocals.federativeUnit, exams.federativeUnit),
        sql`${schedulingLocals.identifier} = split_part(${exams.schedulingLocal}, '-', 1)`,
      ),
    )
    .where(where)
    .orderBy(direction(column), direction(exams.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('');
}

const examListQueries = preparedQueries<ReturnType<typeof buildExamListQuery>>();

/**
 * One page of the exam list with the total. One statement: the total is an
 * uncorrelated scalar subquery (computed once, not per row) next to the
 * page's columns, instead of a second round trip; a page past the end has no
 * row to carry it, so only then is the total counted apart. The query is
 * prepared once per filter shape (see `preparedQueries` in db/client.ts).
 */
export async function listExams(
  db: Executor,
  unit: string,
  filter: ExamListFilter,
  page: ExamListPage,
): Promise<{ items: Array<ExamRow & { schedulingLocalName: string | null }>; total: number }> {
  const { bind, values } = placeholders();
  const where = examListConditions(unit, filter, bind);
  const query = examListQueries(db, examListShape(filter, page), () =>
    buildExamListQuery(db, where, page),
  );
  const rows = await query.execute({
    ...values,
    limit: page.pageSize,
    offset: (page.page - 1) * page.pageSize,
  });
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page.page > 1) {
    const [counted] = await db
      .select({ total: count() })
      .from(exams)
      .where(examListConditions(unit, filter));
    total = counted?.total ?? 0;
  }
  return {
    items: rows.map((row) => ({ ...row.exam, schedulingLocalName: row.schedulingLocalName })),
    total,
  };
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
