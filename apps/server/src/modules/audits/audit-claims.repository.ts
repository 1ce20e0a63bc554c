/** The SQL of the auditors' claims on the queue's exams (`load_audit`), and of the exam they lock. */
import { and, asc, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditClaims, exams, users } from '../../db/schema/index';

export type ExamRow = typeof exams.$inferSelect;
export type ClaimRow = typeof auditClaims.$inferSelect;
export type ClaimWithAuditor = ClaimRow & { auditorName: string; auditorCpf: string };

/** Done and waiting for an auditor (spec 4: `in_analysis`). */
export const pending = and(eq(exams.status, 'done'), eq(exams.result, 'in_analysis'));

// The queue itself: audit-queue.repository.ts.

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

/** An exam of the unit (not locked). */
export async function findUnitExam(
  db: Executor,
  unit: string,
  examId: string,
): Promise<ExamRow | undefined> {
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.federativeUnit, unit), eq(exams.id, examId)))
    .limit(1);
  return row;
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
