/** Helpers for tests that need users, sessions and the mail outbox. */
import type { Role } from '@exame/shared';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
// Brings the app's decorations (database, identity) into the types of every project that imports this file.
import type {} from '../src/app';
import { cpfFromBase } from '../src/db/seed/first-start';
import { mailOutbox } from '../src/db/schema/index';
import { renderMail } from '../src/modules/mail/mailer';
import { insertUser, type UserRow } from '../src/modules/users/users.repository';

let sequence = 0;

export const DEFAULT_PASSWORD = 'Trilha#Segura42';

/** A fresh valid CPF per call. */
export function nextCpf(): string {
  sequence += 1;
  return cpfFromBase(String(700_000_000 + sequence + Math.floor(Math.random() * 1000) * 1000));
}

export type SeedUserOptions = {
  role?: Role;
  unit?: string;
  email?: string;
  name?: string;
  password?: string | null;
  registerStatus?: 'enabled' | 'disabled';
};

export async function seedUser(
  app: FastifyInstance,
  options: SeedUserOptions = {},
): Promise<UserRow> {
  sequence += 1;
  const password = options.password === undefined ? DEFAULT_PASSWORD : options.password;
  return insertUser(app.database.db, {
    name: options.name ?? `Pessoa Teste ${sequence}`,
    email: (options.email ?? `pessoa${sequence}.${Date.now()}@teste.gov.br`).toLowerCase(),
    cpf: nextCpf(),
    federativeUnit: options.unit ?? 'DF',
    role: options.role ?? 'ADMIN',
    registerStatus: options.registerStatus ?? 'enabled',
    passwordHash: password === null ? null : await app.identity.hasher.hash(password),
  });
}

export async function signInAs(
  app: FastifyInstance,
  email: string,
  password = DEFAULT_PASSWORD,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/Auth',
    payload: { email, password },
  });
  if (response.statusCode !== 200)
    throw new Error(`login falhou: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

export async function seedSignedIn(app: FastifyInstance, options: SeedUserOptions = {}) {
  const user = await seedUser(app, options);
  const token = await signInAs(app, user.email, options.password ?? DEFAULT_PASSWORD);
  return { user, token, auth: { authorization: `Bearer ${token}` } };
}

/**
 * `send(method, url, who, payload?)`: a request to the app (read when it is
 * sent) as the signed-in `who`, with `payload` as its JSON body when given.
 */
export function signedSender(app: () => FastifyInstance) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who: { auth: { authorization: string } },
    payload?: object,
  ) => app().inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
}

/**
 * The newest e-mail queued for a recipient (once the queued link requests are
 * worked off), as the recipient reads it, with the token of its link.
 */
export async function lastMailTo(app: FastifyInstance, recipient: string) {
  await app.identity.linkRequests.run();
  const [message] = await app.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, recipient))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!message) return undefined;
  const rendered = renderMail(message);
  return { ...message, ...rendered, link: extractLink(rendered.text) };
}

export function extractLink(
  text: string,
): { url: string; path: string; cpf: string; token: string } | undefined {
  const match =
    /(https?:\/\/\S+\/(reset-password|register-password)\/(\d{11})#token=([A-Za-z0-9_-]+))/.exec(
      text,
    );
  if (!match) return undefined;
  const url = match[1] ?? '';
  return { url, path: new URL(url).pathname, cpf: match[3] ?? '', token: match[4] ?? '' };
}
