/**
 * One-time links to set a password: the reset link (forgotten password) and
 * the register link (first password of a new user). Tokens have 256 bits, are
 * stored hashed, expire in 30 minutes, work once, and a newer link voids the
 * older ones. Requests for a link answer the same whether or not the account
 * exists.
 */
import { isValidCpf, stripCpf, validatePassword, type PasswordCriterion } from '@exame/shared';
import { isCommonPassword } from '@exame/shared/common-passwords';
import { and, eq, isNull, gt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { passwordLinks } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import { hashToken, randomToken } from '../../lib/crypto';
import { insertActivity } from '../activity/activity.repository';
import { passwordLinkMessage } from '../mail/mailer';
import {
  findUserByCpf,
  findUserByEmail,
  updateUser,
  type UserRow,
} from '../users/users.repository';
import { PASSWORD_LINK_TTL_MS, type IdentityDeps } from './identity-deps';
import { accountKey, resetKey } from './login-throttle';
import { revokeUserSessions } from './sessions.repository';

export const LINK_REQUEST_ACCEPTED =
  'Se houver um cadastro ativo com esses dados, enviaremos um e-mail com as instruções em instantes.';
const linkInvalid = () =>
  new AppError('LINK_INVALID', 'Este link é inválido ou expirou. Solicite um novo link.', 400);

export type LinkPurpose = 'reset' | 'register';

export function passwordPagePath(purpose: LinkPurpose, cpf: string, token: string): string {
  const page = purpose === 'register' ? 'register-password' : 'reset-password';
  // The token travels in the fragment: browsers never send it to a server or in a Referer.
  return `/${page}/${cpf}#token=${token}`;
}

/** Voids the user's older links, stores a new one and queues its e-mail, in the caller's transaction. */
export async function issuePasswordLink(
  deps: Pick<IdentityDeps, 'config' | 'mailer'>,
  tx: Executor,
  user: Pick<UserRow, 'id' | 'name' | 'email' | 'cpf'>,
  purpose: LinkPurpose,
  now: Date = new Date(),
): Promise<void> {
  await tx
    .update(passwordLinks)
    .set({ voidedAt: now })
    .where(
      and(
        eq(passwordLinks.userId, user.id),
        isNull(passwordLinks.usedAt),
        isNull(passwordLinks.voidedAt),
      ),
    );
  const token = randomToken();
  await tx.insert(passwordLinks).values({
    userId: user.id,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS),
  });
  await deps.mailer.enqueue(
    tx,
    passwordLinkMessage({
      to: user.email,
      name: user.name,
      purpose,
      link: `${deps.config.publicAppUrl}${passwordPagePath(purpose, user.cpf, token)}`,
      validMinutes: PASSWORD_LINK_TTL_MS / 60_000,
    }),
  );
}

async function findByEmailOrCpf(deps: IdentityDeps, value: string): Promise<UserRow | undefined> {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return findUserByEmail(deps.db, trimmed.toLowerCase());
  const digits = stripCpf(trimmed);
  return isValidCpf(digits) ? findUserByCpf(deps.db, digits) : undefined;
}

/**
 * `POST /api/User/reset/{value}` and `POST api/User/verifyEmail/{value}`:
 * reset sends a reset link to an enabled account; verifyEmail sends the
 * register link again to an enabled account that has no password yet. The
 * answer never says which case happened.
 */
export async function requestPasswordLink(
  deps: IdentityDeps,
  value: string,
  kind: 'reset' | 'register',
): Promise<void> {
  const user = await findByEmailOrCpf(deps, value);
  const eligible =
    user !== undefined &&
    user.registerStatus === 'enabled' &&
    (kind === 'reset' || user.passwordHash === null);
  if (user && eligible) {
    await deps.db.transaction((tx) => issuePasswordLink(deps, tx, user, kind));
    // Delivery happens after the answer, so existing and missing accounts answer alike.
    void deps.mailer
      .flush(deps.db)
      .catch((error: unknown) => deps.log.error({ err: error }, 'falha no envio'));
  }
}

export class PasswordRejectedError extends AppError {
  constructor(readonly criteria: PasswordCriterion[]) {
    super(
      'password-does-not-meet-requirements',
      'A senha não atende aos requisitos da política de senhas.',
      400,
      criteria
        .filter((criterion) => !criterion.met)
        .map((criterion) => ({ path: 'body.password', message: criterion.label })),
    );
  }
}

export function checkPassword(deps: Pick<IdentityDeps, 'config'>, password: string): void {
  const result = validatePassword(deps.config.passwordPolicy, password, { isCommonPassword });
  if (!result.isValid) throw new PasswordRejectedError(result.criteria);
}

/** `PATCH /api/User/password`: sets the password through a link and ends every session of the user. */
export async function setPasswordWithLink(
  deps: IdentityDeps,
  input: { cpf: string; token: string; password: string },
  now: Date = new Date(),
): Promise<void> {
  checkPassword(deps, input.password);
  const passwordHash = await deps.hasher.hash(input.password);
  const tokenHash = hashToken(input.token);
  await deps.db.transaction(async (tx) => {
    // Claiming the link and checking it in one statement: two concurrent uses cannot both win.
    const [link] = await tx
      .update(passwordLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordLinks.tokenHash, tokenHash),
          isNull(passwordLinks.usedAt),
          isNull(passwordLinks.voidedAt),
          gt(passwordLinks.expiresAt, now),
        ),
      )
      .returning();
    if (!link) throw linkInvalid();
    const user = await findUserByCpf(tx, stripCpf(input.cpf));
    if (!user || user.id !== link.userId || user.registerStatus !== 'enabled') throw linkInvalid();
    await updateUser(tx, user.id, { passwordHash });
    await tx
      .update(passwordLinks)
      .set({ voidedAt: now })
      .where(
        and(
          eq(passwordLinks.userId, user.id),
          isNull(passwordLinks.usedAt),
          isNull(passwordLinks.voidedAt),
        ),
      );
    await revokeUserSessions(tx, user.id, 'password_change');
    // Proving control of the mailbox ends any lock an attacker caused on the account.
    await resetKey(tx, accountKey(user.email));
    await insertActivity(tx, {
      type: 'password_set',
      actorId: user.id,
      federativeUnit: user.federativeUnit,
      payload: { purpose: link.purpose },
    });
  });
}
