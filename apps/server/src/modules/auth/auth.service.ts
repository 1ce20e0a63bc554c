/**
 * Sign-in and sign-out. Missing, disabled and wrong-password accounts get the
 * same answer after the same work (one argon2id verification), and every
 * failure counts against the account and the client address.
 */
import type { AuthUser } from '@exame/shared';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import type { SessionUser } from '../../plugins/auth';
import { findUserByEmail } from '../users/users.repository';
import type { IdentityDeps } from './identity-deps';
import { accountKey, ipKey, readThrottle, recordFailure, resetKey } from './login-throttle';
import { hasSignedInFrom, insertSession, revokeSession } from './sessions.repository';

const invalidCredentials = () =>
  new AppError('invalid-credentials', 'E-mail ou senha incorretos.', 401);
export const LOGIN_BLOCKED_MESSAGE =
  'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.';

export async function signIn(
  deps: IdentityDeps,
  input: { email: string; password: string; ip: string; userAgent: string | null },
  now: Date = new Date(),
): Promise<AuthUser> {
  const email = input.email.trim().toLowerCase();
  const keys = { account: accountKey(email), ip: ipKey(input.ip) };
  const throttle = await readThrottle(deps.db, keys, now);
  const user = await findUserByEmail(deps.db, email);
  // An attacker elsewhere must not lock the owner out for good: while only the
  // account is locked, a client address from which this user signed in during
  // the last 30 days still gets through (its own per-address limit applies).
  const blocked =
    throttle.ipBlockedUntil ??
    (throttle.accountBlockedUntil &&
    !(user && (await hasSignedInFrom(deps.db, user.id, input.ip, now)))
      ? throttle.accountBlockedUntil
      : null);
  if (blocked) {
    const retryAfter = Math.max(1, Math.ceil((blocked.getTime() - now.getTime()) / 1000));
    throw new AppError('login-blocked', LOGIN_BLOCKED_MESSAGE, 429).withHeader(
      'retry-after',
      String(retryAfter),
    );
  }

  const passwordOk =
    user?.passwordHash !== null && user?.passwordHash !== undefined
      ? await deps.hasher.verify(user.passwordHash, input.password)
      : await deps.hasher.verifyNothing(input.password);

  if (!user || !passwordOk || user.registerStatus !== 'enabled') {
    const settings = deps.config.loginThrottle;
    await recordFailure(deps.db, accountKey(email), settings.failureFactor, settings, now);
    await recordFailure(deps.db, ipKey(input.ip), settings.ipFailureFactor, settings, now);
    deps.log.info({ event: 'login_failed' }, 'tentativa de login recusada');
    throw invalidCredentials();
  }

  if (throttle.counted.has(accountKey(email))) await resetKey(deps.db, accountKey(email));
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + deps.config.session.absoluteMs);
  await insertSession(deps.db, {
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt,
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return {
    name: user.name,
    email: user.email,
    cpf: user.cpf,
    federativeUnit: user.federativeUnit,
    roleDescription: user.role,
    token,
    expiresAt: expiresAt.toISOString(),
  };
}

export async function signOut(deps: Pick<IdentityDeps, 'db'>, user: SessionUser): Promise<void> {
  await revokeSession(deps.db, user.tokenHash, 'logout');
}
