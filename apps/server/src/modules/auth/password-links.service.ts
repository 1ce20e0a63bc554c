/**
 * One-time links to set a password: the reset link (forgotten password) and
 * the register link (first password of a new user). Tokens have 256 bits, are
 * stored hashed, expire in 30 minutes, work once, and a newer link voids the
 * older ones. Requests for a link answer the same whether or not the account
 * exists.
 */
import {
  AUTH_ERRORS,
  isValidCpf,
  stripCpf,
  validatePassword,
  type PasswordCriterion,
} from '@exame/shared';
import { isCommonPassword } from '@exame/shared/common-passwords';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { coalescedRuns } from '../../lib/coalesced-runs';
import { hashToken, randomToken } from '../../lib/crypto';
import { forgetCachedSessions } from '../../lib/session-cache';
import { insertActivity } from '../activity/activity.service';
import { passwordLinkMessage } from '../mail/mail.service';
import { findUserByCpf, findUserByEmail, updateUser, type UserRow } from '../users/users.service';
import { PASSWORD_LINK_TTL_MS, type IdentityDeps, type LinkWorkerDeps } from './identity-deps';
import { accountKey, resetKey } from './login-throttle';
import {
  claimLink,
  deleteLinkRequest,
  findOpenLink,
  insertLink,
  insertLinkRequest,
  recordLinkRequestFailure,
  takeLinkRequest,
  voidOpenLinks,
  type LinkPurpose,
  type LinkRequestRow,
} from './password-links.repository';
import { revokeUserSessions } from './sessions.repository';

export type { LinkPurpose };

export const LINK_REQUEST_ACCEPTED =
  'Se houver um cadastro ativo com esses dados, enviaremos um e-mail com as instruções em instantes.';
const linkInvalid = () => AppError.from(AUTH_ERRORS, 'LINK_INVALID');
const accountDisabled = () => AppError.from(AUTH_ERRORS, 'user-disabled');

export function passwordPagePath(purpose: LinkPurpose, cpf: string, token: string): string {
  const page = purpose === 'register' ? 'register-password' : 'reset-password';
  // The token travels in the fragment: browsers never send it to a server or in a Referer.
  return `/${page}/${cpf}#token=${token}`;
}

/**
 * Voids the user's older links, stores a new one and queues its e-mail, in
 * the caller's transaction (`deps.tx`), for `user`.
 */
export async function issuePasswordLink(
  deps: Pick<IdentityDeps, 'config' | 'mailer'> & { tx: Executor },
  user: Pick<UserRow, 'id' | 'name' | 'email' | 'cpf'>,
  input: { purpose: LinkPurpose; now?: Date },
): Promise<void> {
  const { tx } = deps;
  const { purpose, now = new Date() } = input;
  await voidOpenLinks(tx, user.id, now);
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_MS);
  await insertLink(tx, {
    userId: user.id,
    purpose,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt,
  });
  await deps.mailer.enqueue(
    tx,
    passwordLinkMessage({
      to: user.email,
      name: user.name,
      purpose,
      link: `${deps.config.publicAppUrl}${passwordPagePath(purpose, user.cpf, token)}`,
      expiresAt,
      validMinutes: PASSWORD_LINK_TTL_MS / 60_000,
    }),
  );
}

/** The value a request names an account by, e-mail or CPF, normalised (the key of its door limit). */
function normaliseLinkValue(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : stripCpf(trimmed);
}

async function findByEmailOrCpf(db: Executor, value: string): Promise<UserRow | undefined> {
  if (value.includes('@')) return findUserByEmail(db, value);
  return isValidCpf(value) ? findUserByCpf(db, value) : undefined;
}

/**
 * `POST /api/User/reset/{value}` and `POST api/User/verifyEmail/{value}`.
 * The request only counts against the limits of the address and of the value
 * typed, and joins the queue: the same statements whatever the account, so
 * neither the answer nor its timing says whether it exists. The account is
 * looked up after the answer, by the worker, which also counts the request
 * against the account's own limit.
 */
export async function requestPasswordLink(
  deps: IdentityDeps,
  input: { value: string; kind: LinkPurpose; ip: string },
): Promise<void> {
  const value = normaliseLinkValue(input.value);
  await deps.limiter.hit('linkPerIp', input.ip);
  await deps.limiter.hit('linkPerValue', value);
  await insertLinkRequest(deps.db, { kind: input.kind, value });
  deps.linkRequests.kick();
}

/**
 * Reset sends a reset link to an enabled account; register sends the register
 * link again to an enabled account that has no password yet; anything else
 * sends nothing. Every request that names an account counts against that
 * account's limit, whether it named it by e-mail or by CPF; past the limit
 * nothing is sent (the answer went out already, the same for every account).
 */
