/** Scheduling locals (service posts) of the signed-in user's unit. */
import type { SchedulingLocal } from '@exame/shared';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { SessionUser } from '../../plugins/auth';
import { insertActivity } from '../activity/activity.repository';
import {
  findLocal,
  findLocalByIdentifier,
  insertLocal,
  listLocals,
  updateLocal,
  type SchedulingLocalRow,
} from './scheduling-locals.repository';

const localNotFound = () =>
  AppError.notFound('Posto de atendimento não encontrado.', 'LOCAL_NOT_FOUND');
const identifierTaken = () =>
  AppError.conflict(
    'LOCAL_IDENTIFIER_TAKEN',
    'Já existe um posto com este identificador na unidade.',
  );

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

function isUniqueViolation(error: unknown): boolean {
  const candidate = (error as { cause?: unknown })?.cause ?? error;
  return (candidate as { code?: string })?.code === '23505';
}

export type LocalInput = { identifier: string; description: string; address?: string | null };

export async function searchLocals(
  db: Database,
  actor: SessionUser,
  query: { page: number; pageSize: number; search?: string; onlyActive?: boolean },
) {
  const { items, total } = await listLocals(db, actor.federativeUnit, query);
  return { items: items.map(toSchedulingLocal), total, page: query.page, pageSize: query.pageSize };
}

/** `GET api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/{unit}`: the active locals of the caller's own unit. */
export async function localsOfUnit(
  db: Database,
  actor: SessionUser,
  unit: string,
): Promise<SchedulingLocal[]> {
  if (unit.toUpperCase() !== actor.federativeUnit) {
    throw AppError.forbidden('Você só pode consultar os postos da sua unidade.');
  }
  const { items } = await listLocals(db, actor.federativeUnit, {
    page: 1,
    pageSize: 5000,
    onlyActive: true,
  });
  return items.map(toSchedulingLocal);
}

export async function createLocal(
  db: Database,
  actor: SessionUser,
  input: LocalInput,
): Promise<SchedulingLocal> {
  if (await findLocalByIdentifier(db, actor.federativeUnit, input.identifier))
    throw identifierTaken();
  try {
    return await db.transaction(async (tx) => {
      const row = await insertLocal(tx, {
        federativeUnit: actor.federativeUnit,
        identifier: input.identifier,
        description: input.description,
        address: input.address ?? null,
      });
      await insertActivity(tx, {
        type: 'local_add',
        actorId: actor.id,
        federativeUnit: actor.federativeUnit,
        payload: { localId: row.id, identifier: row.identifier },
      });
      return toSchedulingLocal(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw identifierTaken();
    throw error;
  }
}

export async function editLocal(
  db: Database,
  actor: SessionUser,
  id: string,
  input: Partial<LocalInput> & { isActive?: boolean },
): Promise<SchedulingLocal> {
  try {
    return await db.transaction(async (tx) => {
      const current = await findLocal(tx, actor.federativeUnit, id);
      if (!current) throw localNotFound();
      const row = await updateLocal(tx, actor.federativeUnit, id, input);
      if (!row) throw localNotFound();
      await insertActivity(tx, {
        type: input.isActive === false && current.isActive ? 'local_deactivate' : 'local_update',
        actorId: actor.id,
        federativeUnit: actor.federativeUnit,
        payload: { localId: id, changes: Object.keys(input) },
      });
      return toSchedulingLocal(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw identifierTaken();
    throw error;
  }
}
