/**
 * What a signed-in person manages on "Segurança da conta" (their factors,
 * a new set-up, new recovery codes), and an ADMIN's reset of the factors of
 * a user of the unit. Each change is recorded with its activity event and
 * told to the account's owner by e-mail.
 */
import { USER_ERRORS, MFA_TICKET_TTL_MS, type SecondFactorStatus } from '@exame/shared';
import { AppError } from '../../lib/app-error';
import type { SessionUser } from '../../lib/actors';
import { changeWithActivity } from '../activity/activity.service';
import { findUserInUnit } from '../users/users.service';
import {
  countRecoveryCodesLeft,
  deleteFactor,
  deleteFactorsOf,
  findLiveTicket,
  listFactors,
  putTicket,
  replaceRecoveryCodes,
  type TicketRow,
} from './second-factor.repository';
import {
  accountKey,
  error,
  factorRequired,
  newRecoveryCodes,
  notice,
  sent,
  toSecondFactor,
  type SecondFactorDeps,
} from './second-factor.service';

/* ------------------------------------------------------------------------ */

export async function factorStatus(
  deps: SecondFactorDeps,
  actor: SessionUser,
): Promise<SecondFactorStatus> {
  const factors = await listFactors(deps.db, actor.id);
  return {
    factors: factors.map(toSecondFactor),
    recoveryCodesLeft: await countRecoveryCodesLeft(deps.db, actor.id),
    required: factorRequired(deps, actor.role),
  };
}

/** The set-up ticket of this session (one at a time; a new start replaces it). */
export function accountTicket(
  deps: SecondFactorDeps,
  actor: SessionUser,
  now: Date,
): Promise<TicketRow> {
  return putTicket(deps.db, {
    keyHash: accountKey(actor),
    userId: actor.id,
    purpose: 'account',
    expiresAt: new Date(now.getTime() + MFA_TICKET_TTL_MS),
  });
}

export async function findAccountTicket(
  deps: SecondFactorDeps,
  actor: SessionUser,
  now: Date,
): Promise<TicketRow> {
  const ticket = await findLiveTicket(deps.db, accountKey(actor), now);
  if (!ticket || ticket.userId !== actor.id) throw error('mfa-setup-missing');
  return ticket;
}

export async function removeFactor(
  deps: SecondFactorDeps,
  actor: SessionUser,
  id: string,
): Promise<void> {
  await changeWithActivity(deps.db, actor, async (tx) => {
    const factors = await listFactors(tx, actor.id);
    const factor = factors.find((candidate) => candidate.id === id);
    if (!factor) throw error('factor-not-found');
    const last = factors.length === 1;
    if (last && factorRequired(deps, actor.role)) throw error('mfa-last-factor');
    await deleteFactor(tx, actor.id, id);
    // Without a factor, recovery codes would be a way in that proves nothing more.
    if (last) await replaceRecoveryCodes(tx, actor.id, []);
    await notice(
      deps,
      tx,
      actor,
      `O segundo fator "${factor.label}" foi removido da sua conta`,
      new Date(),
    );
    return {
      result: null,
      type: 'mfa_remove',
      payload: { kind: factor.kind, label: factor.label },
      target: `user:${actor.id}`,
    };
  });
  sent(deps);
}

/** A new set of recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: SecondFactorDeps,
  actor: SessionUser,
): Promise<string[]> {
  const codes = await changeWithActivity(deps.db, actor, async (tx) => {
    if ((await listFactors(tx, actor.id)).length === 0) throw error('mfa-no-factor');
    const recovery = newRecoveryCodes();
    await replaceRecoveryCodes(tx, actor.id, recovery.hashes);
    await notice(
      deps,
      tx,
      actor,
      'Novos códigos de recuperação foram gerados para a sua conta; os anteriores deixaram de valer',
      new Date(),
    );
    return {
      result: recovery.codes,
      type: 'mfa_recovery_codes',
      payload: { count: recovery.codes.length },
      target: `user:${actor.id}`,
    };
  });
  sent(deps);
  return codes;
}

/**
 * An ADMIN clears the second factors of a user of the unit who lost them
 * (phone and recovery codes): the person signs in with the password again
 * and, in a role that requires a factor, enrols a new one at once.
 */
export async function resetFactorsOf(
  deps: SecondFactorDeps,
  actor: SessionUser,
  userId: string,
): Promise<void> {
  await changeWithActivity(deps.db, actor, async (tx) => {
    const target = await findUserInUnit(tx, actor.federativeUnit, { id: userId });
    if (!target) throw AppError.from(USER_ERRORS, 'USER_NOT_FOUND');
    // One's own factors are changed on "Segurança da conta", where the last one stays.
    if (target.id === actor.id) throw error('mfa-reset-self');
    const removed = await deleteFactorsOf(tx, target.id);
    if (removed === 0) throw error('mfa-nothing-to-reset');
    await replaceRecoveryCodes(tx, target.id, []);
    await notice(
      deps,
      tx,
      target,
      'O administrador da sua unidade redefiniu o segundo fator da sua conta (aplicativos, chaves de acesso e códigos de recuperação foram removidos)',
      new Date(),
    );
    return {
      result: null,
      type: 'mfa_reset',
      payload: { factors: removed },
      target: `user:${target.id}`,
    };
  });
  sent(deps);
}
