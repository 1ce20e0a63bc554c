/**
 * Scheduling locals (service posts) of the signed-in user's unit.
 *
 * Tenancy: every read and write is scoped by the actor's `federativeUnit`; a
 * post of another unit is simply not found. A change and its activity event
 * share one transaction.
 */
import {
  LOCAL_ERRORS,
  localIdentifierProblem,
  pageReply,
  type CreateSchedulingLocalInput,
  type Page,
  type SchedulingLocal,
  type UpdateSchedulingLocalInput,
} from '@exame/shared';
import type { Database } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { changeWithActivity } from '../activity/activity.service';
import {
  findLocal,
  findLocalByIdentifier,
  insertLocal,
  listLocals,
  updateLocal,
  type SchedulingLocalRow,
} from './scheduling-locals.repository';

export type SchedulingLocalDeps = { db: Database };

const localError = (code: keyof typeof LOCAL_ERRORS, message?: string) =>
  AppError.from(LOCAL_ERRORS, code, message);

export function toSchedulingLocal(row: SchedulingLocalRow): SchedulingLocal {
  return {
    id: row.id,
    identifier: row.identifier,
    description: row.description,
    federativeUnit: row.federativeUnit,
    address: row.address,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The unit part of the identifier rule (a dash only where the unit's exams keep it). */
function checkIdentifier(actor: SessionUser, identifier: string | undefined): void {
  if (identifier === undefined) return;
  const problem = localIdentifierProblem(actor.federativeUnit, identifier);
  if (problem) throw localError('LOCAL_IDENTIFIER_INVALID', problem);
}

export async function searchLocals(
  deps: SchedulingLocalDeps,
  actor: SessionUser,
  query: { page: number; pageSize: number; search?: string; onlyActive?: boolean },
): Promise<Page<SchedulingLocal>> {
  const found = await listLocals(deps.db, actor.federativeUnit, query);
  return pageReply(query, { items: found.items.map(toSchedulingLocal), total: found.total });
}

/** `GET api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/{unit}`: the active locals of the caller's own unit. */
export async function localsOfUnit(
  deps: SchedulingLocalDeps,
  actor: SessionUser,
  unit: string,
): Promise<SchedulingLocal[]> {
  if (unit.toUpperCase() !== actor.federativeUnit) throw localError('LOCAL_OTHER_UNIT');
  const { items } = await listLocals(deps.db, actor.federativeUnit, {
    page: 1,
    pageSize: 5000,
    onlyActive: true,
  });
  return items.map(toSchedulingLocal);
}

export async function createLocal(
  deps: SchedulingLocalDeps,
  actor: SessionUser,
  input: CreateSchedulingLocalInput,
): Promise<SchedulingLocal> {
  checkIdentifier(actor, input.identifier);
  if (await findLocalByIdentifier(deps.db, actor.federativeUnit, input.identifier))
    throw localError('LOCAL_IDENTIFIER_TAKEN');
  try {
    return await changeWithActivity(deps.db, actor, async (tx) => {
      const row = await insertLocal(tx, {
        federativeUnit: actor.federativeUnit,
        identifier: input.identifier,
        description: input.description,
        address: input.address ?? null,
      });
      return {
        result: toSchedulingLocal(row),
        type: 'local_add',
        payload: { localId: row.id, identifier: row.identifier },
      };
    });
  } catch (error) {
    if (uniqueViolation(error)) throw localError('LOCAL_IDENTIFIER_TAKEN');
    throw error;
  }
}

export async function editLocal(
  deps: SchedulingLocalDeps,
  actor: SessionUser,
  id: string,
  input: UpdateSchedulingLocalInput,
): Promise<SchedulingLocal> {
  checkIdentifier(actor, input.identifier);
  try {
    return await changeWithActivity(deps.db, actor, async (tx) => {
      const current = await findLocal(tx, actor.federativeUnit, id);
      if (!current) throw localError('LOCAL_NOT_FOUND');
      const row = await updateLocal(tx, actor.federativeUnit, id, input);
      if (!row) throw localError('LOCAL_NOT_FOUND');
      return {
        result: toSchedulingLocal(row),
        type: input.isActive === false && current.isActive ? 'local_deactivate' : 'local_update',
        payload: { localId: id, changes: Object.keys(input) },
      };
    });
  } catch (error) {
    if (uniqueViolation(error)) throw localError('LOCAL_IDENTIFIER_TAKEN');
    throw error;
  }
}

// The door of this module for the others (modules import each other only through services).
export { findLocalByIdentifier } from './scheduling-locals.repository';
