/** The federative units, for the unit picker and the themes (public: no actor). */
import type { FederativeUnit } from '@exame/shared';
import type { Database } from '../../db/client';
import { findAllFederativeUnits } from './federative-units.repository';

export type FederativeUnitDeps = { db: Database };

export async function listFederativeUnits(
  deps: FederativeUnitDeps,
  filter: { onlyActive: boolean },
): Promise<FederativeUnit[]> {
  const units = await findAllFederativeUnits(deps.db);
  return filter.onlyActive ? units.filter((unit) => unit.isActive) : units;
}
