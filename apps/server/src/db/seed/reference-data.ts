/**
 * Reference data every database needs (the federative units of spec 9). Runs
 * at each start after the migrations; rows that already exist are left as they
 * are, so an operator's later change is not undone.
 *
 * Seed scripts generate data and write their SQL here directly: they are the
 * one exception, with db/, to the rule that SQL lives in *.repository.ts files
 * (checked by .dependency-cruiser.cjs, sql-only-in-repositories).
 */
import { FEDERATIVE_UNITS } from '@exame/shared';
import type { Database } from '../client';
import { federativeUnits } from '../schema/index';

export async function ensureReferenceData(db: Database): Promise<void> {
  await db
    .insert(federativeUnits)
    .values(FEDERATIVE_UNITS.map((unit) => ({ ...unit })))
    .onConflictDoNothing({ target: federativeUnits.uf });
}
