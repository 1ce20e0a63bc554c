/** The SQL that turns matches of faces into cases (fraud-detection.service.ts). */
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { fraudCaseExams, fraudCaseMatches, fraudCases } from '../../db/schema/index';

/** Serialises the case work of one unit (two readers finding the same pair at once, a close). */
export async function lockUnitCases(tx: Executor, unit: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`fraud-cases:${unit}`}))`);
}

/**
 * Serialises the face writes of one unit: each takes its `seq` and commits
 * before the next takes one, so an index catching up by `seq` never passes a
 * face still to be committed (unit-face-indexes.ts).
 */
export async function lockUnitFaces(tx: Executor, unit: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exam-faces:${unit}`}))`);
}

export type MatchPair = {
  examA: string;
  examB: string;
  similarity: number;
  captureA: string | null;
  captureB: string | null;
};

/** The pairs already in a case (a pair belongs to one case: a dismissed one is not found again). */
export async function knownPairs(tx: Executor, pairs: readonly MatchPair[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await tx
    .select({ examA: fraudCaseMatches.examA, examB: fraudCaseMatches.examB })
    .from(fraudCaseMatches)
    .where(
      or(
        ...pairs.map((pair) =>
          and(eq(fraudCaseMatches.examA, pair.examA), eq(fraudCaseMatches.examB, pair.examB)),
        ),
      ),
    );
  return new Set(rows.map((row) => `${row.examA}:${row.examB}`));
}

/** The oldest open case of the unit holding one of these exams. */
export async function openCaseWithAny(
  tx: Executor,
  unit: string,
  examIds: readonly string[],
): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: fraudCases.id })
    .from(fraudCases)
    .innerJoin(fraudCaseExams, eq(fraudCaseExams.caseId, fraudCases.id))
    .where(
      and(
        eq(fraudCases.federativeUnit, unit),
        eq(fraudCases.status, 'open'),
        inArray(fraudCaseExams.examId, [...examIds]),
      ),
    )
    .orderBy(asc(fraudCases.createdAt), asc(fraudCases.number))
    .limit(1);
  return row?.id;
}

/** A new case, numbered after the unit's last (under lockUnitCases). */
export async function insertCase(
  tx: Executor,
  unit: string,
  highestSimilarity: number,
): Promise<string> {
  const [row] = await tx
    .insert(fraudCases)
    .values({
      federativeUnit: unit,
      number: sql`(select coalesce(max(${fraudCases.number}), 0) + 1 from ${fraudCases} where ${fraudCases.federativeUnit} = ${unit})`,
      highestSimilarity,
    })
    .returning({ id: fraudCases.id });
  if (!row) throw new Error('caso não criado');
  return row.id;
}

/** Adds exams and matches to a case and raises its highest similarity. */
export async function addToCase(
  tx: Executor,
  caseId: string,
  examIds: readonly string[],
  pairs: readonly MatchPair[],
): Promise<void> {
  await tx
    .insert(fraudCaseExams)
    .values(examIds.map((examId) => ({ caseId, examId })))
    .onConflictDoNothing();
  await tx
    .insert(fraudCaseMatches)
    .values(pairs.map((pair) => ({ caseId, ...pair })))
    .onConflictDoNothing();
  const highest = Math.max(...pairs.map((pair) => pair.similarity));
  await tx
    .update(fraudCases)
    .set({
      highestSimilarity: sql`greatest(${fraudCases.highestSimilarity}, ${highest})`,
      updatedAt: sql`now()`,
    })
    .where(eq(fraudCases.id, caseId));
}
