/** The SQL of the audit queue and of the auditors' claims on its exams. */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditClaims, exams, users } from '../../db/schema/index';

export type ExamRow = typeof exams.$inferSelect;
export type ClaimRow = typeof auditClaims.$inferSelect;
export type ClaimWithAuditor = ClaimRow & { auditorName: string; auditorCpf: string };

/** Done and waiting for an auditor (spec 4: `in_analysis`). */
const pending = and(eq(exams.status, 'done'), eq(exams.result, 'in_analysis'));

/** A live claim (not ended, not past its time) on the exam row of the outer query. */
const liveClaimOf = (now: Date) =>
  sql`exists (select 1 from ${auditClaims} c where c.exam_id = ${exams.id}
      and c.ended_at is null and c.expires_at > ${now.toISOString()}::timestamptz)`;

export type QueueFilter = {
  page: number;
  pageSize: number;
  schedulingLocal?: string;
  start?: Date;
  endExclusive?: Date;
  withOccurrences?: boolean;
  onlyFree?: boolean;
  now: Date;
};

/** The unit's exams waiting for audit, oldest exam first, with their counts. */
export async function listQueue(
  db: Executor,
  unit: string,
  filter: QueueFilter,
): Promise<{
  items: Array<ExamRow & { occurrenceCount: number; photoCount: number }>;
  total: number;
}> {
  const conditions: Array<SQL | undefined> = [eq(exams.federativeUnit, unit), pending];
  if (filter.schedulingLocal) {
    conditions.push(
      or(
        eq(exams.schedulingLocal, filter.schedulingLocal),
        sql`split_part(${exams.schedulingLocal}, '-', 1) = ${filter.schedulingLocal}`,
      ),
    );
  }
  if (filter.start) conditions.push(gte(exams.schedulingDate, filter.start));
  if (filter.endExclusive) conditions.push(lt(exams.schedulingDate, filter.endExclusive));
  if (filter.withOccurrences) {
    conditions.push(sql`exists (select 1 from occurrences o where o.exam_id = ${exams.id})`);
  }
  if (filter.onlyFree) conditions.push(sql`not ${liveClaimOf(filter.now)}`);
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    db
      .select({
        exam: exams,
        occurrenceCount: sql<number>`(select count(*)::int from occurrences o where o.exam_id = "exams"."id")`,
        photoCount: sql<number>`(select count(*)::int from exam_photos p where p.exam_id = "exams"."id")`,
      })
      .from(exams)
      .where(where)
      // Oldest exam first: the candidate who has waited longest for the result.
      .orderBy(asc(exams.schedulingDate), asc(exams.schedulingId))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ total: count() }).from(exams).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      ...row.exam,
      occurrenceCount: row.occurrenceCount,
      photoCount: row.photoCount,
    })),
    total: totals[0]?.total ?? 0,
  };
}

const selectClaims = (db: Executor) =>
  db
    .select({ claim: auditClaims, auditorName: users.name, auditorCpf: users.cpf })
    .from(auditClaims)
    .innerJoin(users, eq(users.id, auditClaims.auditorId));

type ClaimJoin = Awaited<ReturnType<ReturnType<typeof selectClaims>['execute']>>[number];
const withAuditor = (row: ClaimJoin): ClaimWithAuditor => ({
  ...row.claim,
  auditorName: row.auditorName,
  auditorCpf: row.auditorCpf,
});

/** The live claims (not ended, not expired) on some exams. */
export async function findLiveClaims(
  db: Executor,
  examIds: string[],
  now: Date,
): Promise<ClaimWithAuditor[]> {
  if (examIds.length === 0) return [];
  const rows = await selectClaims(db).where(
    and(
      sql`${auditClaims.examId} in ${examIds}`,
      isNull(auditClaims.endedAt),
      gt(auditClaims.expiresAt, now),
    ),
  );
  return rows.map(withAuditor);
}

/** Every claim an exam had, oldest first (who worked on it). */
export async function listClaimsOfExam(db: Executor, examId: string): Promise<ClaimWithAuditor[]> {
  const rows = await selectClaims(db)
    .where(eq(auditClaims.examId, examId))
    .orderBy(asc(auditClaims.claimedAt));
  return rows.map(withAuditor);
}

/** The caller's live claims in the unit, newest first (my audit). */
export async function listLiveClaimsOf(
  db: Executor,
  unit: string,
  auditorId: string,
  now: Date,
): Promise<Array<ClaimWithAuditor & { exam: ExamRow }>> {
  const rows = await db
    .select({ claim: auditClaims, auditorName: users.name, auditorCpf: users.cpf, exam: exams })
    .from(auditClaims)
    .innerJoin(users, eq(users.id, auditClaims.auditorId))
    .innerJoin(exams, eq(exams.id, auditClaims.examId))
    .where(
      and(
        eq(auditClaims.federativeUnit, unit),
        eq(auditClaims.auditorId, auditorId),
        isNull(auditClaims.endedAt),
        gt(auditClaims.expiresAt, now),
      ),
    )
    .orderBy(desc(auditClaims.claimedAt));
  return rows.map((row) => ({ ...withAuditor(row), exam: row.exam }));
}

/** An exam of the unit, locked until the transaction ends: claims on it go one at a time. */
export async function lockExam(
  tx: Executor,
  unit: string,
  examId: string,
): Promise<ExamRow | undefined> {
  const [row] = await tx
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), eq(exams.id, examId)))
    .for('update');
  return row;
}

/** Ends the exam's unended claims that are past their time. */
export async function endExpiredClaims(tx: Executor, examId: string, now: Date): Promise<void> {
  await tx
    .update(auditClaims)
    .set({ endedAt: now, endReason: 'expired' })
    .where(
      and(
        eq(auditClaims.examId, examId),
        isNull(auditClaims.endedAt),
        lte(auditClaims.expiresAt, now),
      ),
    );
}

export async function insertClaim(
  tx: Executor,
  row: typeof auditClaims.$inferInsert,
): Promise<ClaimRow> {
  const [created] = await tx.insert(auditClaims).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/** Prolongs a live claim (the same auditor opens the exam again). */
export async function extendClaim(tx: Executor, id: string, expiresAt: Date): Promise<ClaimRow> {
  const [row] = await tx
    .update(auditClaims)
    .set({ expiresAt })
    .where(eq(auditClaims.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function endClaim(
  tx: Executor,
  id: string,
  end: { at: Date; reason: 'released' | 'decided' },
): Promise<void> {
  await tx
    .update(auditClaims)
    .set({ endedAt: end.at, endReason: end.reason })
    .where(eq(auditClaims.id, id));
}
