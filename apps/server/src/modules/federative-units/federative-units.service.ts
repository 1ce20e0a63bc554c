/**
 * The federative units: the public list for the unit picker and the themes
 * (no actor), and a unit's own settings, which only its ADMIN reads and
 * changes (the unit is the session's, never the request's). A change and its
 * activity event share one transaction.
 */
import type { FederativeUnit, UnitSettings, UnitSettingsUpdate } from '@exame/shared';
import type { Database, Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { changeWithActivity } from '../activity/activity.service';
import {
  findAllFederativeUnits,
  findFederativeUnit,
  lockUnitSettings,
  updateUnitSettings,
} from './federative-units.repository';

export type FederativeUnitDeps = { db: Database };

const unitNotFound = () =>
  AppError.notFound('Unidade federativa não encontrada.', 'UNIT_NOT_FOUND');

export async function listFederativeUnits(
  deps: FederativeUnitDeps,
  filter: { onlyActive: boolean },
): Promise<FederativeUnit[]> {
  const units = await findAllFederativeUnits(deps.db);
  return filter.onlyActive ? units.filter((unit) => unit.isActive) : units;
}

/**
 * Whether the unit lets an examiner enter a room's custody by face alone,
 * without a factor of their own (off by default).
 */
export async function unitAllowsFaceAlone(db: Executor, uf: string): Promise<boolean> {
  return (await findFederativeUnit(db, uf))?.faceAloneAllowed ?? false;
}

/** `GET api/FederativeUnit/settings`: the ADMIN's own unit. */
export async function getUnitSettings(
  deps: FederativeUnitDeps,
  actor: SessionUser,
): Promise<UnitSettings> {
  const unit = await findFederativeUnit(deps.db, actor.federativeUnit);
  if (!unit) throw unitNotFound();
  return { federativeUnit: unit.uf, faceAloneAllowed: unit.faceAloneAllowed };
}

/**
 * `PUT api/FederativeUnit/settings`: changes the ADMIN's own unit; the
 * activity log says who changed what from what (`unit_settings_change`). A
 * value sent as it already is changes nothing and records nothing.
 */
export async function changeUnitSettings(
  deps: FederativeUnitDeps,
  actor: SessionUser,
  input: UnitSettingsUpdate,
): Promise<UnitSettings> {
  const current = await getUnitSettings(deps, actor);
  if (current.faceAloneAllowed === input.faceAloneAllowed) return current;
  return changeWithActivity(deps.db, actor, async (tx) => {
    const locked = await lockUnitSettings(tx, actor.federativeUnit);
    if (!locked) throw unitNotFound();
    await updateUnitSettings(tx, actor.federativeUnit, input);
    return {
      result: { federativeUnit: actor.federativeUnit, faceAloneAllowed: input.faceAloneAllowed },
      type: 'unit_settings_change',
      payload: {
        setting: 'faceAloneAllowed',
        from: locked.faceAloneAllowed,
        to: input.faceAloneAllowed,
      },
    };
  });
}

// The door of this module for the others (modules import each other only through services).
export { findFederativeUnit } from './federative-units.repository';
