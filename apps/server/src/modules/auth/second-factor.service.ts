/**
 * The second factor: which accounts need one, checking a code (app or
 * recovery), setting up a new factor (app or passkey) under a ticket, and
 * what a signed-in person manages on "Segurança da conta". The steps of a
 * sign-in that use these are in mfa-sign-in.service.ts; what a signed-in
 * person (or the unit's ADMIN) manages, in account-factors.service.ts.
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
  type TotpSetup,
} from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { matchingStep, newTotpSecret, otpauthUri } from '../../lib/totp';
import type { SessionUser } from '../../lib/actors';
import type { Executor } from '../../db/client';
import { changeWithActivity } from '../activity/activity.service';
import { securityNoticeMessage } from '../mail/mail.service';
import type { UserRow } from '../users/users.service';
import type { IdentityDeps } from './identity-deps';
import {
  authenticationOptions,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from './passkeys';
import {
  claimTotpStep,
  countRecoveryCodesLeft,
  deleteTicket,
  insertFactor,
  listFactors,
  putTicket,
  recordPasskeyUse,
  replaceRecoveryCodes,
  spendRecoveryCode,
  takeChallenge,
  updateTicket,
  type FactorRow,
  type NewFactor,
  type TicketRow,
} from './second-factor.repository';

export type SecondFactorDeps = Pick<IdentityDeps, 'db' | 'config' | 'log' | 'secrets' | 'mailer'>;
type Account = Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'federativeUnit'>;

export const error = (code: keyof typeof SECOND_FACTOR_ERRORS) =>
  AppError.from(SECOND_FACTOR_ERRORS, code);
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Tells the owner of the account, by e-mail, that how it signs in changed:
 * queued in the change's transaction, sent once it committed (`sent`).
 */
export function notice(
  deps: SecondFactorDeps,
  tx: Executor,
  to: Account,
  change: string,
  at: Date,
) {
  return deps.mailer.enqueue(
    tx,
    securityNoticeMessage({
      to: to.email,
      name: to.name,
      change,
      at,
      appUrl: deps.config.publicAppUrl,
    }),
  );
}
export const sent = (deps: SecondFactorDeps) => void deps.mailer.flush(deps.db);

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
export const accountKey = (actor: SessionUser) => hashToken(`account:${actor.tokenHash}`);

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
        await notice(
          deps,
          tx,
          user,
          `Um código de recuperação foi usado para confirmar uma entrada na sua conta; restam ${left}`,
          now,
        );
        return {
          result: null,
          type: 'mfa_recovery_used',
          payload: { left },
          target: `user:${user.id}`,
        };
      });
      sent(deps);
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

export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
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
  const added = await changeWithActivity(deps.db, user, async (tx) => {
    const first = (await listFactors(tx, user.id)).length === 0;
    // The set-up is spent first: of two confirmations sent together, one adds the factor.
    if (!(await deleteTicket(tx, ticket.id))) throw error('mfa-setup-missing');
    const row = await insertFactor(tx, { ...values, userId: user.id, label, createdAt: now });
    const recovery = first ? newRecoveryCodes() : undefined;
    if (recovery) await replaceRecoveryCodes(tx, user.id, recovery.hashes);
    await notice(
      deps,
      tx,
      user,
      `${SECOND_FACTOR_LABELS[row.kind]} "${row.label}" foi cadastrado como segundo fator da sua conta`,
      now,
    );
    return {
      result: { factor: toSecondFactor(row), recoveryCodes: recovery?.codes },
      type: 'mfa_add',
      payload: { kind: row.kind, label: row.label, recoveryCodes: first },
      target: `user:${user.id}`,
    };
  });
  sent(deps);
  return added;
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

/** Options for the account's passkeys; their challenge is kept on `ticket` for the answer. */
export async function passkeyChallenge(deps: SecondFactorDeps, ticket: TicketRow, userId: string) {
  const options = await authenticationOptions(
    deps.config.secondFactor,
    await listFactors(deps.db, userId),
  );
  await updateTicket(deps.db, ticket.id, { webauthnChallenge: options.challenge });
  return options;
}

/**
 * Whether one of the account's passkeys signed `ticket`'s challenge (taken
 * once; its counter recorded): `missing` when there is no challenge to answer.
 */
export async function passkeySigned(
  deps: SecondFactorDeps,
  ticket: TicketRow,
  userId: string,
  credential: Record<string, unknown>,
  now: Date,
): Promise<boolean | 'missing'> {
  const challenge = await takeChallenge(deps.db, ticket);
  if (!challenge) return 'missing';
  const verified = await verifyAuthentication(
    deps.config.secondFactor,
    credential,
    challenge,
    await listFactors(deps.db, userId),
  );
  if (!verified) return false;
  await recordPasskeyUse(deps.db, verified.factor.id, verified.signCount, now);
  return true;
}
