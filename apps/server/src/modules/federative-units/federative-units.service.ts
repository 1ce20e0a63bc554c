import type { FederativeUnit } from '@exame/shared';
import type { Database } from '../../db/client';
import { findAllFederativeUnits } from './federative-units.repository';

export async function listFederativeUnits(
  db: Database,
  filter: { onlyActive: boolean },
): Promise<FederativeUnit[]> {
  const units = await findAllFederativeUnits(db);
  return filter.onlyActive ? units.filter((unit) => unit.isActive) : units;
}
