/** The SQL of face challenges: issued once, claimed once (the first take that presents one uses it). */
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FaceChallengePurpose, FaceMove } from '@exame/shared';
import type { Executor } from '../../db/client';
import { faceChallenges } from '../../db/schema/index';

export type ChallengeRow = typeof faceChallenges.$inferSelect;

export async function insertChallenge(
  db: Executor,
  row: {
    federativeUnit: string;
    requestedBy: string;
    cpf: string;
    purpose: FaceChallengePurpose;
    steps: FaceMove[];
    expiresAt: Date;
  },
): Promise<ChallengeRow> {
  const [created] = await db.insert(faceChallenges).values(row).returning();
  if (!created) throw new Error('insert returned no row');
  return created;
}

/**
 * Marks the challenge used, if it was issued to this user of this unit and
 * not used yet, in one statement: of two takes presenting it at once, one
 * gets the row and the other nothing. Null when it does not claim.
 */
export async function claimChallenge(
  db: Executor,
  claim: { id: string; federativeUnit: string; requestedBy: string; at: Date },
): Promise<ChallengeRow | null> {
  const [row] = await db
    .update(faceChallenges)
    .set({ usedAt: claim.at })
    .where(
      and(
        eq(faceChallenges.id, claim.id),
        eq(faceChallenges.federativeUnit, claim.federativeUnit),
        eq(faceChallenges.requestedBy, claim.requestedBy),
        isNull(faceChallenges.usedAt),
      ),
    )
    .returning();
  return row ?? null;
}

/** The challenge as this user of this unit may see it (to tell "used" from "unknown"). */
export async function findChallenge(
  db: Executor,
  id: string,
  federativeUnit: string,
  requestedBy: string,
): Promise<ChallengeRow | null> {
  const [row] = await db
    .select()
    .from(faceChallenges)
    .where(
      and(
        eq(faceChallenges.id, id),
        eq(faceChallenges.federativeUnit, federativeUnit),
        eq(faceChallenges.requestedBy, requestedBy),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Removes the challenges that expired before `before` (the retention sweep). */
export async function deleteExpiredChallenges(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(faceChallenges)
    .where(lt(faceChallenges.expiresAt, before))
    .returning({ id: faceChallenges.id });
  return rows.length;
}
