/**
 * Sign-in and sign-out. Missing, passwordless and wrong-password accounts get
 * the same answer after the same work (one argon2id verification), and every
 * attempt counts against the account and the client address (or the trusted
 * device) before the password is checked. A disabled account answers the same
 * to a wrong password; only the right one hears that the account is disabled
 * and whom to ask (`user-disabled`).
 */
import { AUTH_ERRORS, SECOND_FACTOR_ERRORS, type AuthUser } from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { forgetCachedSessions } from '../../lib/session-cache';
import type { SessionUser } from '../../lib/actors';
import { findUserByEmail, type UserRow } from '../users/users.service';
import type { IdentityDeps } from './identity-deps';
import {
  accountKey,
  deviceKey,
  giveBackAttempts,
  ipKey,
  releaseAttempt,
  reserveAttempt,
  resetKey,
  type ThrottleKey,
} from './login-throttle';
import { insertSession, markSessionProven, revokeSession } from './sessions.repository';
import { secondStepFor } from './second-factor.service';
import { findTrustedDevice, upsertTrustedDevice } from './trusted-devices.repository';

const invalidCredentials = () => AppError.from(AUTH_ERRORS, 'invalid-credentials');

/** How long a browser stays trusted after a successful sign-in (renewed at each one). */
export const TRUSTED_DEVICE_TTL_MS = 30 * 86_400_000;

export type SignInResult = { user: AuthUser; deviceToken: string };

export async function signIn(
  deps: IdentityDeps,
  input: {
    email: string;
    password: string;
    ip: string;
    userAgent: string | null;
    /** The device token the browser holds from an earlier successful sign-in, if any. */
    deviceToken: string | null;
  },
  now: Date = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  // The owner must not be locked out by someone else's failures: the account
  // lock and the address lock (behind an unnamed proxy every client shares one
  // address) do not hold back a browser where this very account signed in
  // before. That browser has a counter of its own instead.
  const { keys } = await signInKeys(deps, user, email, input, now);
  const reservation = await admitAttempt(deps, keys, now);
  const passwordOk = await passwordMatches(deps, user, input.password);

  if (!user || !passwordOk) {
    // The attempt was counted when it was reserved.
    deps.log.info({ event: 'login_failed' }, 'tentativa de login recusada');
    throw invalidCredentials();
  }
  if (user.registerStatus !== 'enabled') {
    // The password was right: the attempt is given back, as after a sign-in.
    await releaseAttempt(deps.db, reservation.keys);
    deps.log.info({ event: 'login_disabled_account' }, 'login de conta desativada recusado');
    throw AppError.from(AUTH_ERRORS, 'user-disabled');
  }

  // A right password of an account with a second factor (or whose role
  // requires one) opens no session yet: the answer carries the next step,
  // and the failures counted so far stay until that step is done.
  const secondStep = await secondStepFor(deps, user, now);
  if (secondStep) {
    await giveBackAttempts(deps.db, reservation.keys);
    throw AppError.from(SECOND_FACTOR_ERRORS, secondStep.code).withFields({
      mfa: secondStep.challenge,
    });
  }
  await releaseAttempt(deps.db, reservation.keys);
  return completeSignIn(deps, user, input, now);
}

/**
 * The end of a sign-in whose every step passed: the session opens, the
 * account's failure counter starts over, and this browser becomes (or stays)
 * a trusted device of the account.
 */
export async function completeSignIn(
  deps: IdentityDeps,
  user: UserRow,
  input: { ip: string; userAgent: string | null; deviceToken: string | null },
  now: Date = new Date(),
): Promise<SignInResult> {
  const deviceHash = input.deviceToken ? hashToken(input.deviceToken) : null;
  const device = deviceHash ? await findTrustedDevice(deps.db, deviceHash, now) : undefined;
  const trusted = device?.userId === user.id;
  if (trusted) await resetKey(deps.db, accountKey(user.email));
  const signedIn = await openSession(deps, user, input, now);
  const deviceToken = trusted && input.deviceToken ? input.deviceToken : randomToken();
  await upsertTrustedDevice(deps.db, {
    tokenHash: hashToken(deviceToken),
    userId: user.id,
    expiresAt: new Date(now.getTime() + TRUSTED_DEVICE_TTL_MS),
    now,
  });
  return { user: signedIn, deviceToken };
}

/**
 * Opens a session for a user who proved who they are (password, or an
 * identity provider's answer) and returns what the web app keeps.
 */
