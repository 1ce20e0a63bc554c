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
