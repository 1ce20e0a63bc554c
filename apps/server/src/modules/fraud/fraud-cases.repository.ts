/** The SQL of the cases screen: the unit's cases, one case with its exams and matches. */
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gte,
  inArray,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { escapeLike } from '../../db/sql-text';
import {
  examPhotos,
  exams,
  fraudCaseExams,
  fraudCaseMatches,
  fraudCases,
  schedulingLocals,
  users,
} from '../../db/schema/index';

export type FraudCaseRow = typeof fraudCases.$inferSelect;
export type ExamRow = typeof exams.$inferSelect;

export type CaseFilter = {
  status?: FraudCaseRow['status'];
  /** A post's identifier: its exams' locals are it, or it with a room (`POST-ROOM`). */
  post?: string;
  start?: Date;
  endExclusive?: Date;
};

const atPost = (post: string) =>
  or(
    eq(exams.schedulingLocal, post),
    sql`${exams.schedulingLocal} like ${`${escapeLike(post)}-%`}`,
  );

function caseWhere(unit: string, filter: CaseFilter): SQL | undefined {
  const examConditions = [
    filter.post ? atPost(filter.post) : undefined,
    filter.start ? gte(exams.schedulingDate, filter.start) : undefined,
    filter.endExclusive ? lt(exams.schedulingDate, filter.endExclusive) : undefined,
  ].filter(Boolean);
  return and(
    eq(fraudCases.federativeUnit, unit),
    filter.status ? eq(fraudCases.status, filter.status) : undefined,
    examConditions.length > 0
      ? exists(
          sql`(select 1 from ${fraudCaseExams} inner join ${exams} on ${exams.id} = ${fraudCaseExams.examId}
            where ${fraudCaseExams.caseId} = ${fraudCases.id} and ${and(...examConditions)})`,
        )
      : undefined,
  );
}

/** One page of the unit's cases, newest first, and how many there are. */
export async function listCases(
  db: Executor,
  unit: string,
  filter: CaseFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: FraudCaseRow[]; total: number }> {
  const where = caseWhere(unit, filter);
  const rows = await db
    .select()
    .from(fraudCases)
    .where(where)
    .orderBy(desc(fraudCases.createdAt), desc(fraudCases.number))
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await db.select({ total: count() }).from(fraudCases).where(where);
  return { rows, total: Number(counted?.total ?? 0) };
}

export type CaseAggregate = {
  caseId: string;
  examCount: number;
  candidateCount: number;
  firstDate: Date;
  lastDate: Date;
  posts: string[];
};

/** The post's name where it is registered (`POST` or `POST-ROOM` -> the post `POST`). */
const postOfExam = and(
  eq(schedulingLocals.federativeUnit, exams.federativeUnit),
  sql`${schedulingLocals.identifier} = split_part(${exams.schedulingLocal}, '-', 1)`,
);

/** Per case: its exams, candidates, first and last days, and posts. */
export async function caseAggregates(
  db: Executor,
  caseIds: readonly string[],
): Promise<Map<string, CaseAggregate>> {
  if (caseIds.length === 0) return new Map();
  const rows = await db
    .select({
      caseId: fraudCaseExams.caseId,
      examCount: sql<number>`count(*)::int`,
      candidateCount: sql<number>`count(distinct ${exams.candidateCpf})::int`,
      firstDate: sql<Date>`min(${exams.schedulingDate})`.mapWith(exams.schedulingDate),
      lastDate: sql<Date>`max(${exams.schedulingDate})`.mapWith(exams.schedulingDate),
      posts: sql<
        string[]
      >`array_remove(array_agg(distinct coalesce(${schedulingLocals.description}, split_part(${exams.schedulingLocal}, '-', 1))), null)`,
    })
    .from(fraudCaseExams)
    .innerJoin(exams, eq(exams.id, fraudCaseExams.examId))
    .leftJoin(schedulingLocals, postOfExam)
    .where(inArray(fraudCaseExams.caseId, [...caseIds]))
    .groupBy(fraudCaseExams.caseId);
  return new Map(rows.map((row) => [row.caseId, row]));
}

/** A case of the unit, locked for a change when `forUpdate`. */
export async function findCase(
  db: Executor,
  unit: string,
  caseId: string,
  forUpdate = false,
): Promise<FraudCaseRow | undefined> {
  const query = db
    .select()
    .from(fraudCases)
    .where(and(eq(fraudCases.federativeUnit, unit), eq(fraudCases.id, caseId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function userNames(
  db: Executor,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export type CaseExamRow = ExamRow & { postName: string | null };

/** The exams of a case, oldest first, locked for a change when `forUpdate`. */
export async function caseExams(
  db: Executor,
  caseId: string,
  forUpdate = false,
): Promise<CaseExamRow[]> {
  const query = db
    .select({ exam: exams, postName: schedulingLocals.description })
    .from(fraudCaseExams)
    .innerJoin(exams, eq(exams.id, fraudCaseExams.examId))
    .leftJoin(schedulingLocals, postOfExam)
    .where(eq(fraudCaseExams.caseId, caseId))
    .orderBy(asc(exams.schedulingDate), asc(exams.id));
  const rows = forUpdate ? await query.for('update', { of: exams }) : await query;
  return rows.map((row) => ({ ...row.exam, postName: row.postName }));
}

export type CasePhoto = {
  id: string;
  examId: string;
  capturedAt: Date;
  width: number;
  height: number;
};

const photoFields = {
  id: examPhotos.id,
  examId: examPhotos.examId,
  capturedAt: examPhotos.capturedAt,
  width: examPhotos.width,
  height: examPhotos.height,
};

/** The reference photos of some exams. */
export function referencePhotos(db: Executor, examIds: readonly string[]): Promise<CasePhoto[]> {
  if (examIds.length === 0) return Promise.resolve([]);
  return db
    .select(photoFields)
    .from(examPhotos)
    .where(and(inArray(examPhotos.examId, [...examIds]), eq(examPhotos.kind, 'reference')));
}

/** Some photos by id (the captures a case's matches name). */
export function photosById(db: Executor, ids: readonly string[]): Promise<CasePhoto[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select(photoFields)
    .from(examPhotos)
    .where(inArray(examPhotos.id, [...ids]));
}

/** The matches of a case, most alike first. */
export function caseMatches(db: Executor, caseId: string) {
  return db
    .select()
    .from(fraudCaseMatches)
    .where(eq(fraudCaseMatches.caseId, caseId))
    .orderBy(desc(fraudCaseMatches.similarity));
}

export async function updateCase(
  db: Executor,
  caseId: string,
  patch: Partial<
    Pick<
      FraudCaseRow,
      'status' | 'closedAt' | 'closedBy' | 'note' | 'sentToAuditAt' | 'sentToAuditBy'
    >
  >,
): Promise<void> {
  await db
    .update(fraudCases)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(fraudCases.id, caseId));
}
