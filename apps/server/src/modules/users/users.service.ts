/**
 * User management. Every operation is scoped to the signed-in user's
 * federative unit, whatever the request says; a user of another unit is
 * simply not found. A change and its activity event share one transaction.
 */
import {
  EXAMINER_ROLES,
  maskCpf,
  maskEmail,
  pageReply,
  stripCpf,
  type CreateUserInput,
  type RegisterStatus,
  type Page,
  type Role,
  type User,
  type UserQuery,
  USER_ERRORS,
} from '@exame/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import { forgetCachedSessions } from '../../lib/session-cache';
import type { SessionUser } from '../../lib/actors';
import { insertActivity, type ActivityType } from '../activity/activity.service';
import type { Mailer } from '../mail/mail.service';
import {
  findUserById,
  findUserByEmailOrCpf,
  findUserInUnit,
  insertUser,
  listUsersInUnit,
  updateUser,
  type UserLookup,
  type UserRow,
} from './users.repository';

/** Why a change ends the user's sessions. */
export type SessionEndReason = 'disabled' | 'role_change';

/**
 * What user management needs, built once by app.ts. Passwords and sessions
 * belong to the auth module, which sits above this one (it reads users
 * through this service): app.ts hands its two steps in here.
 */
export type UsersDeps = {
  db: Database;
  mailer: Pick<Mailer, 'flush'>;
  log: FastifyBaseLogger;
  /** Auth: voids older links and queues the register link of a new user, in `tx`. */
  issueRegisterLink(
    tx: Executor,
    user: Pick<UserRow, 'id' | 'name' | 'email' | 'cpf'>,
  ): Promise<void>;
  /** Auth: ends every open session of the user, in `tx`. */
  revokeSessions(tx: Executor, userId: string, reason: SessionEndReason): Promise<void>;
};

const userError = (code: keyof typeof USER_ERRORS) => AppError.from(USER_ERRORS, code);
const USER_NOT_FOUND = () => userError('USER_NOT_FOUND');

/**
 * What a role sees of other users: ADMIN manages them (the user screens need
 * the whole CPF, e.g. to enrol a face) and sees everything; the other roles
 * see names with masked CPF and e-mail, as their screens show them. Everyone
 * sees their own record whole.
 */
function viewFor(actor: SessionUser, row: UserRow): User {
  const user = toUser(row);
  if (actor.role === 'ADMIN' || actor.id === row.id) return user;
  return { ...user, cpf: maskCpf(row.cpf), email: maskEmail(row.email) };
}

/**
 * Whole CPFs of other people leave the server only for ADMIN screens, and each
 * such read is written down (`cpf_view`, with the ids read, never the CPFs).
 */
async function recordWholeCpfRead(
  deps: UsersDeps,
  actor: SessionUser,
  rows: UserRow[],
): Promise<void> {
  if (actor.role !== 'ADMIN') return;
  const userIds = rows.filter((row) => row.id !== actor.id).map((row) => row.id);
  if (userIds.length === 0) return;
  await insertActivity(deps.db, {
    type: 'cpf_view',
    actorId: actor.id,
    federativeUnit: actor.federativeUnit,
    payload: { userIds },
  });
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    cpf: row.cpf,
    federativeUnit: row.federativeUnit,
    roleDescription: row.role,
    registerStatus: row.registerStatus,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function assertAvailable(deps: UsersDeps, email: string, cpf: string): Promise<void> {
  const clash = await findUserByEmailOrCpf(deps.db, email, cpf);
  if (clash?.email === email) throw userError('USER_EMAIL_TAKEN');
  if (clash) throw userError('USER_CPF_TAKEN');
}

async function createUser(
  deps: UsersDeps,
  actor: SessionUser,
  input: { name: string; email: string; cpf: string; role: Role },
  unit: string,
  isDemo: boolean,
): Promise<User> {
  await assertAvailable(deps, input.email, input.cpf);
  try {
    const created = await deps.db.transaction(async (tx) => {
      const row = await insertUser(tx, {
        name: input.name,
        email: input.email,
        cpf: input.cpf,
        role: input.role,
        federativeUnit: unit,
        registerStatus: 'enabled',
        isDemo,
        createdBy: actor.id,
      });
      await deps.issueRegisterLink(tx, row);
      await insertActivity(tx, {
        type: 'user_add',
        actorId: actor.id,
        federativeUnit: unit,
        payload: { userId: row.id, role: row.role, demo: isDemo },
        target: `user:${row.id}`,
      });
      return row;
    });
    void deps.mailer
      .flush(deps.db)
      .catch((error: unknown) => deps.log.error({ err: error }, 'falha no envio'));
    return toUser(created);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint === 'users_email_key') throw userError('USER_EMAIL_TAKEN');
    if (constraint) throw userError('USER_CPF_TAKEN');
    throw error;
  }
}

/** `POST /api/User/admin`: an ADMIN creates a user of any role in the ADMIN's own unit. */
export function createUserByAdmin(
  deps: UsersDeps,
  actor: SessionUser,
  input: { name: string; email: string; cpf: string; role: Role },
): Promise<User> {
  return createUser(deps, actor, input, actor.federativeUnit, false);
}

/**
 * `POST api/User`: a demonstration user (never an ADMIN), flagged as demo, in
 * the caller's own unit like every other write: an ADMIN of one unit can
 * create nothing that another unit (DEMO included) sees.
 */
export function createDemoUser(
  deps: UsersDeps,
  actor: SessionUser,
  input: { name: string; email: string; cpf: string; role: Role },
): Promise<User> {
  if (input.role === 'ADMIN') {
    throw userError('DEMO_ROLE_NOT_ALLOWED');
  }
  return createUser(deps, actor, input, actor.federativeUnit, true);
}

