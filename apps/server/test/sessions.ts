/**
 * What ends a user's sessions, as the session tests call it through the API
 * (logout, disabling, a role change, a password change by e-mail link), and a
 * database that records every statement for the tests that count them.
 */
import type { Role } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { buildTestApp, createTestDatabase, type BuildTestAppOptions, type TestApp } from './helper';
import { lastMailTo } from './identity';

type Auth = { authorization: string };

/** `GET api/Auth/me` with a session (401 once it has ended). */
export function me(app: FastifyInstance, auth: Auth) {
  return app.inject({ method: 'GET', url: '/api/Auth/me', headers: auth });
}

export function logout(app: FastifyInstance, auth: Auth) {
  return app.inject({ method: 'POST', url: '/api/Auth/logout', headers: auth });
}

/** An ADMIN disables (or enables again) a user. */
export function setRegisterStatus(
  app: FastifyInstance,
  adminAuth: Auth,
  userId: string,
  registerStatus: 'enabled' | 'disabled',
) {
  return app.inject({
    method: 'PUT',
    url: `/api/User/${userId}/enableDisable`,
    headers: adminAuth,
    payload: { registerStatus },
  });
}

/** An ADMIN gives a user another role. */
export function setRole(app: FastifyInstance, adminAuth: Auth, userId: string, role: Role) {
  return app.inject({
    method: 'PUT',
    url: `/api/User/${userId}/role`,
    headers: adminAuth,
    payload: { role },
  });
}

/**
 * The user asks for a reset link (from `remoteAddress`) and sets `password`
 * with it: the response of that last call.
 */
export async function changePasswordByLink(
  app: FastifyInstance,
  user: { email: string; cpf: string },
  password: string,
  remoteAddress: string,
) {
  await app.inject({ method: 'POST', url: `/api/User/reset/${user.email}`, remoteAddress });
  const link = (await lastMailTo(app, user.email))?.link;
  return app.inject({
    method: 'PATCH',
    url: '/api/User/password',
    payload: { cpf: user.cpf, token: link?.token, password },
  });
}

/**
 * An app on a fresh database (with its reference data) that pushes every
 * statement sent to `statements`; closing it drops the database.
 */
export async function buildRecordingApp(
  statements: string[],
  options: Omit<BuildTestAppOptions, 'database'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase({ onQuery: (query) => statements.push(query) });
  await ensureReferenceData(database.db);
  const built = await buildTestApp({ ...options, database });
  return {
    ...built,
    close: async () => {
      await built.close();
      await database.drop();
    },
  };
}

/** How many of `statements` read the sessions table. */
export function sessionReadsIn(statements: string[]): number {
  return statements.filter((query) => /from "sessions"/.test(query)).length;
}
