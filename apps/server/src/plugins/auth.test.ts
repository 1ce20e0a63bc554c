import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';
import { changePasswordByLink, logout, setRegisterStatus, setRole } from '../../test/sessions';

describe('session tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const me = (authorization?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/Auth/me',
      headers: authorization ? { authorization } : {},
    });

  it.each([
    ['no header', undefined],
    ['not bearer', 'Basic YWRtaW46YWRtaW4='],
    ['empty bearer', 'Bearer '],
    ['random token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    [
      'alg none',
      `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"role":"ADMIN"}').toString('base64url')}.`,
    ],
    ['forged JWT', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiQURNSU4ifQ.c2lnbmF0dXJhLWZhbHNh'],
  ])('refuses %s with 401', async (_name, header) => {
    const response = await me(header);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('an edited token (one character changed) is refused', async () => {
    const { token } = await seedSignedIn(t.app);
    const edited = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await me(`Bearer ${token}`)).statusCode).toBe(200);
    expect((await me(`Bearer ${edited}`)).statusCode).toBe(401);
  });

  it('expires at the absolute lifetime', async () => {
    const { token } = await seedSignedIn(t.app);
    await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('expires after 30 idle minutes', async () => {
    const { token } = await seedSignedIn(t.app);
    await t.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '31 minutes' where revoked_at is null`,
    );
    expect((await me(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('activity keeps an idle session alive', async () => {
    const { token } = await seedSignedIn(t.app);
    await t.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '29 minutes' where revoked_at is null`,
    );
    expect((await me(`Bearer ${token}`)).statusCode).toBe(200);
    const [row] = (
      (await t.database.db.execute(
        sql`select extract(epoch from (now() - max(last_seen_at))) as idle from sessions where revoked_at is null`,
      )) as unknown as { rows: Array<{ idle: string }> }
    ).rows;
    expect(Number(row?.idle)).toBeLessThan(5);
  });

  it('is revoked by logout, disable, role change and password change', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });

    const loggedOut = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    await logout(t.app, loggedOut.auth);
    expect((await me(loggedOut.auth.authorization)).statusCode).toBe(401);

    const disabled = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const disable = await setRegisterStatus(t.app, admin.auth, disabled.user.id, 'disabled');
    expect(disable.statusCode).toBe(200);
    expect((await me(disabled.auth.authorization)).statusCode).toBe(401);
    // Enabling again does not bring the old session back.
    await setRegisterStatus(t.app, admin.auth, disabled.user.id, 'enabled');
    expect((await me(disabled.auth.authorization)).statusCode).toBe(401);

    const promoted = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await setRole(t.app, admin.auth, promoted.user.id, 'auditor')).statusCode).toBe(200);
    expect((await me(promoted.auth.authorization)).statusCode).toBe(401);

    const changed = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    await changePasswordByLink(t.app, changed.user, 'Trocada#2026', '10.30.0.1');
    expect((await me(changed.auth.authorization)).statusCode).toBe(401);

    // The admin's own session was not touched.
    expect((await me(admin.auth.authorization)).statusCode).toBe(200);
  });
});
