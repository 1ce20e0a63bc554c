/**
 * The session cache (lib/session-cache.ts): a signed-in user's requests within
 * its TTL read no session from the database, and every revocation still takes
 * effect at once on this instance, through NOTIFY on the others, and within
 * the TTL at worst.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeUserSessions } from '../modules/auth/sessions.repository';
import { buildTestApp, openSameDatabase, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';
import {
  changePasswordByLink,
  logout,
  me as meOf,
  buildRecordingApp,
  sessionReadsIn,
  setRegisterStatus,
  setRole,
} from '../../test/sessions';

describe('session cache', () => {
  const statements: string[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await buildRecordingApp(statements, { config: { sessionCacheMs: 5_000 } });
  });
  afterAll(() => t.close());

  const me = (auth: { authorization: string }) => meOf(t.app, auth);
  const sessionReads = () => sessionReadsIn(statements);

  /** Statements sent while `run` runs. */
  async function sent(run: () => Promise<unknown>): Promise<string[]> {
    const from = statements.length;
    await run();
    return statements.slice(from);
  }

  it('a cached session costs no statement; the reads cost one each', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const first = await sent(() => me(admin.auth));
    expect(sessionReadsIn(first)).toBe(1);
    const reads = sessionReads();
    const again = await sent(() => me(admin.auth));
    expect(sessionReads()).toBe(reads);
    // `me` reads the user's own row: that is all that is left.
    expect(again).toHaveLength(1);

    // The main authenticated reads: one statement each (page and total together).
    const read = (url: string) =>
      sent(() => t.app.inject({ method: 'GET', url, headers: admin.auth }));
    expect(await read('/api/Exam')).toHaveLength(1);
    // Only the admin in the unit: no other person's CPF read, so no cpf_view record either.
    expect(await read('/api/User')).toHaveLength(1);
    expect(await read('/api/ExamReport?startDate=2026-01-01&endDate=2026-01-31')).toHaveLength(1);
    expect(sessionReads()).toBe(reads);
  });

  it('logout ends a cached session at once', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(user.auth)).statusCode).toBe(200);
    expect((await me(user.auth)).statusCode).toBe(200);
    expect((await logout(t.app, user.auth)).statusCode).toBeLessThan(300);
    expect((await me(user.auth)).statusCode).toBe(401);
  });

  it('disabling, a role change and a password change end cached sessions at once', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });

    const disabled = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(disabled.auth)).statusCode).toBe(200);
    const disable = await setRegisterStatus(t.app, admin.auth, disabled.user.id, 'disabled');
    expect(disable.statusCode).toBe(200);
    expect((await me(disabled.auth)).statusCode).toBe(401);

    const promoted = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(promoted.auth)).statusCode).toBe(200);
    expect((await setRole(t.app, admin.auth, promoted.user.id, 'ADMIN')).statusCode).toBe(200);
    // The cached VIEWER session does not carry on, let alone as ADMIN.
    expect((await me(promoted.auth)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/User', headers: promoted.auth })).statusCode,
    ).toBe(401);

    const changed = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(changed.auth)).statusCode).toBe(200);
    const set = await changePasswordByLink(t.app, changed.user, 'Trocada#2026x', '10.40.0.1');
    expect(set.statusCode).toBeLessThan(300);
    expect((await me(changed.auth)).statusCode).toBe(401);

    expect((await me(admin.auth)).statusCode).toBe(200);
  });

  it('a revocation by another instance reaches this one through NOTIFY', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(user.auth)).statusCode).toBe(200);
    // Another instance's transaction: the same statements, on its own connection.
    const other = await openSameDatabase(t.database);
    try {
      await other.db.transaction((tx) => revokeUserSessions(tx, user.user.id, 'disabled'));
    } finally {
      await other.drop();
    }
    await expect.poll(async () => (await me(user.auth)).statusCode, { timeout: 2_000 }).toBe(401);
  });
});

describe('session cache TTL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { sessionCacheMs: 300 } });
  });
  afterAll(() => t.close());

  const me = (auth: { authorization: string }) => meOf(t.app, auth);

  it('bounds what a change without notice (a manual UPDATE) can miss', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(user.auth)).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update sessions set revoked_at = now(), revoked_reason = 'manual' where user_id = ${user.user.id}`,
    );
    expect((await me(user.auth)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await me(user.auth)).statusCode).toBe(401);
  });

  it('expired sessions are refused once the entry is past its TTL', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await me(user.auth)).statusCode).toBe(200);
    await t.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.user.id}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await me(user.auth)).statusCode).toBe(401);
  });
});

describe('session cache and the session lifetime', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      config: { sessionCacheMs: 5_000, session: { absoluteMs: 1_000, idleMs: 30 * 60_000 } },
    });
  });
  afterAll(() => t.close());

  it('a cached session still ends at its absolute lifetime', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const me = () => meOf(t.app, user.auth);
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Well within the cache's 5 s: the entry's own expiry decides.
    expect((await me()).statusCode).toBe(401);
  });
});

describe('session cache off (SESSION_CACHE_SECONDS=0)', () => {
  const statements: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await buildRecordingApp(statements, { config: { sessionCacheMs: 0 } });
  });
  afterAll(() => t.close());

  it('reads the session on every request, as before the cache', async () => {
    const user = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    for (let index = 0; index < 3; index += 1) {
      const from = statements.length;
      expect((await meOf(t.app, user.auth)).statusCode).toBe(200);
      expect(sessionReadsIn(statements.slice(from))).toBe(1);
    }
  });
});
