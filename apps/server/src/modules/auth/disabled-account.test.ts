/**
 * A disabled account is named as such only to who proves it is theirs: after
 * its right password at sign-in, or with a valid password link. A wrong
 * password or an invalid link answers as for any account (no enumeration;
 * see auth.test.ts and password-links.test.ts).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, lastMailTo, seedUser } from '../../../test/identity';

describe('a disabled account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      // Three failures block an account: a right password must not count as one.
      config: {
        loginThrottle: {
          failureFactor: 3,
          ipFailureFactor: 50,
          waitIncrementMs: 60_000,
          maxWaitMs: 900_000,
        },
      },
      rateLimits: { passwordPerIp: { limit: 1000 } },
    });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/Auth', payload: { email, password }, remoteAddress });
  const requestReset = (value: string) =>
    t.app.inject({ method: 'POST', url: `/api/User/reset/${encodeURIComponent(value)}` });
  const setPassword = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: '/api/User/password', payload: body });

  it('a disabled account hears it is disabled, and whom to ask, only after its right password', async () => {
    const disabled = await seedUser(t.app, { registerStatus: 'disabled' });
    const sessionsBefore = await t.database.db.execute(
      sql`select count(*)::int as n from sessions`,
    );
    const wrong = await login(disabled.email, 'senha-errada-123', '10.3.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid-credentials' });

    const right = await login(disabled.email, DEFAULT_PASSWORD, '10.3.0.2');
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({
      code: 'user-disabled',
      Error:
        'Esta conta está desativada. Para voltar a usá-la, peça ao administrador da sua unidade que a reative.',
    });
    expect(right.json()).not.toHaveProperty('token');
    expect(right.headers['set-cookie']).toBeUndefined();
    // No session was opened.
    const sessionsAfter = await t.database.db.execute(sql`select count(*)::int as n from sessions`);
    expect(JSON.stringify(sessionsAfter)).toBe(JSON.stringify(sessionsBefore));
    // The right password gives its attempt back: asking again still says why, never "blocked".
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const again = await login(disabled.email, DEFAULT_PASSWORD, '10.3.0.3');
      expect(again.json()).toMatchObject({ code: 'user-disabled' });
    }
  });

  it('a valid link of an account disabled since it was sent says the account is disabled; an invalid one says nothing more', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const link = (await lastMailTo(t.app, user.email))?.link;
    await t.database.db.execute(
      sql`update users set register_status = 'disabled' where cpf = ${user.cpf}`,
    );
    const forged = await setPassword({
      cpf: user.cpf,
      token: 'x'.repeat(43),
      password: 'Desativada#2026',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'LINK_INVALID' });
    const other = await seedUser(t.app);
    expect(
      (
        await setPassword({ cpf: other.cpf, token: link?.token, password: 'Desativada#2026' })
      ).json().code,
    ).toBe('LINK_INVALID');

    const valid = await setPassword({
      cpf: user.cpf,
      token: link?.token,
      password: 'Desativada#2026',
    });
    expect(valid.statusCode).toBe(403);
    expect(valid.json()).toMatchObject({
      code: 'user-disabled',
      Error:
        'Esta conta está desativada. Para voltar a usá-la, peça ao administrador da sua unidade que a reative.',
    });
    // Nothing changed: enabled again, the same link still sets the password.
    await t.database.db.execute(
      sql`update users set register_status = 'enabled' where cpf = ${user.cpf}`,
    );
    expect(
      (await setPassword({ cpf: user.cpf, token: link?.token, password: 'Reativada#2026' }))
        .statusCode,
    ).toBe(200);
  });
});