/** A user of the actor's unit, as the actor's role sees it; a whole CPF read is recorded. */
async function readUserInUnit(
  deps: UsersDeps,
  actor: SessionUser,
  lookup: UserLookup,
): Promise<User> {
  const row = await findUserInUnit(deps.db, actor.federativeUnit, lookup);
  if (!row) throw USER_NOT_FOUND();
  await recordWholeCpfRead(deps, actor, [row]);
  return viewFor(actor, row);
}

export function getUser(deps: UsersDeps, actor: SessionUser, id: string): Promise<User> {
  return readUserInUnit(deps, actor, { id });
}

export function getUserByCpf(deps: UsersDeps, actor: SessionUser, cpf: string): Promise<User> {
  return readUserInUnit(deps, actor, { cpf: stripCpf(cpf) });
}

export function getUserByCpfOrEmail(
  deps: UsersDeps,
  actor: SessionUser,
  value: string,
): Promise<User> {
  const trimmed = value.trim().toLowerCase();
  return readUserInUnit(
    deps,
    actor,
    trimmed.includes('@') ? { email: trimmed } : { cpf: stripCpf(trimmed) },
  );
}

export async function listUsers(
  deps: UsersDeps,
  actor: SessionUser,
  query: UserQuery,
): Promise<Page<User>> {
  const { items, total } = await listUsersInUnit(deps.db, actor.federativeUnit, query);
  await recordWholeCpfRead(deps, actor, items);
  return pageReply(query, {
    items: items.map((row) => ({ ...toUser(row), hasSecondFactor: row.hasSecondFactor })),
    total,
  });
}

/** `GET api/User/GetAllExaminers`: enabled VIEWER and ROOM_INSPECTOR users of the caller's unit. */
export async function listExaminers(deps: UsersDeps, actor: SessionUser): Promise<User[]> {
  const { items } = await listUsersInUnit(deps.db, actor.federativeUnit, {
    page: 1,
    pageSize: 1000,
    roles: EXAMINER_ROLES,
  });
  const enabled = items.filter((row) => row.registerStatus === 'enabled');
  await recordWholeCpfRead(deps, actor, enabled);
  return enabled.map((row) => viewFor(actor, row));
}

type UserChange = {
  patch: Parameters<typeof updateUser>[2];
  /** Ends the user's sessions, with this reason. */
  revokeSessions?: SessionEndReason;
  type: ActivityType;
  payload: Record<string, unknown>;
};

/**
 * Changes another user of the actor's unit (never oneself): the change, the
 * end of the user's sessions when asked and the activity event share one
 * transaction. `plan` returns null when there is nothing to change.
 */
async function changeOtherUser(
  deps: UsersDeps,
  actor: SessionUser,
  id: string,
  plan: (current: UserRow) => UserChange | null,
): Promise<User> {
  if (id === actor.id) throw userError('USER_CANNOT_CHANGE_SELF');
  const changed = await deps.db.transaction(async (tx) => {
    const current = await findUserInUnit(tx, actor.federativeUnit, { id });
    if (!current) throw USER_NOT_FOUND();
    const change = plan(current);
    if (!change) return toUser(current);
    const updated = await updateUser(tx, id, change.patch);
    if (!updated) throw USER_NOT_FOUND();
    if (change.revokeSessions) await deps.revokeSessions(tx, id, change.revokeSessions);
    await insertActivity(tx, {
      type: change.type,
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: change.payload,
    });
    return toUser(updated);
  });
  // Committed: the user's cached sessions (role, status) go now on this instance (others by NOTIFY).
  forgetCachedSessions({ userId: id });
  return changed;
}

export function setRegisterStatus(
  deps: UsersDeps,
  actor: SessionUser,
  id: string,
  registerStatus: RegisterStatus,
): Promise<User> {
  return changeOtherUser(deps, actor, id, () => ({
    patch: { registerStatus },
    revokeSessions: registerStatus === 'disabled' ? 'disabled' : undefined,
    type: registerStatus === 'disabled' ? 'user_disable' : 'user_enable',
    payload: { userId: id },
  }));
}

export function changeRole(
  deps: UsersDeps,
  actor: SessionUser,
  id: string,
  role: Role,
): Promise<User> {
  return changeOtherUser(deps, actor, id, (current) =>
    current.role === role
      ? null
      : {
          patch: { role },
          revokeSessions: 'role_change',
          type: 'user_role_change',
          payload: { userId: id, from: current.role, to: role },
        },
  );
}

export async function getProfile(deps: Pick<UsersDeps, 'db'>, actor: SessionUser): Promise<User> {
  const row = await findUserById(deps.db, actor.id);
  if (!row) throw AppError.unauthorized();
  return toUser(row);
}

/**
 * Whether a signed address (lib/signed-access.ts) may still open for the
 * viewer it was made for: the account exists, is enabled, is of the unit of
 * what it opens and still has a role that may see it. Checked each time the
 * address is served, so disabling a user, or changing their role or unit,
 * ends the addresses they hold at once rather than when they expire.
 */
export async function maySignedViewerOpen(
  db: Executor,
  viewerId: string,
  rule: { federativeUnit: string; roles: readonly Role[] },
): Promise<boolean> {
  const viewer = await findUserById(db, viewerId);
  return (
    viewer !== undefined &&
    viewer.registerStatus === 'enabled' &&
    viewer.federativeUnit === rule.federativeUnit &&
    rule.roles.includes(viewer.role)
  );
}

export type { CreateUserInput };

// The door of this module for the others (modules import each other only through services).
export {
  findUserByCpf,
  findUserByEmail,
  findUserById,
  findUserInUnit,
  updateUser,
  type UserRow,
} from './users.repository';
