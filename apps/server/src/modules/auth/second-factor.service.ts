/**
 * The second factor: which accounts need one, checking a code (app or
 * recovery), setting up a new factor (app or passkey) under a ticket, and
 * what a signed-in person manages on "Segurança da conta". The steps of a
 * sign-in that use these are in mfa-sign-in.service.ts.
 *
 * App secrets are sealed at rest (lib/secret-box.ts); recovery codes are kept
 * as SHA-256 (ten random characters from 31, about 49 bits each, behind the
 * sign-in throttle). Adding or removing a factor and making new codes go into
 * the activity log with the change, in one transaction.
 */
import { randomInt } from 'node:crypto';
import {
  PRODUCT_NAME,
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_ERRORS,
  SECOND_FACTOR_LABELS,
  MFA_TICKET_TTL_MS,
  type FactorConfirmation,
  type MfaChallenge,
  type Role,
  type SecondFactor,
  type SecondFactorStatus,
  type TotpSetup,
  USER_ERRORS,
} from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { matchingStep, newTotpSecret, otpauthUri } from '../../lib/totp';
import type { SessionUser } from '../../lib/actors';
import { changeWithActivity } from '../activity/activity.service';
import { findUserInUnit, type UserRow } from '../users/users.service';
import type { IdentityDeps } from './identity-deps';
import { registrationOptions, verifyRegistration } from './passkeys';
import {
  claimTotpStep,
  countRecoveryCodesLeft,
  deleteFactor,
  deleteFactorsOf,
  deleteTicket,
  findLiveTicket,
  insertFactor,
  listFactors,
  putTicket,
  replaceRecoveryCodes,
  spendRecoveryCode,
  takeChallenge,
  updateTicket,
  type FactorRow,
  type NewFactor,
  type TicketRow,
} from './second-factor.repository';

export type SecondFactorDeps = Pick<IdentityDeps, 'db' | 'config' | 'log' | 'secrets'>;
type Account = Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'federativeUnit'>;

const error = (code: keyof typeof SECOND_FACTOR_ERRORS) =>
  AppError.from(SECOND_FACTOR_ERRORS, code);
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function factorRequired(deps: Pick<SecondFactorDeps, 'config'>, role: Role): boolean {
  return deps.config.secondFactor.requiredRoles.includes(role);
}

export function toSecondFactor(row: FactorRow): SecondFactor {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The ticket's key at rest: the hash of what the browser holds. */
export const ticketKey = (ticket: string) => hashToken(`mfa:${ticket}`);
/** A signed-in person's set-up is keyed by the session. */
const accountKey = (actor: SessionUser) => hashToken(`account:${actor.tokenHash}`);

/**
 * After a right password: the step the account still owes, or null when the
 * session may open. An account with a factor proves it; one whose role
 * requires a factor and has none enrols one first.
 */
export async function secondStepFor(
  deps: SecondFactorDeps,
  user: Account,
  now: Date,
): Promise<{ code: keyof typeof SECOND_FACTOR_ERRORS; challenge: MfaChallenge } | null> {
  const factors = await listFactors(deps.db, user.id);
  const required = factorRequired(deps, user.role);
  if (factors.length === 0 && !required) return null;
  const ticket = randomToken();
  const expiresAt = new Date(now.getTime() + MFA_TICKET_TTL_MS);
  const enrolment = factors.length === 0;
  await putTicket(deps.db, {
    keyHash: ticketKey(ticket),
    userId: user.id,
    purpose: enrolment ? 'enrol-at-sign-in' : 'sign-in',
    expiresAt,
  });
  const kinds = new Set(factors.map((factor) => factor.kind));
  const methods = enrolment
    ? []
    : [
        ...(kinds.has('totp') ? (['totp'] as const) : []),
        ...(kinds.has('passkey') ? (['passkey'] as const) : []),
        'recovery' as const,
      ];
  return {
    code: enrolment ? 'multi-factor-enrolment-required' : 'multi-factor-auth-required',
    challenge: { ticket, enrolment, methods, expiresAt: expiresAt.toISOString() },
  };
}

/**
 * Whether `code` is a current code of one of the account's apps (each step
 * once) or one of its unused recovery codes (spent now, and recorded).
 */
export async function codeMatches(
  deps: SecondFactorDeps,
  user: Account,
  method: 'totp' | 'recovery',
  code: string,
  now: Date,
): Promise<boolean> {
  if (method === 'recovery') {
    const hash = hashToken(normalizeRecoveryCode(code));
    try {
      await changeWithActivity(deps.db, user, async (tx) => {
        if (!(await spendRecoveryCode(tx, user.id, hash, now))) throw error('mfa-invalid-code');
        const left = await countRecoveryCodesLeft(tx, user.id);
        return {
          result: null,
          type: 'mfa_recovery_used',
          payload: { left },
          target: `user:${user.id}`,
        };
      });
      return true;
    } catch (failure) {
      if (failure instanceof AppError && failure.code === 'mfa-invalid-code') return false;
      throw failure;
    }
  }
  for (const factor of await listFactors(deps.db, user.id)) {
    if (factor.kind !== 'totp' || !factor.totpSecret) continue;
    const step = matchingStep(deps.secrets.open(factor.totpSecret), code, now);
    if (step !== null && (await claimTotpStep(deps.db, factor.id, step, now))) return true;
  }
  return false;
}

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: 10 },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map((code) => hashToken(normalizeRecoveryCode(code))) };
}

