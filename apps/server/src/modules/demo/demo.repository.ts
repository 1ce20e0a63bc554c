/**
 * The SQL of the demonstration flows: the DEMO unit's candidates, whether
 * their face is enrolled, and the wipe (or retention purge) of what the
 * demonstrations left (candidates, their enrolments and verifications),
 * which spares the enrolments and verifications of the unit's users.
 */
import type { DemoVerification } from '@exame/shared';
import {
  and,
  desc,
  eq,
  getTableColumns,
  inArray,
  lt,
  notInArray,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import {
  activityLog,
  biometricTemplates,
  biometricVerifications,
  faceChallenges,
  demoCandidates,
  users,
} from '../../db/schema/index';

export type CandidateRow = typeof demoCandidates.$inferSelect;
/** A candidate and whether a face enrolment of the unit exists for their CPF. */
export type CandidateView = CandidateRow & { enrolled: boolean };

/**
 * Written with an alias and qualified names: inside a selected expression
 * the query builder prints a column without its table, which would compare
 * each column of the subquery with itself (true whenever any template exists).
 */
const enrolled = sql<boolean>`exists (
  select 1 from ${biometricTemplates} as enrolment
  where enrolment.federative_unit = ${demoCandidates}.federative_unit
    and enrolment.cpf = ${demoCandidates}.cpf
)`;

function selectViews(db: Executor, where: SQL | undefined) {
  return db
    .select({ ...getTableColumns(demoCandidates), enrolled })
    .from(demoCandidates)
    .where(where);
}

/** The unit's candidates, newest first. */
export async function listCandidates(db: Executor, unit: string): Promise<CandidateView[]> {
  return selectViews(db, eq(demoCandidates.federativeUnit, unit)).orderBy(
    desc(demoCandidates.createdAt),
    desc(demoCandidates.id),
  );
}

export async function findCandidate(
  db: Executor,
  unit: string,
  cpf: string,
): Promise<CandidateView | null> {
  const [row] = await selectViews(
    db,
    and(eq(demoCandidates.federativeUnit, unit), eq(demoCandidates.cpf, cpf)),
  ).limit(1);
  return row ?? null;
}

/** The candidate of `cpf`, locked until the transaction ends (a wipe waits for it, and it for a wipe). */
export async function lockCandidate(
  tx: Executor,
  unit: string,
  cpf: string,
): Promise<CandidateRow | null> {
  const [row] = await tx
    .select()
    .from(demoCandidates)
    .where(and(eq(demoCandidates.federativeUnit, unit), eq(demoCandidates.cpf, cpf)))
    .for('update');
  return row ?? null;
}

/**
 * Registers the candidate of (unit, CPF), or, when that CPF is already
 * registered, updates their name and birth date; `inserted` tells which.
 */
export async function upsertCandidate(
  tx: Executor,
  row: {
    federativeUnit: string;
    cpf: string;
    name: string;
    birthDate: string;
    createdBy: string;
  },
): Promise<{ row: CandidateRow; inserted: boolean }> {
  const [result] = await tx
    .insert(demoCandidates)
    .values(row)
    .onConflictDoUpdate({
      target: [demoCandidates.federativeUnit, demoCandidates.cpf],
      set: { name: row.name, birthDate: row.birthDate, updatedAt: new Date() },
    })
    // xmax is 0 on a row this statement inserted, the locking transaction's id on one it updated.
    .returning({ ...getTableColumns(demoCandidates), inserted: sql<boolean>`(xmax = 0)` });
  if (!result) throw new Error('upsert returned no row');
  const { inserted, ...candidate } = result;
  return { row: candidate, inserted: Boolean(inserted) };
}

export async function updateContact(
  tx: Executor,
  unit: string,
  cpf: string,
  contact: Pick<
    CandidateRow,
    'email' | 'phone' | 'consentAt' | 'consentVersion' | 'consentTextSha256'
  >,
): Promise<void> {
  await tx
    .update(demoCandidates)
    .set({ ...contact, updatedAt: new Date() })
    .where(and(eq(demoCandidates.federativeUnit, unit), eq(demoCandidates.cpf, cpf)));
}

export async function setLastVerification(
  db: Executor,
  unit: string,
  cpf: string,
  verification: DemoVerification,
): Promise<void> {
  await db
    .update(demoCandidates)
    .set({ lastVerification: verification, updatedAt: new Date() })
    .where(and(eq(demoCandidates.federativeUnit, unit), eq(demoCandidates.cpf, cpf)));
}

/** The CPFs of the unit's users: their enrolments and verifications are never demo data. */
function usersOfUnit(db: Executor, unit: string) {
  return db.select({ cpf: users.cpf }).from(users).where(eq(users.federativeUnit, unit));
}

/**
 * The rows of `table` (an enrolment, a verification, a challenge) of the
 * unit that name one of `cpfs` and no CPF of the unit's users.
 */
function demoRowsOf(
  db: Executor,
  table: { federativeUnit: AnyPgColumn; cpf: AnyPgColumn },
  unit: string,
  cpfs: readonly string[],
): SQL | undefined {
  return and(
    eq(table.federativeUnit, unit),
    inArray(table.cpf, cpfs),
    notInArray(table.cpf, usersOfUnit(db, unit)),
  );
}

export type DeletedDemoData = {
  candidates: number;
  enrolments: number;
  verifications: number;
  fileKeys: string[];
  /** The CPFs of the deleted candidates that are not users of the unit. */
  cpfs: string[];
};

/**
 * Deletes the candidates of the unit (every one, or those not changed since
 * `changedBefore`: the retention purge), their enrolments and their
 * verifications (not those of a CPF that is also a user of the unit).
 * Returns the counts and the keys of the stored files the deleted rows
 * named, to remove once the transaction commits.
 */
export async function deleteDemoData(
  tx: Executor,
  unit: string,
  options: { changedBefore?: Date } = {},
): Promise<DeletedDemoData> {
  const deleted = await tx
    .delete(demoCandidates)
    .where(
      and(
        eq(demoCandidates.federativeUnit, unit),
        options.changedBefore ? lt(demoCandidates.updatedAt, options.changedBefore) : undefined,
      ),
    )
    .returning({ cpf: demoCandidates.cpf });
  const cpfs = deleted.map((row) => row.cpf);
  if (cpfs.length === 0) {
    return { candidates: 0, enrolments: 0, verifications: 0, fileKeys: [], cpfs: [] };
  }
  const userCpfs = new Set(
    (
      await tx
        .select({ cpf: users.cpf })
        .from(users)
        .where(and(eq(users.federativeUnit, unit), inArray(users.cpf, cpfs)))
    ).map((row) => row.cpf),
  );
  const templates = await tx
    .delete(biometricTemplates)
    .where(demoRowsOf(tx, biometricTemplates, unit, cpfs))
    .returning({ imageKeys: biometricTemplates.imageKeys });
  const verifications = await tx
    .delete(biometricVerifications)
    .where(demoRowsOf(tx, biometricVerifications, unit, cpfs))
    .returning({ captureKey: biometricVerifications.captureKey });
  // The challenges of their captures name them too (face_challenges.cpf).
  await tx.delete(faceChallenges).where(demoRowsOf(tx, faceChallenges, unit, cpfs));
  return {
    candidates: cpfs.length,
    enrolments: templates.length,
    verifications: verifications.length,
    cpfs: cpfs.filter((cpf) => !userCpfs.has(cpf)),
    fileKeys: [
      ...templates.flatMap((row) => row.imageKeys),
      ...verifications.flatMap((row) => (row.captureKey ? [row.captureKey] : [])),
    ],
  };
}

/**
 * Activity events of the unit whose payload still names one of `cpfs` (the
 * enrolment of a demonstration candidate, a view of their face image).
 */
export async function findEventsNamingCpfs(
  db: Executor,
  unit: string,
  cpfs: readonly string[],
): Promise<Array<{ id: string; cpf: string }>> {
  if (cpfs.length === 0) return [];
  const cpf = sql<string>`${activityLog.payload} ->> 'cpf'`;
  return db
    .select({ id: activityLog.id, cpf })
    .from(activityLog)
    .where(and(eq(activityLog.federativeUnit, unit), inArray(cpf, [...cpfs])));
}
