/**
 * The step after a right password (`api/Auth/mfa/*`): the ticket of the
 * `multi-factor-*-required` answer is finished by an app code, a recovery
 * code or a passkey, or, for a role that requires a factor the account lacks,
 * by enrolling one. Every answer counts against the account and the address
 * like a password does (login-throttle.ts), and five wrong answers spend the
 * ticket: the sign-in starts over from the password. Also the second factor
 * as a re-authentication before sensitive actions.
 */
import {
  AUTH_ERRORS,
  SECOND_FACTOR_ERRORS,
  type FactorConfirmation,
  type TotpSetup,
} from '@exame/shared';
import { AppError } from '../../lib/app-error';
import type { SessionUser } from '../../lib/actors';
import { findUserById, type UserRow } from '../users/users.service';
import {
  admitAttempt,
  completeSignIn,
  recordProof,
  signInKeys,
  type SignInResult,
} from './auth.service';
import type { IdentityDeps } from './identity-deps';
import { accountKey, ipKey, releaseAttempt } from './login-throttle';
import {
  countTicketFailure,
  deleteTicket,
  findLiveTicket,
  type TicketRow,
} from './second-factor.repository';
import { accountTicket } from './account-factors.service';
import {
  accountKey as accountKeyOf,
  codeMatches,
  confirmFactor,
  passkeyChallenge,
  passkeySigned,
  startPasskeySetup,
  startTotpSetup,
  ticketKey,
} from './second-factor.service';

/** Wrong answers a ticket takes before it is spent. */
export const MAX_TICKET_FAILURES = 5;

type Client = { ip: string; userAgent: string | null; deviceToken: string | null };
const error = (code: keyof typeof SECOND_FACTOR_ERRORS) =>
  AppError.from(SECOND_FACTOR_ERRORS, code);

/** The live ticket of `purpose` and its enabled account, or `mfa-ticket-invalid`. */
async function ticketOf(
  deps: IdentityDeps,
  ticket: string,
  purpose: TicketRow['purpose'],
  now: Date,
): Promise<{ row: TicketRow; user: UserRow }> {
  const row = await findLiveTicket(deps.db, ticketKey(ticket), now);
  const user = row && row.purpose === purpose ? await findUserById(deps.db, row.userId) : undefined;
  if (!row || !user || user.registerStatus !== 'enabled') throw error('mfa-ticket-invalid');
  return { row, user };
}

/**
 * Runs one answer to a ticket: counted before it is checked (as a password
 * is), given back when right; a wrong one is counted on the ticket too.
 */
async function answer<T>(
  deps: IdentityDeps,
  ticket: { row: TicketRow; user: UserRow },
  client: Client,
  now: Date,
  check: () => Promise<T>,
): Promise<T> {
  // The same counters as the password step: the owner's trusted browser has its own.
  const { keys } = await signInKeys(deps, ticket.user, ticket.user.email, client, now);
  const reservation = await admitAttempt(deps, keys, now);
  try {
    const result = await check();
    await releaseAttempt(deps.db, reservation.keys);
    return result;
  } catch (failure) {
    if (failure instanceof AppError && failure.status < 500) {
      const failures = await countTicketFailure(deps.db, ticket.row.id);
      deps.log.info({ event: 'mfa_failed', failures }, 'segundo fator recusado');
      if (failures >= MAX_TICKET_FAILURES) {
        await deleteTicket(deps.db, ticket.row.id);
        throw error('mfa-ticket-invalid');
      }
    }
    throw failure;
  }
}

/** `POST api/Auth/mfa/verify`: an app code or a recovery code finishes the sign-in. */
export async function verifySignInCode(
  deps: IdentityDeps,
  input: Client & { ticket: string; method: 'totp' | 'recovery'; code: string },
  now: Date = new Date(),
): Promise<SignInResult> {
  return signInWithTicket(deps, input, now, async ({ user }) => {
    if (!(await codeMatches(deps, user, input.method, input.code, now))) {
      throw error('mfa-invalid-code');
    }
  });
}

/** A sign-in ticket answered by `check`: spent, and the session opens. */
async function signInWithTicket(
  deps: IdentityDeps,
  input: Client & { ticket: string },
  now: Date,
  check: (ticket: { row: TicketRow; user: UserRow }) => Promise<void>,
): Promise<SignInResult> {
  const ticket = await ticketOf(deps, input.ticket, 'sign-in', now);
  await answer(deps, ticket, input, now, () => check(ticket));
  await deleteTicket(deps.db, ticket.row.id);
  return completeSignIn(deps, ticket.user, input, now);
}