async function fulfilLinkRequest(
  deps: LinkWorkerDeps,
  tx: Executor,
  request: LinkRequestRow,
): Promise<void> {
  const user = await findByEmailOrCpf(tx, request.value);
  if (!user) return;
  const limit = await deps.limiter.tryHit('linkPerAccount', user.id, { db: tx });
  if (!limit.allowed) {
    deps.log.info(
      { event: 'link_request_limited', requestId: request.id },
      'pedido de link acima do limite da conta: nada enviado',
    );
    return;
  }
  const eligible =
    user.registerStatus === 'enabled' && (request.kind === 'reset' || user.passwordHash === null);
  if (eligible) await issuePasswordLink({ ...deps, tx }, user, { purpose: request.kind });
}

const MAX_REQUEST_ATTEMPTS = 5;
const POLL_INTERVAL_MS = 30_000;

/**
 * Works off the queue of link requests: kicked after each answer, and every
 * 30 s for requests an instance took in and did not finish (it stopped, or
 * the database failed). Each request is fulfilled in a transaction with its
 * removal from the queue; a failure puts it back, up to five times.
 */
export function createLinkRequestWorker(deps: LinkWorkerDeps, options: { auto: boolean }) {
  let timer: NodeJS.Timeout | undefined;

  async function processOne(): Promise<boolean> {
    return deps.db.transaction(async (tx) => {
      const request = await takeLinkRequest(tx);
      if (!request) return false;
      try {
        await tx.transaction((savepoint) => fulfilLinkRequest(deps, savepoint, request));
        await deleteLinkRequest(tx, request.id);
      } catch (error) {
        deps.log.error(
          { reason: error instanceof Error ? error.name : 'erro', requestId: request.id },
          'falha ao processar um pedido de link de senha',
        );
        await recordLinkRequestFailure(tx, request.id, MAX_REQUEST_ATTEMPTS);
      }
      return true;
    });
  }

  const runs = coalescedRuns(async () => {
    try {
      let processed = 0;
      while (await processOne()) processed += 1;
      if (processed > 0) await deps.mailer.flush(deps.db);
    } catch (error) {
      deps.log.error(
        { reason: error instanceof Error ? error.name : 'erro' },
        'falha ao processar os pedidos de link de senha',
      );
    }
  });

  return {
    /** Schedules a run after the current answer is on its way. */
    kick(): void {
      if (!options.auto) return;
      setImmediate(() => void runs.run());
    },
    /** Processes everything queued now (tests and the poller). */
    run: runs.run,
    /** Resolves once no run is in progress. */
    idle: runs.idle,
    start(): void {
      if (!options.auto || timer) return;
      timer = setInterval(() => void runs.run(), POLL_INTERVAL_MS);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type LinkRequestWorker = ReturnType<typeof createLinkRequestWorker>;

export class PasswordRejectedError extends AppError {
  constructor(readonly criteria: PasswordCriterion[]) {
    super(
      'password-does-not-meet-requirements',
      AUTH_ERRORS['password-does-not-meet-requirements'].message,
      AUTH_ERRORS['password-does-not-meet-requirements'].status,
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

/**
 * `PATCH /api/User/password`: sets the password through a link and ends every
 * session of the user. The link is checked before the (costly) hash, and
 * tries are limited per address and per CPF.
 */
export async function setPasswordWithLink(
  deps: IdentityDeps,
  input: { cpf: string; token: string; password: string; ip: string },
  now: Date = new Date(),
): Promise<void> {
  const cpf = stripCpf(input.cpf);
  await deps.limiter.hit('passwordPerIp', input.ip);
  await deps.limiter.hit('passwordPerCpf', cpf);
  const tokenHash = hashToken(input.token);
  const link = await findOpenLink(deps.db, tokenHash, now);
  const owner = link ? await findUserByCpf(deps.db, cpf) : undefined;
  if (!link || !owner || owner.id !== link.userId) throw linkInvalid();
  // The link is valid and the account's own: its holder may hear why it still cannot be used.
  if (owner.registerStatus !== 'enabled') throw accountDisabled();
  checkPassword(deps, input.password);
  const passwordHash = await deps.hasher.hash(input.password);
  const userId = await deps.db.transaction(async (tx) => {
    // Claiming the link and checking it in one statement: two concurrent uses cannot both win.
    const claimed = await claimLink(tx, tokenHash, now);
    if (!claimed) throw linkInvalid();
    const user = await findUserByCpf(tx, cpf);
    if (!user || user.id !== claimed.userId) throw linkInvalid();
    // Disabled since the check above: the claim rolls back with the transaction.
    if (user.registerStatus !== 'enabled') throw accountDisabled();
    await updateUser(tx, user.id, { passwordHash });
    await voidOpenLinks(tx, user.id, now);
    await revokeUserSessions(tx, user.id, 'password_change');
    // Proving control of the mailbox ends any lock an attacker caused on the account.
    await resetKey(tx, accountKey(user.email));
    await insertActivity(tx, {
      type: 'password_set',
      actorId: user.id,
      federativeUnit: user.federativeUnit,
      payload: { purpose: claimed.purpose },
    });
    return user.id;
  });
  // Committed: the old sessions leave this instance's cache now (others by NOTIFY).
  forgetCachedSessions({ userId });
}