/** The set-up of an app under `ticket`: a new secret, kept sealed until its first code. */
export async function startTotpSetup(
  deps: SecondFactorDeps,
  ticket: TicketRow,
  user: Account,
): Promise<TotpSetup> {
  const secret = newTotpSecret();
  await updateTicket(deps.db, ticket.id, { pendingTotpSecret: deps.secrets.seal(secret) });
  return { secret, otpauthUri: otpauthUri(secret, PRODUCT_NAME, user.email) };
}

/** The options of a new passkey under `ticket`; its challenge is kept for the answer. */
export async function startPasskeySetup(deps: SecondFactorDeps, ticket: TicketRow, user: Account) {
  const options = await registrationOptions(
    deps.config.secondFactor,
    user,
    await listFactors(deps.db, user.id),
  );
  await updateTicket(deps.db, ticket.id, { webauthnChallenge: options.challenge });
  return options;
}

/**
 * Adds the factor set up under `ticket` once its answer checks (the app's
 * first code, or the passkey's attestation), with its activity event; the
 * account's first factor comes with its recovery codes. The ticket is spent.
 */
export async function confirmFactor(
  deps: SecondFactorDeps,
  ticket: TicketRow,
  user: Account,
  input: FactorConfirmation,
  now: Date,
): Promise<{ factor: SecondFactor; recoveryCodes?: string[] }> {
  const values = await checkedFactor(deps, ticket, input, now);
  const label = input.label?.trim() || SECOND_FACTOR_LABELS[input.method];
  return changeWithActivity(deps.db, user, async (tx) => {
    const first = (await listFactors(tx, user.id)).length === 0;
    const row = await insertFactor(tx, { ...values, userId: user.id, label, createdAt: now });
    await deleteTicket(tx, ticket.id);
    const recovery = first ? newRecoveryCodes() : undefined;
    if (recovery) await replaceRecoveryCodes(tx, user.id, recovery.hashes);
    return {
      result: { factor: toSecondFactor(row), recoveryCodes: recovery?.codes },
      type: 'mfa_add',
      payload: { kind: row.kind, label: row.label, recoveryCodes: first },
      target: `user:${user.id}`,
    };
  });
}

async function checkedFactor(
  deps: SecondFactorDeps,
  ticket: TicketRow,
  input: FactorConfirmation,
  now: Date,
): Promise<Omit<NewFactor, 'userId' | 'label'>> {
  if (input.method === 'totp') {
    if (!ticket.pendingTotpSecret) throw error('mfa-setup-missing');
    const step = matchingStep(deps.secrets.open(ticket.pendingTotpSecret), input.code, now);
    if (step === null) throw error('mfa-invalid-code');
    return {
      kind: 'totp',
      totpSecret: ticket.pendingTotpSecret,
      totpLastStep: step,
      lastUsedAt: now,
    };
  }
  const challenge = await takeChallenge(deps.db, ticket);
  if (!challenge) throw error('mfa-setup-missing');
  const passkey = await verifyRegistration(deps.config.secondFactor, input.credential, challenge);
  if (!passkey) throw error('passkey-failed');
  return { kind: 'passkey', ...passkey };
}

/* ------------------------------------------------------------------------ */
/* A signed-in person's factors ("Segurança da conta")                      */
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
    return {
      result: null,
      type: 'mfa_remove',
      payload: { kind: factor.kind, label: factor.label },
      target: `user:${actor.id}`,
    };
  });
}

/** A new set of recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(
  deps: SecondFactorDeps,
  actor: SessionUser,
): Promise<string[]> {
  return changeWithActivity(deps.db, actor, async (tx) => {
    if ((await listFactors(tx, actor.id)).length === 0) throw error('mfa-no-factor');
    const recovery = newRecoveryCodes();
    await replaceRecoveryCodes(tx, actor.id, recovery.hashes);
    return {
      result: recovery.codes,
      type: 'mfa_recovery_codes',
      payload: { count: recovery.codes.length },
      target: `user:${actor.id}`,
    };
  });
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
    const removed = await deleteFactorsOf(tx, target.id);
    await replaceRecoveryCodes(tx, target.id, []);
    return {
      result: null,
      type: 'mfa_reset',
      payload: { factors: removed },
      target: `user:${target.id}`,
    };
  });
}