/** `POST api/Auth/mfa/passkey/options`: what the browser asks the account's passkeys. */
export async function passkeySignInOptions(
  deps: IdentityDeps,
  input: { ticket: string },
  now: Date = new Date(),
) {
  const { row, user } = await ticketOf(deps, input.ticket, 'sign-in', now);
  return passkeyChallenge(deps, row, user.id);
}

/** `POST api/Auth/mfa/passkey`: the passkey's signature of the challenge finishes the sign-in. */
export async function verifySignInPasskey(
  deps: IdentityDeps,
  input: Client & { ticket: string; credential: Record<string, unknown> },
  now: Date = new Date(),
): Promise<SignInResult> {
  return signInWithTicket(deps, input, now, async ({ row, user }) => {
    const signed = await passkeySigned(deps, row, user.id, input.credential, now);
    if (signed === 'missing') throw error('mfa-setup-missing');
    if (!signed) throw error('passkey-failed');
  });
}

/** `POST api/Auth/mfa/enrol/totp`: a new app for an account that must have a factor. */
export async function enrolTotpSetup(
  deps: IdentityDeps,
  input: { ticket: string },
  now: Date = new Date(),
): Promise<TotpSetup> {
  const { row, user } = await ticketOf(deps, input.ticket, 'enrol-at-sign-in', now);
  return startTotpSetup(deps, row, user);
}

/** `POST api/Auth/mfa/enrol/passkey/options`. */
export async function enrolPasskeyOptions(
  deps: IdentityDeps,
  input: { ticket: string },
  now: Date = new Date(),
) {
  const { row, user } = await ticketOf(deps, input.ticket, 'enrol-at-sign-in', now);
  return startPasskeySetup(deps, row, user);
}

/** `POST api/Auth/mfa/enrol`: the new factor checks, the session opens, with the recovery codes. */
export async function enrolAndSignIn(
  deps: IdentityDeps,
  input: Client & { ticket: string; confirmation: FactorConfirmation },
  now: Date = new Date(),
): Promise<SignInResult & { recoveryCodes?: string[] }> {
  const ticket = await ticketOf(deps, input.ticket, 'enrol-at-sign-in', now);
  const added = await answer(deps, ticket, input, now, () =>
    confirmFactor(deps, ticket.row, ticket.user, input.confirmation, now),
  );
  const signedIn = await completeSignIn(deps, ticket.user, input, now);
  return { ...signedIn, recoveryCodes: added.recoveryCodes };
}

/**
 * A re-authentication of the session's person by `proved` (a code, a
 * passkey), throttled like a password: counted first, given back when right.
 */
async function reauthenticateBy(
  deps: IdentityDeps,
  actor: SessionUser,
  ip: string,
  now: Date,
  proved: () => Promise<boolean>,
  refusal: () => AppError,
): Promise<void> {
  const settings = deps.config.loginThrottle;
  const reservation = await admitAttempt(
    deps,
    [
      { key: accountKey(actor.email), factor: settings.failureFactor },
      { key: ipKey(ip), factor: settings.ipFailureFactor },
    ],
    now,
  );
  if (!(await proved())) throw refusal();
  await releaseAttempt(deps.db, reservation.keys);
  await recordProof(deps.db, actor, now);
}

/** A re-authentication with an app code or a recovery code instead of the password. */
export async function reauthenticateWithCode(
  deps: IdentityDeps,
  actor: SessionUser,
  input: { method: 'totp' | 'recovery'; code: string; ip: string },
  now: Date = new Date(),
): Promise<void> {
  await reauthenticateBy(
    deps,
    actor,
    input.ip,
    now,
    async () => {
      const user = await findUserById(deps.db, actor.id);
      return user !== undefined && codeMatches(deps, user, input.method, input.code, now);
    },
    () => AppError.from(AUTH_ERRORS, 'reauth-invalid-code'),
  );
}

/** Options to re-authenticate with one of the account's passkeys (kept on the session's set-up ticket). */
export async function reauthPasskeyOptions(
  deps: IdentityDeps,
  actor: SessionUser,
  now: Date = new Date(),
) {
  return passkeyChallenge(deps, await accountTicket(deps, actor, now), actor.id);
}

/** A re-authentication with a passkey of the account. */
export async function reauthenticateWithPasskey(
  deps: IdentityDeps,
  actor: SessionUser,
  input: { credential: Record<string, unknown>; ip: string },
  now: Date = new Date(),
): Promise<void> {
  await reauthenticateBy(
    deps,
    actor,
    input.ip,
    now,
    async () => {
      const ticket = await findLiveTicket(deps.db, accountKeyOf(actor), now);
      return (
        ticket?.userId === actor.id &&
        (await passkeySigned(deps, ticket, actor.id, input.credential, now)) === true
      );
    },
    () => error('passkey-failed'),
  );
}
