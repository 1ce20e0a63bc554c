/**
 * Disqualification reasons (`justificativas`) of the signed-in user's unit:
 * ADMIN lists, creates, edits, deactivates and reactivates them; auditors
 * read them to decide. There is no deletion: a reason that was used keeps
 * being named by its decisions.
 *
 * Tenancy: every read and write is scoped by the actor's `federativeUnit`; a
 * reason of another unit is simply not found. A change and its activity
 * event share one transaction.
 */
import {
  DEFAULT_DISQUALIFICATION_REASONS,
  pageReply,
  REASON_ERRORS,
  type CreateDisqualificationReasonInput,
  type DisqualificationReason,
  type Page,
  type UpdateDisqualificationReasonInput,
} from '@exame/shared';
import type { Database, Executor } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { changeWithActivity } from '../activity/activity.service';
import {
  insertReasons,
  listReasons,
  lockReason,
  updateReason,
  type DisqualificationReasonRow,
} from './disqualification-reasons.repository';

export type DisqualificationReasonDeps = { db: Database };

const reasonError = (code: keyof typeof REASON_ERRORS) => AppError.from(REASON_ERRORS, code);

function toReason(row: DisqualificationReasonRow): DisqualificationReason {
  return {
    id: row.id,
    federativeUnit: row.federativeUnit,
    code: row.code,
    text: row.text,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The code is unique in the unit (the database says so; this names it in pt-BR). */
function codeTaken(error: unknown): never {
  if (uniqueViolation(error) === 'disqualification_reasons_unit_code_key') {
    throw reasonError('REASON_CODE_TAKEN');
  }
  throw error;
}

/** `GET api/DisqualificationReason`: the unit's reasons by code. */
export async function searchReasons(
  deps: DisqualificationReasonDeps,
  actor: SessionUser,
  query: { page: number; pageSize: number; search?: string; onlyActive?: boolean },
): Promise<Page<DisqualificationReason>> {
  const found = await listReasons(deps.db, actor.federativeUnit, query);
  return pageReply(query, { items: found.items.map(toReason), total: found.total });
}

/** `POST api/DisqualificationReason`: a new reason of the ADMIN's unit. */
export async function createReason(
  deps: DisqualificationReasonDeps,
  actor: SessionUser,
  input: CreateDisqualificationReasonInput,
): Promise<DisqualificationReason> {
  try {
    return await changeWithActivity(deps.db, actor, async (tx) => {
      const [row] = await insertReasons(tx, [
        { federativeUnit: actor.federativeUnit, code: input.code, text: input.text },
      ]);
      return {
        result: toReason(row!),
        type: 'reason_add',
        payload: { reasonId: row!.id, code: row!.code },
      };
    });
  } catch (error) {
    return codeTaken(error);
  }
}

/** `PUT api/DisqualificationReason/{id}`: code, text, or deactivation (and back). */
export async function editReason(
  deps: DisqualificationReasonDeps,
  actor: SessionUser,
  id: string,
  input: UpdateDisqualificationReasonInput,
): Promise<DisqualificationReason> {
  try {
    return await changeWithActivity(deps.db, actor, async (tx) => {
      const current = await lockReason(tx, actor.federativeUnit, id);
      if (!current) throw reasonError('REASON_NOT_FOUND');
      const row = await updateReason(tx, actor.federativeUnit, id, input);
      if (!row) throw reasonError('REASON_NOT_FOUND');
      const deactivated = input.isActive === false && current.isActive;
      return {
        result: toReason(row),
        type: deactivated ? 'reason_deactivate' : 'reason_update',
        payload: {
          reasonId: id,
          changes: Object.keys(input),
          // What the reason said before: the log explains every later decision.
          before: { code: current.code, text: current.text, isActive: current.isActive },
        },
      };
    });
  } catch (error) {
    return codeTaken(error);
  }
}

/** The default reasons of a unit that has none of those codes yet (first start, demo). */
export async function seedDefaultReasons(db: Executor, unit: string): Promise<number> {
  const rows = await insertReasons(
    db,
    DEFAULT_DISQUALIFICATION_REASONS.map((reason) => ({ federativeUnit: unit, ...reason })),
    { skipExisting: true },
  );
  return rows.length;
}

// The door of this module for the others (modules import each other only through services).
export { lockReason } from './disqualification-reasons.repository';
