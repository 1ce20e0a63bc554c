import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import {
  DEFAULT_PASSWORD,
  lastMailTo,
  seedSignedIn,
  seedUser,
  signInAs,
} from '../../../test/identity';
import { createPasswordHasher } from '../../lib/password-hash';

/** Three failures block an account; the wait grows a minute per failure, up to 15. */
const THROTTLE = {
  failureFactor: 3,
  ipFailureFactor: 50,
  waitIncrementMs: 60_000,
  maxWaitMs: 900_000,
};

describe('sign-in (POST api/Auth)', () => {
  let t: TestApp;
  const calls = { verify: 0, verifyNothing: 0 };
  beforeAll(async () => {
    const real = createPasswordHasher({ memoryCost: 19_456, timeCost: 2 });
    t = await buildTestApp({
      hasher: {
        hash: real.hash,
        verify: (hash, password) => {
          calls.verify += 1;
          return real.verify(hash, password);
        },
        verifyNothing: (password) => {
          calls.verifyNothing += 1;
          return real.verifyNothing(password);
        },
      },
      config: { loginThrottle: THROTTLE },
    });
  });
  afterAll(() => t.close());

  const login = (
    email: string,
    password: string,
    headers: Record<string, string> = {},
    remoteAddress?: string,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email, password },
      headers,
      remoteAddress,
    });

  it('answers the user of spec 7 with a session token', async () => {
    const user = await seedUser(t.app, { role: 'auditor', unit: 'SP', name: 'Maria Auditora' });
    const response = await login(user.email.toUpperCase(), DEFAULT_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      name: 'Maria Auditora',
      email: user.email,
      cpf: user.cpf,
      federativeUnit: 'SP',
      // Spec 1 and 7: the auditor role is written `auditor` on the wire; spec 3 lists registerStatus.
      roleDescription: 'auditor',
      registerStatus: 'enabled',
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    // The token is not stored: only its hash is.
    const stored = await t.database.db.execute(sql`select token_hash from sessions`);
    expect(JSON.stringify(stored)).not.toContain(body.token);
  });

  it('no enumeration: missing, passwordless, and wrong passwords of enabled and disabled accounts get the same answer after the same work', async () => {
    const enabled = await seedUser(t.app);
    const disabled = await seedUser(t.app, { registerStatus: 'disabled' });
    const passwordless = await seedUser(t.app, { password: null });
    const cases = [
      { email: 'ninguem@teste.gov.br', password: DEFAULT_PASSWORD, expect: 'verifyNothing' },
      { email: passwordless.email, password: DEFAULT_PASSWORD, expect: 'verifyNothing' },
      { email: disabled.email, password: 'senha-errada-123', expect: 'verify' },
      { email: enabled.email, password: 'senha-errada-123', expect: 'verify' },
    ] as const;
    const answers = new Set<string>();
    for (const [index, item] of cases.entries()) {
      const before = { ...calls };
      const response = await login(item.email, item.password, {}, `10.1.0.${index + 1}`);
      // Every answer names its own request (requestId); the rest is the same for all.
      const { requestId, ...body } = response.json() as Record<string, unknown>;
      expect(requestId).toBe(response.headers['x-request-id']);
      answers.add(`${response.statusCode} ${JSON.stringify(body)}`);
      expect(calls.verify + calls.verifyNothing).toBe(before.verify + before.verifyNothing + 1);
      expect(calls[item.expect]).toBe(before[item.expect] + 1);
    }
    expect([...answers]).toEqual([
      '401 {"Error":"E-mail ou senha incorretos.","code":"invalid-credentials"}',
    ]);
  });

  it('brute force: failures block the account with login-blocked, even with the right password', async () => {
    const user = await seedUser(t.app);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await login(user.email, `errada-${attempt}`, {}, '10.2.0.1')).statusCode).toBe(401);
    }
    const blocked = await login(user.email, DEFAULT_PASSWORD, {}, '10.2.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      Error: 'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.',
      code: 'login-blocked',
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('two instances behind one address count the same failures and honour the same block', async () => {
    // A second instance: same database, its own memory (session cache, hasher, hooks).
    const other = await buildTestApp({
      database: t.database,
      config: { loginThrottle: THROTTLE },
    });
    try {
      const user = await seedUser(t.app);
      const through = (app: TestApp, password: string, address: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: { email: user.email, password },
          remoteAddress: address,
        });
      // Alternating instances: a counter kept in each process would allow 3 failures on each.
      expect((await through(t, 'errada-1', '10.9.0.1')).statusCode).toBe(401);
      expect((await through(other, 'errada-2', '10.9.0.2')).statusCode).toBe(401);
      expect((await through(t, 'errada-3', '10.9.0.3')).statusCode).toBe(401);
      const blocked = await through(other, DEFAULT_PASSWORD, '10.9.0.4');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('login-blocked');
      expect((await through(t, DEFAULT_PASSWORD, '10.9.0.5')).json().code).toBe('login-blocked');
      // A session opened through one instance is accepted by the other.
      const colleague = await seedUser(t.app);
      const token = await signInAs(t.app, colleague.email);
      const me = await other.app.inject({
        method: 'GET',
        url: '/api/Auth/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode, me.body).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('a missing account blocks the same way (blocking reveals nothing)', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1)
      await login('fantasma@teste.gov.br', 'x', {}, '10.3.0.1');
    const blocked = await login('fantasma@teste.gov.br', 'x', {}, '10.3.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('login-blocked');
  });

  it('after the wait a success resets the counter; the wait never passes the cap', async () => {
    const user = await seedUser(t.app);
    for (let attempt = 1; attempt <= 3; attempt += 1)
      await login(user.email, 'errada', {}, '10.4.0.1');
    // Pretend the wait has passed, with many failures on record.
    await t.database.db.execute(
      sql`update login_throttle set locked_until = now() - interval '1 second', failures = 300 where key = ${`account:${user.email}`}`,
    );
    expect((await login(user.email, DEFAULT_PASSWORD, {}, '10.4.0.2')).statusCode).toBe(200);
    const rows = await t.database.db.execute(
      sql`select * from login_throttle where key = ${`account:${user.email}`}`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(0);
    // A flood of failures locks for at most the maximum wait (15 min): the victim gets back in.
    await t.database.db.execute(
      sql`insert into login_throttle (key, failures) values (${`account:${user.email}`}, 9999)`,
    );
    await login(user.email, 'errada', {}, '10.4.0.3');
    const [row] = (
      (await t.database.db.execute(
        sql`select extract(epoch from (locked_until - now())) as wait from login_throttle where key = ${`account:${user.email}`}`,
      )) as unknown as { rows: Array<{ wait: string }> }
    ).rows;
    expect(Number(row?.wait)).toBeLessThanOrEqual(900);
    expect(Number(row?.wait)).toBeGreaterThan(890);
  });

  const deviceCookie = (response: { headers: Record<string, unknown> }) => {
    const header = String(response.headers['set-cookie'] ?? '');
    return /^exame_device=([A-Za-z0-9_-]{43});/.exec(header)?.[1] ?? '';
  };

  it('a successful sign-in sets the trusted-device cookie: HttpOnly, SameSite=Strict, only for api/Auth', async () => {
    const user = await seedUser(t.app);
    const response = await login(user.email, DEFAULT_PASSWORD, {}, '10.5.1.1');
    expect(response.statusCode).toBe(200);
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(
      /^exame_device=[A-Za-z0-9_-]{43}; Path=\/api\/Auth; Max-Age=2592000; HttpOnly; SameSite=Strict$/,
    );
    // Only its hash is stored.
    const stored = await t.database.db.execute(sql`select token_hash from trusted_devices`);
    expect(JSON.stringify(stored)).not.toContain(deviceCookie(response));
    // A failed sign-in sets nothing.
    expect(
      (await login(user.email, 'errada', {}, '10.5.1.1')).headers['set-cookie'],
    ).toBeUndefined();
  });

  it("an attacker cannot lock the owner out: the owner's browser still signs in, a known address alone does not, and a reset ends the lock", async () => {
    const victim = await seedUser(t.app);
    // The owner has signed in before from the office, in this browser.
    const first = await login(victim.email, DEFAULT_PASSWORD, {}, '10.5.0.10');
    expect(first.statusCode).toBe(200);
    const device = deviceCookie(first);
    expect(device).not.toBe('');
    // An attacker elsewhere keeps failing, from many addresses.
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      await login(victim.email, `chute-${attempt}`, {}, `198.18.0.${attempt}`);
    }
    expect((await login(victim.email, DEFAULT_PASSWORD, {}, '198.18.0.99')).statusCode).toBe(429);
    // An address is not a device: the office address without the browser's cookie is blocked too.
    expect((await login(victim.email, DEFAULT_PASSWORD, {}, '10.5.0.10')).statusCode).toBe(429);
    // A made-up cookie does not help.
    const forged = { cookie: `exame_device=${'A'.repeat(43)}` };
    expect((await login(victim.email, DEFAULT_PASSWORD, forged, '10.5.0.10')).statusCode).toBe(429);
    // The owner's browser, from anywhere, is not blocked.
    const owner = { cookie: `exame_device=${device}` };
    const back = await login(victim.email, DEFAULT_PASSWORD, owner, '192.0.2.77');
    expect(back.statusCode).toBe(200);
    expect(deviceCookie(back)).toBe(device);
    // The cookie is the owner's: it does not open another locked account.
    const other = await seedUser(t.app);
    for (let attempt = 1; attempt <= 3; attempt += 1)
      await login(other.email, 'x', {}, '198.18.1.1');
    expect((await login(other.email, DEFAULT_PASSWORD, owner, '10.5.0.10')).statusCode).toBe(429);
    // From a new browser the owner can end the lock by resetting the password.
    await t.app.inject({
      method: 'POST',
      url: `/api/User/reset/${victim.email}`,
      remoteAddress: '10.5.0.11',
    });
    const link = (await lastMailTo(t.app, victim.email))?.link;
    const reset = await t.app.inject({
      method: 'PATCH',
      url: '/api/User/password',
      payload: { cpf: victim.cpf, token: link?.token, password: 'Recomeço#2026' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(victim.email, 'Recomeço#2026', {}, '10.5.0.12')).statusCode).toBe(200);
  });

  it('a trusted browser has a failure counter of its own: a stolen cookie gives no free guesses', async () => {
    const user = await seedUser(t.app);
    const device = deviceCookie(await login(user.email, DEFAULT_PASSWORD, {}, '10.5.2.1'));
    const withCookie = { cookie: `exame_device=${device}` };
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(
        (await login(user.email, `errada-${attempt}`, withCookie, '10.5.2.1')).statusCode,
      ).toBe(401);
    }
    expect((await login(user.email, DEFAULT_PASSWORD, withCookie, '10.5.2.1')).statusCode).toBe(
      429,
    );
  });

  it('behind a reverse proxy without TRUST_PROXY every client shares one address: the owners still get in', async () => {
    const proxied = await buildTestApp({
      config: {
        loginThrottle: {
          failureFactor: 3,
          ipFailureFactor: 4,
          waitIncrementMs: 60_000,
          maxWaitMs: 900_000,
        },
      },
    });
    try {
      const proxy = '10.0.0.2';
      const attempt = (email: string, password: string, headers: Record<string, string> = {}) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: { email, password },
          headers,
          remoteAddress: proxy,
        });
      const users = [await seedUser(proxied.app), await seedUser(proxied.app)];
      const cookies = [];
      for (const user of users) {
        const response = await attempt(user.email, DEFAULT_PASSWORD);
        expect(response.statusCode).toBe(200);
        cookies.push({ cookie: `exame_device=${deviceCookie(response)}` });
      }
      // One attacker, seen as the proxy, fails against everybody: the shared address locks.
      for (let index = 0; index < 8; index += 1) await attempt(`alvo${index}@teste.gov.br`, 'x');
      for (const user of users) await attempt(user.email, 'x');
      expect((await attempt(users[0]!.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
      // Each owner's browser is not held back by the address or the account lock.
      for (const [index, user] of users.entries()) {
        expect((await attempt(user.email, DEFAULT_PASSWORD, cookies[index])).statusCode).toBe(200);
      }
    } finally {
      await proxied.close();
    }
  });

  it('parallel guesses are counted before the password is checked: 30 at once get exactly the 3 allowed', async () => {
    const user = await seedUser(t.app);
    const before = calls.verify + calls.verifyNothing;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        login(user.email, `paralela-${index}`, {}, '10.7.0.1'),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(27);
    expect(calls.verify + calls.verifyNothing - before).toBe(3);
  });

  it('many sign-ins of one account at once, right password: each gets in or waits (429), none fails (5xx)', async () => {
    // Releases (the account's counter deleted) and reservations (the counter
    // created again and locked) cross: PostgreSQL may pick a deadlock victim,
    // which is run again instead of answering 500.
    const user = await seedUser(t.app);
    for (let round = 0; round < 3; round += 1) {
      const responses = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          login(user.email, DEFAULT_PASSWORD, {}, `10.8.${round}.${index % 2}`),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(statuses).toContain(200);
    }
  });

  it('the whole password counts: a pair sharing the first 72 bytes is not interchangeable', async () => {
    const prefix = 'a'.repeat(72);
    const user = await seedUser(t.app, { password: `${prefix}-primeira` });
    expect((await login(user.email, `${prefix}-segunda`, {}, '10.6.0.1')).statusCode).toBe(401);
    expect((await login(user.email, prefix, {}, '10.6.0.2')).statusCode).toBe(401);
    expect((await login(user.email, `${prefix}-primeira`, {}, '10.6.0.3')).statusCode).toBe(200);
  });

  it('a spoofed X-Forwarded-For does not escape the per-address limit', async () => {
    const ipLimited = await buildTestApp({
      config: {
        loginThrottle: {
          failureFactor: 100,
          ipFailureFactor: 4,
          waitIncrementMs: 60_000,
          maxWaitMs: 900_000,
        },
      },
    });
    try {
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        const response = await ipLimited.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: { email: `alvo${attempt}@teste.gov.br`, password: 'x' },
          headers: { 'x-forwarded-for': `203.0.113.${attempt}` },
          remoteAddress: '198.51.100.7',
        });
        expect(response.statusCode).toBe(401);
      }
      const blocked = await ipLimited.app.inject({
        method: 'POST',
        url: '/api/Auth',
        payload: { email: 'outro@teste.gov.br', password: 'x' },
        headers: { 'x-forwarded-for': '203.0.113.99' },
        remoteAddress: '198.51.100.7',
      });
      expect(blocked.statusCode).toBe(429);
    } finally {
      await ipLimited.close();
    }
  });

  it('X-Forwarded-For is honoured only from a configured proxy', async () => {
    const proxied = await buildTestApp({
      config: {
        trustProxy: ['198.51.100.1'],
        loginThrottle: {
          failureFactor: 100,
          ipFailureFactor: 2,
          waitIncrementMs: 60_000,
          maxWaitMs: 900_000,
        },
      },
    });
    try {
      const attempt = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: { email: 'x@teste.gov.br', password: 'x' },
          headers: { 'x-forwarded-for': client },
          remoteAddress: '198.51.100.1',
        });
      await attempt('203.0.113.10');
      await attempt('203.0.113.10');
      expect((await attempt('203.0.113.10')).statusCode).toBe(429);
      // Another client behind the same proxy is not blocked.
      expect((await attempt('203.0.113.11')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('validates the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('GET api/Auth/me and logout', async () => {
    const { user, auth } = await seedSignedIn(t.app, { role: 'VIEWER' });
    const me = await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, roleDescription: 'VIEWER', hasPassword: true });
    expect(me.body).not.toContain('password');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/Auth/logout', headers: auth })).statusCode,
    ).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
  });

  it('serves the password policy, schema version 1', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/Auth/password-policy' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      schemaVersion: 1,
      customStrengthOptions: { minPasswordLength: 6 },
    });
  });

  it('signInAs helper works with a real hash', async () => {
    const user = await seedUser(t.app);
    await expect(signInAs(t.app, user.email)).resolves.toMatch(/.{43}/);
  });
});
