/** The timeline of an exam as the audit page shows it: each change with who made it. */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { examStatusHistory, users } from '../../db/schema/index';

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
