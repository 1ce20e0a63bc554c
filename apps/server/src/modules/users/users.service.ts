/**
 * User management. Every operation is scoped to the signed-in user's
 * federative unit, whatever the request says; a user of another unit is
 * simply not found. A change and its activity event share one transaction.
 */
import {
  EXAMINER_ROLES,
  maskCpf,
  maskEmail,
  stripCpf,
  type CreateUserInput,
  type RegisterStatus,
  type Role,
  type User,
} from '@exame/shared';
import { eq, or } from 'drizzle-orm';
import { users } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';
import type { SessionUser } from '../../plugins/auth';
import { insertActivity } from '../activity/activity.repository';
import type { IdentityDeps } from '../auth/identity-deps';
import { issuePasswordLink } from '../auth/password-links.service';
import { revokeUserSessions } from '../auth/sessions.repository';
import {
  findUserById,
  findUserInUnit,
  insertUser,
  listUsersInUnit,
  updateUser,
  type UserRow,
} from './users.repository';

const USER_NOT_FOUND = () => AppError.notFound('Usuário não encontrado!', 'USER_NOT_FOUND');

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

function isUniqueViolation(error: unknown): string | null {
  const candidate = (error as { cause?: unknown })?.cause ?? error;
  const pgError = candidate as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? 'unique') : null;
}

async function assertAvailable(deps: IdentityDeps, email: string, cpf: string): Promise<void> {
  const [clash] = await deps.db
    .select({ email: users.email, cpf: users.cpf })
    .from(users)
    .where(or(eq(users.email, email), eq(users.cpf, cpf)))
    .limit(1);
  if (clash?.email === email)
    throw AppError.conflict('USER_EMAIL_TAKEN', 'Já existe um usuário com este e-mail.');
  if (clash) throw AppError.conflict('USER_CPF_TAKEN', 'Já existe um usuário com este CPF.');
}

async function createUser(
  deps: IdentityDeps,
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
      await issuePasswordLink(deps, tx, row, 'register');
      await insertActivity(tx, {
        type: 'user_add',
        actorId: actor.id,
        federativeUnit: unit,
        payload: { userId: row.id, role: row.role, demo: isDemo },
      });
      return row;
    });
    void deps.mailer
      .flush(deps.db)
      .catch((error: unknown) => deps.log.error({ err: error }, 'falha no envio'));
    return toUser(created);
  } catch (error) {
    const constraint = isUniqueViolation(error);
    if (constraint === 'users_email_key') {
      throw AppError.conflict('USER_EMAIL_TAKEN', 'Já existe um usuário com este e-mail.');
    }
    if (constraint) throw AppError.conflict('USER_CPF_TAKEN', 'Já existe um usuário com este CPF.');
    throw error;
  }
}

/** `POST /api/User/admin`: an ADMIN creates a user of any role in the ADMIN's own unit. */
export function createUserByAdmin(
  deps: IdentityDeps,
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
  deps: IdentityDeps,
  actor: SessionUser,
  input: { name: string; email: string; cpf: string; role: Role },
): Promise<User> {
  if (input.role === 'ADMIN') {
    throw AppError.badRequest(
      'DEMO_ROLE_NOT_ALLOWED',
      'Usuários de demonstração não podem ser administradores.',
    );
  }
  return createUser(deps, actor, input, actor.federativeUnit, true);
}

export async function getUser(deps: IdentityDeps, actor: SessionUser, id: string): Promise<User> {
  const row = await findUserInUnit(deps.db, actor.federativeUnit, eq(users.id, id));
  if (!row) throw USER_NOT_FOUND();
  return toUser(row);
}

export async function getUserByCpf(
  deps: IdentityDeps,
  actor: SessionUser,
  cpf: string,
): Promise<User> {
  const row = await findUserInUnit(deps.db, actor.federativeUnit, eq(users.cpf, stripCpf(cpf)));
  if (!row) throw USER_NOT_FOUND();
  return viewFor(actor, row);
}

export async function getUserByCpfOrEmail(
  deps: IdentityDeps,
  actor: SessionUser,
  value: string,
): Promise<User> {
  const trimmed = value.trim().toLowerCase();
  const where = trimmed.includes('@') ? eq(users.email, trimmed) : eq(users.cpf, stripCpf(trimmed));
  const row = await findUserInUnit(deps.db, actor.federativeUnit, where);
  if (!row) throw USER_NOT_FOUND();
  return viewFor(actor, row);
}

export async function listUsers(
  deps: IdentityDeps,
  actor: SessionUser,
  query: { page: number; pageSize: number; search?: string },
) {
  const { items, total } = await listUsersInUnit(deps.db, actor.federativeUnit, query);
  return { items: items.map(toUser), total, page: query.page, pageSize: query.pageSize };
}

/** `GET api/User/GetAllExaminers`: enabled VIEWER and ROOM_INSPECTOR users of the caller's unit. */
export async function listExaminers(deps: IdentityDeps, actor: SessionUser): Promise<User[]> {
  const { items } = await listUsersInUnit(deps.db, actor.federativeUnit, {
    page: 1,
    pageSize: 1000,
    roles: EXAMINER_ROLES,
  });
  return items.filter((row) => row.registerStatus === 'enabled').map((row) => viewFor(actor, row));
}

export async function setRegisterStatus(
  deps: IdentityDeps,
  actor: SessionUser,
  id: string,
  registerStatus: RegisterStatus,
): Promise<User> {
  if (id === actor.id) {
    throw AppError.badRequest(
      'USER_CANNOT_CHANGE_SELF',
      'Você não pode alterar a situação do seu próprio usuário.',
    );
  }
  return deps.db.transaction(async (tx) => {
    const current = await findUserInUnit(tx, actor.federativeUnit, eq(users.id, id));
    if (!current) throw USER_NOT_FOUND();
    const updated = await updateUser(tx, id, { registerStatus });
    if (!updated) throw USER_NOT_FOUND();
    if (registerStatus === 'disabled') await revokeUserSessions(tx, id, 'disabled');
    await insertActivity(tx, {
      type: registerStatus === 'disabled' ? 'user_disable' : 'user_enable',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { userId: id },
    });
    return toUser(updated);
  });
}

export async function changeRole(
  deps: IdentityDeps,
  actor: SessionUser,
  id: string,
  role: Role,
): Promise<User> {
  if (id === actor.id) {
    throw AppError.badRequest(
      'USER_CANNOT_CHANGE_SELF',
      'Você não pode alterar o perfil do seu próprio usuário.',
    );
  }
  return deps.db.transaction(async (tx) => {
    const current = await findUserInUnit(tx, actor.federativeUnit, eq(users.id, id));
    if (!current) throw USER_NOT_FOUND();
    if (current.role === role) return toUser(current);
    const updated = await updateUser(tx, id, { role });
    if (!updated) throw USER_NOT_FOUND();
    await revokeUserSessions(tx, id, 'role_change');
    await insertActivity(tx, {
      type: 'user_role_change',
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: { userId: id, from: current.role, to: role },
    });
    return toUser(updated);
  });
}

export async function getProfile(deps: IdentityDeps, actor: SessionUser): Promise<User> {
  const row = await findUserById(deps.db, actor.id);
  if (!row) throw AppError.unauthorized();
  return toUser(row);
}

export type { CreateUserInput };
