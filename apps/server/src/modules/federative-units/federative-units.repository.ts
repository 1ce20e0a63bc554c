import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { federativeUnits } from '../../db/schema/index';

export async function findAllFederativeUnits(db: Executor) {
  return db
    .select({
      name: federativeUnits.name,
      uf: federativeUnits.uf,
      isActive: federativeUnits.isActive,
      isProctoringEnable: federativeUnits.isProctoringEnable,
      theme: federativeUnits.theme,
    })
    .from(federativeUnits)
    .orderBy(asc(federativeUnits.name));
}

export async function findFederativeUnit(db: Executor, uf: string) {
  const [row] = await db.select().from(federativeUnits).where(eq(federativeUnits.uf, uf)).limit(1);
  return row;
}

/** The unit's own settings, locked until the end of the transaction (one change at a time). */
export async function lockUnitSettings(tx: Executor, uf: string) {
  const [row] = await tx
    .select({ faceAloneAllowed: federativeUnits.faceAloneAllowed })
    .from(federativeUnits)
    .where(eq(federativeUnits.uf, uf))
    .for('update');
  return row;
}

export async function updateUnitSettings(
  tx: Executor,
  uf: string,
  settings: { faceAloneAllowed: boolean },
): Promise<void> {
  await tx
    .update(federativeUnits)
    .set({ faceAloneAllowed: settings.faceAloneAllowed })
    .where(eq(federativeUnits.uf, uf));
}
