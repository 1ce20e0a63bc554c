/**
 * Re-authentication before sensitive actions: a session whose last proof is
 * older than REAUTH_WINDOW_MS is refused `reauth-required` on each sensitive
 * route until the person confirms e-mail and password again; another
 * account's credentials get `user-mismatch`; a wrong password does not end
 * the session and counts against the sign-in throttle.
 */
import { REAUTH_WINDOW_MS } from '@exame/shared';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser } from '../../../test/identity';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';

/** The sensitive actions of the product, and changes to one's own (or a user's) second factors. */
const SENSITIVE = [
  'POST /api/Auth/factors/totp',
  'POST /api/Auth/factors/passkey/options',
  'POST /api/Auth/factors',
  'DELETE /api/Auth/factors/:id',
  'POST /api/Auth/recovery-codes',
  'DELETE /api/User/:id/factors',
  'POST /api/Audit/:examId/reopen',
  'PUT /api/User/:id/enableDisable',
  'PUT /api/User/:id/role',
  'POST /api/Integration/keys',
  'DELETE /api/Integration/keys/:id',
  'GET /api/ActivityLog/export',
  'POST /api/IdentityProvider',
  'PUT /api/IdentityProvider/:id',
  'DELETE /api/IdentityProvider/:id',
];

describe('re-authentication before sensitive actions', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;

  /** Makes the admin's last proof older than the window. */
  const age = () =>
    t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)}
           where user_id = ${admin.user.id}`,
    );
  const reauth = (payload: object, headers = admin.auth) =>
    t.app.inject({ method: 'POST', url: '/api/Auth/reauthenticate', headers, payload });

  beforeAll(async () => {
    t = await buildTestApp({ config: { sessionCacheMs: 0 } });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  });
  afterAll(() => t.close());

  it('exactly the sensitive routes ask for a recent proof', () => {
    const marked = t.app.registeredRoutes
      .filter((route) => route.reauth && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(marked).toEqual([...SENSITIVE].sort());
  });

  it('an old proof gets reauth-required on every sensitive route; a fresh sign-in or a re-authentication lets them through', async () => {
    const target = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    const calls: InjectOptions[] = [
      {
        method: 'PUT',
        url: `/api/User/${target.id}/enableDisable`,
        payload: { registerStatus: 'disabled' },
      },
      { method: 'PUT', url: `/api/User/${target.id}/role`, payload: { role: 'ROOM_INSPECTOR' } },
      { method: 'POST', url: '/api/Integration/keys', payload: { name: 'Chave sensível' } },
      { method: 'GET', url: '/api/ActivityLog/export' },
    ];
    // Just signed in: the sign-in is the proof.
    const fresh = await t.app.inject({ ...calls[2]!, headers: admin.auth });
    expect(fresh.statusCode, fresh.body).toBe(201);

    await age();
    for (const call of calls) {
      const refused = await t.app.inject({ ...call, headers: admin.auth });
      expect(refused.statusCode, `${call.url}: ${refused.body}`).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'reauth-required',
        Error: 'Por segurança, confirme a sua senha para continuar.',
      });
    }
    const [user] = await selectRows<{ register_status: string; role: string }>(
      t.database.db,
      sql`select register_status, role from users where id = ${target.id}`,
    );
    expect(user).toEqual({ register_status: 'enabled', role: 'VIEWER' });
    // Reads that are not sensitive go on as before.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/User', headers: admin.auth })).statusCode,
    ).toBe(200);

    expect(
      (await reauth({ email: admin.user.email.toUpperCase(), password: DEFAULT_PASSWORD }))
        .statusCode,
    ).toBe(204);
    for (const call of calls) {
      const done = await t.app.inject({ ...call, headers: admin.auth });
      expect(done.statusCode, `${call.url}: ${done.body}`).toBeLessThan(300);
    }
  });

  it("another account's right credentials get user-mismatch; a wrong password keeps the session and counts as a failed sign-in", async () => {
    await age();
    const other = await seedUser(t.app, { role: 'ADMIN', unit: 'DF' });
    const mismatch = await reauth({ email: other.email, password: DEFAULT_PASSWORD });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json()).toMatchObject({
      code: 'user-mismatch',
      Error: 'As credenciais informadas não pertencem ao usuário atual.',
    });
    const wrong = await reauth({ email: admin.user.email, password: 'Errada#123456' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'reauth-invalid-credentials' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: admin.auth })).statusCode,
    ).toBe(200);
    const still = await t.app.inject({
      method: 'POST',
      url: '/api/Integration/keys',
      headers: admin.auth,
      payload: { name: 'Outra' },
    });
    expect(still.json()).toMatchObject({ code: 'reauth-required' });
    // Guessing is throttled like the sign-in: the account locks after repeated failures.
    let last = 0;
    for (let attempt = 0; attempt < 6; attempt += 1) {
      last = (await reauth({ email: admin.user.email, password: `Errada#${attempt}xyz` }))
        .statusCode;
    }
    expect(last).toBe(429);
  });

  it('reopening a decision asks for the proof too', async () => {
    // A fresh ADMIN (the other one's account is locked by the test above) pushes the exam.
    const keeper = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const key = await createApiKeyFor(t.app, keeper.auth, 'Reabertura');
    const exam = examPayload({
      schedulingId: 'REAUTH-REABRIR',
      status: 'done',
      result: 'approved',
    });
    expect((await postExams(t.app, key.key, [exam])).statusCode).toBe(200);
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from exams where scheduling_id = 'REAUTH-REABRIR'`,
    );
    await t.database.db.execute(
      sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)} where user_id = ${keeper.user.id}`,
    );
    const reopen = await t.app.inject({
      method: 'POST',
      url: `/api/Audit/${row!.id}/reopen`,
      headers: keeper.auth,
      payload: { reason: 'Reavaliar as fotos da prova.' },
    });
    expect(reopen.statusCode).toBe(403);
    expect(reopen.json()).toMatchObject({ code: 'reauth-required' });
  });

  it("a re-authentication made through another instance counts at once, whatever this instance's session cache holds", async () => {
    const cached = await buildTestApp({ database: t.database, config: { sessionCacheMs: 60_000 } });
    try {
      const session = await seedSignedIn(cached.app, { role: 'ADMIN', unit: 'DF' });
      await t.database.db.execute(
        sql`update sessions set proven_at = ${new Date(Date.now() - REAUTH_WINDOW_MS - 1000)}
             where user_id = ${session.user.id}`,
      );
      // Read once: the old proof is now in this instance's cache.
      const me = await cached.app.inject({
        method: 'GET',
        url: '/api/Auth/me',
        headers: session.auth,
      });
      expect(me.statusCode).toBe(200);
      const refused = await cached.app.inject({
        method: 'POST',
        url: '/api/Integration/keys',
        headers: session.auth,
        payload: { name: 'Antes' },
      });
      expect(refused.json()).toMatchObject({ code: 'reauth-required' });
      // Another instance records the new proof; its notice has not arrived here.
      await t.database.db.execute(
        sql`update sessions set proven_at = now() where user_id = ${session.user.id}`,
      );
      const created = await cached.app.inject({
        method: 'POST',
        url: '/api/Integration/keys',
        headers: session.auth,
        payload: { name: 'Depois' },
      });
      expect(created.statusCode, created.body).toBe(201);
    } finally {
      await cached.close();
    }
  });
});
