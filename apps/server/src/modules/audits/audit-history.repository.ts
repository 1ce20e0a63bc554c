/** The timeline of an exam as the audit page shows it: each change with who made it. */
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examStatusHistory, fraudCaseExams, fraudCases, users } from '../../db/schema/index';

/** The exam's status and result changes, oldest first, with the name of the person behind each. */
export async function auditHistoryOf(db: Executor, examId: string) {
  const rows = await db
    .select({ entry: examStatusHistory, actorName: users.name })
    .from(examStatusHistory)
    .leftJoin(users, eq(users.id, examStatusHistory.actorId))
    .where(eq(examStatusHistory.examId, examId))
    .orderBy(asc(examStatusHistory.at));
  return rows.map((row) => ({ ...row.entry, actorName: row.actorName }));
}

/** The cases of possible proxy test-takers this exam was sent to audit with (modules/fraud). */
export function fraudCasesSentWith(db: Executor, examId: string) {
  return db
    .select({ id: fraudCases.id, number: fraudCases.number, status: fraudCases.status })
    .from(fraudCases)
    .innerJoin(fraudCaseExams, eq(fraudCaseExams.caseId, fraudCases.id))
    .where(
      and(
        eq(fraudCaseExams.examId, examId),
        isNotNull(fraudCases.sentToAuditAt),
        // An exam that joined the case after it was sent was not sent with it.
        lte(fraudCaseExams.addedAt, fraudCases.sentToAuditAt),
      ),
    )
    .orderBy(asc(fraudCases.number));
}