export async function openSession(
  deps: Pick<IdentityDeps, 'db'> & { config: Pick<IdentityDeps['config'], 'session'> },
  user: UserRow,
  input: { ip: string; userAgent: string | null },
  now: Date = new Date(),
): Promise<AuthUser> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + deps.config.session.absoluteMs);
  await insertSession(deps.db, {
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt,
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    provenAt: now,
  });
  return {
    name: user.name,
    email: user.email,
    cpf: user.cpf,
    federativeUnit: user.federativeUnit,
    roleDescription: user.role,
    registerStatus: user.registerStatus,
    token,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * The counters a sign-in step of `user` counts against: a browser where this
 * very account signed in before has its own; any other, the account and the
 * address (so someone else's failures do not lock the owner out).
 */
export async function signInKeys(
  deps: Pick<IdentityDeps, 'db' | 'config'>,
  user: { id: string; email: string } | undefined,
  email: string,
  client: { ip: string; deviceToken: string | null },
  now: Date,
): Promise<{ keys: ThrottleKey[]; trusted: boolean }> {
  const settings = deps.config.loginThrottle;
  const deviceHash = client.deviceToken ? hashToken(client.deviceToken) : null;
  const device = deviceHash ? await findTrustedDevice(deps.db, deviceHash, now) : undefined;
  const trusted = deviceHash !== null && user !== undefined && device?.userId === user.id;
  const keys: ThrottleKey[] = trusted
    ? [{ key: deviceKey(deviceHash), factor: settings.failureFactor }]
    : [
        { key: accountKey(email), factor: settings.failureFactor },
        { key: ipKey(client.ip), factor: settings.ipFailureFactor },
      ];
  return { keys, trusted };
}

/** Counts an attempt against its keys before any password (or code) is checked; refuses while they are blocked. */
export async function admitAttempt(deps: IdentityDeps, keys: ThrottleKey[], now: Date) {
  const reservation = await reserveAttempt(deps.db, keys, deps.config.loginThrottle, now);
  if (!reservation.admitted) {
    const retryAfter = Math.max(
      1,
      Math.ceil((reservation.blockedUntil.getTime() - now.getTime()) / 1000),
    );
    throw AppError.from(AUTH_ERRORS, 'login-blocked').withHeader('retry-after', String(retryAfter));
  }
  return reservation;
}

/** One argon2id verification whether or not the account (or its password) exists. */
function passwordMatches(
  deps: IdentityDeps,
  user: { passwordHash: string | null } | undefined,
  password: string,
): Promise<boolean> {
  return user?.passwordHash !== null && user?.passwordHash !== undefined
    ? deps.hasher.verify(user.passwordHash, password)
    : deps.hasher.verifyNothing(password);
}

/**
 * Checks another person's e-mail and password without opening a session
 * (examiner 2 at the room's check-in, `api/Auth/viewer-checkin`): the same
 * throttle and the same work as a sign-in, so it is no way around either.
 * Returns the enabled account, or fails as a sign-in fails.
 */
export async function verifyCredentials(
  deps: IdentityDeps,
  input: { email: string; password: string; ip: string },
  now: Date = new Date(),
): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  return verifyAccountPassword(
    deps,
    user,
    { account: email, password: input.password, ip: input.ip },
    now,
  );
}

/**
 * The password check of `verifyCredentials` for an account already looked up
 * (found or not) by its caller, e.g. by CPF inside a unit: the attempt counts
 * against `account` (the account's e-mail, or a name of what was asked for
 * when there is no account) and the address before one argon2id
 * verification, which runs whether or not the account exists. Returns the
 * enabled account, or fails as a sign-in fails.
 */
export async function verifyAccountPassword(
  deps: IdentityDeps,
  user: UserRow | undefined,
  input: { account: string; password: string; ip: string },
  now: Date = new Date(),
): Promise<UserRow> {
  const settings = deps.config.loginThrottle;
  const reservation = await admitAttempt(
    deps,
    [
      { key: accountKey(input.account), factor: settings.failureFactor },
      { key: ipKey(input.ip), factor: settings.ipFailureFactor },
    ],
    now,
  );
  const passwordOk = await passwordMatches(deps, user, input.password);
  if (!user || !passwordOk || user.registerStatus !== 'enabled') throw invalidCredentials();
  await releaseAttempt(deps.db, reservation.keys);
  return user;
}

/**
 * A new proof of who the person is, asked before sensitive actions
 * (`POST api/Auth/reauthenticate`): the e-mail and password go through the
 * same throttle and work as a sign-in. Another account's right credentials
 * get `user-mismatch`; a wrong password, `reauth-invalid-credentials` (400:
 * the session itself is fine). On success the session is marked proven now.
 */
export async function reauthenticate(
  deps: IdentityDeps,
  actor: SessionUser,
  input: { email: string; password: string; ip: string },
  now: Date = new Date(),
): Promise<void> {
  let user: UserRow;
  try {
    user = await verifyCredentials(deps, input, now);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid-credentials') {
      throw AppError.from(AUTH_ERRORS, 'reauth-invalid-credentials');
    }
    throw error;
  }
  if (user.id !== actor.id) {
    deps.log.info({ event: 'reauth_user_mismatch' }, 'reautenticação com outra conta recusada');
    throw AppError.from(AUTH_ERRORS, 'user-mismatch');
  }
  await recordProof(deps.db, actor, now);
}

/**
 * Records a new proof of who the person of this session is (password, second
 * factor or identity provider); this instance's cache lets the old one go at
 * once, the others by NOTIFY.
 */
export async function recordProof(
  db: IdentityDeps['db'],
  actor: Pick<SessionUser, 'tokenHash'>,
  now: Date,
): Promise<void> {
  await markSessionProven(db, actor.tokenHash, now);
  forgetCachedSessions({ tokenHash: actor.tokenHash });
}

export async function signOut(deps: Pick<IdentityDeps, 'db'>, user: SessionUser): Promise<void> {
  await revokeSession(deps.db, user.tokenHash, 'logout');
  // Committed: this instance's session cache lets the token go now (others by NOTIFY).
  forgetCachedSessions({ tokenHash: user.tokenHash });
}

// The door of this module for the others (modules import each other only through services).
export { type IdentityDeps } from './identity-deps';
export { deleteStaleThrottleKeys } from './auth.repository';
export { issuePasswordLink } from './password-links.service';
export { revokeUserSessions } from './sessions.repository';
export { FAILURE_RESET_MS } from './login-throttle';
export { deleteLinkRequestsBefore } from './password-links.repository';
export { deleteExpiredDevices } from './trusted-devices.repository';
export { deleteExpiredTickets } from './second-factor.repository';
