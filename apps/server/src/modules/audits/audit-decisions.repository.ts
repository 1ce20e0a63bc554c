/** The SQL of the auditors' decisions (`send_result`): made, awaiting confirmation, effective, reopened. */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { auditDecisions, disqualificationReasons, exams, users } from '../../db/schema/index';
import type { ExamRow } from './audit-claims.repository';

export type DecisionRow = typeof auditDecisions.$inferSelect;
export type DecisionView = DecisionRow & {
  auditorName: string;
  confirmerName: string | null;
  reopenerName: string | null;
  reasonCode: string | null;
  reasonText: string | null;
};

const confirmer = alias(users, 'confirmer');
const reopener = alias(users, 'reopener');

const selectDecisions = (db: Executor) =>
  db
    .select({
      decision: auditDecisions,
      auditorName: users.name,
      confirmerName: confirmer.name,
      reopenerName: reopener.name,
      reasonCode: disqualificationReasons.code,
      reasonText: disqualificationReasons.text,
    })
    .from(auditDecisions)
    .innerJoin(users, eq(users.id, auditDecisions.auditorId))
    .leftJoin(confirmer, eq(confirmer.id, auditDecisions.confirmedBy))
    .leftJoin(reopener, eq(reopener.id, auditDecisions.reopenedBy))
    .leftJoin(disqualificationReasons, eq(disqualificationReasons.id, auditDecisions.reasonId));

type DecisionJoin = Awaited<ReturnType<ReturnType<typeof selectDecisions>['execute']>>[number];
const decisionView = (row: DecisionJoin): DecisionView => ({
  ...row.decision,
  auditorName: row.auditorName,
  confirmerName: row.confirmerName,
  reopenerName: row.reopenerName,
  reasonCode: row.reasonCode,
  reasonText: row.reasonText,
});

/** The decisions awaiting a second auditor on some exams, with who made them. */
export async function findAwaitingDecisions(
  db: Executor,
  examIds: string[],
): Promise<DecisionView[]> {
  if (examIds.length === 0) return [];
  const rows = await selectDecisions(db).where(
    and(inArray(auditDecisions.examId, examIds), eq(auditDecisions.state, 'awaiting_confirmation')),
  );
  return rows.map(decisionView);
}

/** Every decision on an exam, oldest first. */
export async function listDecisionsOf(db: Executor, examId: string): Promise<DecisionView[]> {
  const rows = await selectDecisions(db)
    .where(eq(auditDecisions.examId, examId))
    .orderBy(asc(auditDecisions.decidedAt));
  return rows.map(decisionView);
}

const openStates = inArray(auditDecisions.state, ['awaiting_confirmation', 'effective']);

/** The exam's open decision (awaiting confirmation or in effect), if any. */
export async function findOpenDecision(
  db: Executor,
  examId: string,
): Promise<DecisionRow | undefined> {
  const [row] = await db
    .select()
    .from(auditDecisions)
    .where(and(eq(auditDecisions.examId, examId), openStates))
    .limit(1);
  return row;
}

export async function insertDecision(
  tx: Executor,
  row: typeof auditDecisions.$inferInsert,
): Promise<DecisionRow> {
  const [created] = await tx.insert(auditDecisions).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

export async function updateDecision(
  tx: Executor,
  id: string,
  patch: Partial<typeof auditDecisions.$inferInsert>,
): Promise<DecisionRow> {
  const [row] = await tx
    .update(auditDecisions)
    .set(patch)
    .where(eq(auditDecisions.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

/** The auditor's decisions in the unit, newest first, with their exams. */
export async function listDecisionsBy(
  db: Executor,
  unit: string,
  auditorId: string,
  limit: number,
): Promise<Array<DecisionRow & { exam: ExamRow }>> {
  const rows = await db
    .select({ decision: auditDecisions, exam: exams })
    .from(auditDecisions)
    .innerJoin(exams, eq(exams.id, auditDecisions.examId))
    .where(and(eq(auditDecisions.federativeUnit, unit), eq(auditDecisions.auditorId, auditorId)))
    .orderBy(desc(auditDecisions.decidedAt))
    .limit(limit);
  return rows.map((row) => ({ ...row.decision, exam: row.exam }));
}
