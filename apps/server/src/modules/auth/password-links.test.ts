import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { ensureReferenceData } from '../../db/seed/reference-data';
import { RATE_LIMITS } from '../../db/rate-limit';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helper';
import { lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';

describe('password links', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Many passwords are set from one test address here; the limits have their own tests below.
    t = await buildTestApp({ rateLimits: { passwordPerIp: { limit: 1000 } } });
  });
  afterAll(() => t.close());

  let client = 0;
  // Each request from its own address, so the per-address limit stays out of the way.
  const nextAddress = () => `10.20.${Math.floor(++client / 250)}.${client % 250}`;
  const requestReset = (value: string, remoteAddress = nextAddress()) =>
    t.app.inject({
      method: 'POST',
      url: `/api/User/reset/${encodeURIComponent(value)}`,
      remoteAddress,
    });
  const setPassword = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: '/api/User/password', payload: body });

  it('reset by e-mail or CPF sends a single link that sets the password and ends every session', async () => {
    const { user, auth } = await seedSignedIn(t.app, { role: 'auditor' });
    const response = await requestReset(user.cpf);
    expect(response.statusCode).toBe(202);
    const mail = await lastMailTo(t.app, user.email);
    expect(mail?.subject).toBe('Redefinição de senha');
    expect(mail?.link?.path).toBe(`/reset-password/${user.cpf}`);
    expect(mail?.link?.token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    // Stored hashed only.
    const stored = await t.database.db.execute(sql`select token_hash from password_links`);
    expect(JSON.stringify(stored)).not.toContain(mail?.link?.token);

    const done = await setPassword({
      cpf: user.cpf,
      token: mail?.link?.token,
      password: 'Nova#Senha2026',
    });
    expect(done.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: auth })).statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: user.email, password: 'Nova#Senha2026' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('no enumeration: existing, missing and disabled accounts get the same answer', async () => {
    const enabled = await seedUser(t.app);
    const disabled = await seedUser(t.app, { registerStatus: 'disabled' });
    const answers = new Set<string>();
    for (const value of [
      enabled.email,
      'ninguem@teste.gov.br',
      disabled.email,
      '529.982.247-25',
      'lixo',
    ]) {
      const response = await requestReset(value);
      answers.add(`${response.statusCode} ${response.body}`);
    }
    expect([...answers]).toHaveLength(1);
    expect([...answers][0]).toContain('202');
    expect(await lastMailTo(t.app, disabled.email)).toBeUndefined();
  });

  it('a link works once', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const link = (await lastMailTo(t.app, user.email))?.link;
    expect(
      (await setPassword({ cpf: user.cpf, token: link?.token, password: 'Primeira#Vez1' }))
        .statusCode,
    ).toBe(200);
    const again = await setPassword({
      cpf: user.cpf,
      token: link?.token,
      password: 'Segunda#Vez2',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      Error: 'Este link é inválido ou expirou. Solicite um novo link.',
      code: 'LINK_INVALID',
    });
  });

  it('a link expires after 30 minutes', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const link = (await lastMailTo(t.app, user.email))?.link;
    const [row] = (
      (await t.database.db.execute(
        sql`select extract(epoch from (expires_at - created_at)) as ttl from password_links order by created_at desc limit 1`,
      )) as unknown as { rows: Array<{ ttl: string }> }
    ).rows;
    expect(Number(row?.ttl)).toBe(1800);
    await t.database.db.execute(
      sql`update password_links set expires_at = now() - interval '1 second'`,
    );
    expect(
      (await setPassword({ cpf: user.cpf, token: link?.token, password: 'Tarde#Demais1' })).json()
        .code,
    ).toBe('LINK_INVALID');
  });

  it('a newer link voids the older one', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const older = (await lastMailTo(t.app, user.email))?.link;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await requestReset(user.email);
    const newer = (await lastMailTo(t.app, user.email))?.link;
    expect(newer?.token).not.toBe(older?.token);
    expect(
      (await setPassword({ cpf: user.cpf, token: older?.token, password: 'Antigo#Link1' })).json()
        .code,
    ).toBe('LINK_INVALID');
    expect(
      (await setPassword({ cpf: user.cpf, token: newer?.token, password: 'Novo#Link2' }))
        .statusCode,
    ).toBe(200);
  });

  it("another user's CPF with the token is refused, and the link stays usable by its owner", async () => {
    const owner = await seedUser(t.app);
    const other = await seedUser(t.app);
    await requestReset(owner.email);
    const link = (await lastMailTo(t.app, owner.email))?.link;
    expect(
      (await setPassword({ cpf: other.cpf, token: link?.token, password: 'Invasor#2026' })).json()
        .code,
    ).toBe('LINK_INVALID');
    expect(
      (await setPassword({ cpf: owner.cpf, token: link?.token, password: 'Dono#2026x' }))
        .statusCode,
    ).toBe(200);
  });

  it('two uses of the same link at once: exactly one wins', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const link = (await lastMailTo(t.app, user.email))?.link;
    const results = await Promise.all([
      setPassword({ cpf: user.cpf, token: link?.token, password: 'Corrida#Um1' }),
      setPassword({ cpf: user.cpf, token: link?.token, password: 'Corrida#Dois2' }),
    ]);
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 400]);
  });

  it('the password policy and the common-password list apply, criterion by criterion', async () => {
    const user = await seedUser(t.app);
    await requestReset(user.email);
    const link = (await lastMailTo(t.app, user.email))?.link;
    const short = await setPassword({ cpf: user.cpf, token: link?.token, password: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'password-does-not-meet-requirements',
      details: [{ path: 'body.password', message: 'Pelo menos 6 caracteres' }],
    });
    const common = await setPassword({ cpf: user.cpf, token: link?.token, password: 'senha123' });
    expect(common.json().details).toEqual([
      { path: 'body.password', message: 'Não ser uma senha comum' },
    ]);
    // The rejected attempts did not use up the link.
    expect(
      (await setPassword({ cpf: user.cpf, token: link?.token, password: 'Girassol#Azul9' }))
        .statusCode,
    ).toBe(200);
  });

  it('verifyEmail re-sends the register link only to a user without a password', async () => {
    const fresh = await seedUser(t.app, { password: null });
    const active = await seedUser(t.app);
    for (const user of [fresh, active]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/User/verifyEmail/${user.email}`,
      });
      expect(response.statusCode).toBe(202);
    }
    expect((await lastMailTo(t.app, fresh.email))?.link?.path).toBe(
      `/register-password/${fresh.cpf}`,
    );
    expect(await lastMailTo(t.app, active.email)).toBeUndefined();
  });

  it('first-password requests answer the same for new, active, missing and disabled accounts', async () => {
    const fresh = await seedUser(t.app, { password: null });
    const active = await seedUser(t.app);
    const disabled = await seedUser(t.app, { password: null, registerStatus: 'disabled' });
    const answers = new Set<string>();
    for (const value of [
      fresh.email,
      active.email,
      'ninguem@teste.gov.br',
      disabled.email,
      disabled.cpf,
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/User/verifyEmail/${encodeURIComponent(value)}`,
        remoteAddress: nextAddress(),
      });
      answers.add(`${response.statusCode} ${response.body}`);
    }
    expect([...answers]).toHaveLength(1);
    expect(await lastMailTo(t.app, disabled.email)).toBeUndefined();
  });

  it('link requests are limited per address and per account, across addresses', async () => {
    let last = 0;
    for (let attempt = 0; attempt < 11; attempt += 1) {
      last = (await requestReset(`limite${attempt}@teste.gov.br`, '192.0.2.55')).statusCode;
    }
    expect(last).toBe(429);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push((await requestReset('mesma.conta@teste.gov.br')).statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('the per-account limit is one for the account, whether it is named by e-mail or by CPF', async () => {
    const user = await seedUser(t.app);
    // Alternating the two, each typed value stays within its own limit: every answer is the same.
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await requestReset(attempt % 2 === 0 ? user.email : user.cpf)).statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202]);
    // The worker, which knows the account, sends as many links as the account's limit, no more.
    await t.app.identity.linkRequests.run();
    const [sent] = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from mail_outbox where recipient = ${user.email}`,
    );
    expect(sent?.n).toBe(RATE_LIMITS.linkPerAccount.limit);
  });

  it('setting a password checks the link before hashing, and is limited per CPF', async () => {
    const hashes = { count: 0 };
    const counted = await buildTestApp({
      hasher: {
        ...t.app.identity.hasher,
        hash: (password: string) => {
          hashes.count += 1;
          return t.app.identity.hasher.hash(password);
        },
      },
    });
    try {
      const user = await seedUser(counted.app);
      hashes.count = 0;
      const attempt = () =>
        counted.app.inject({
          method: 'PATCH',
          url: '/api/User/password',
          payload: { cpf: user.cpf, token: 'x'.repeat(43), password: 'Qualquer#Senha2026' },
        });
      const statuses = [];
      for (let index = 0; index < 6; index += 1) statuses.push((await attempt()).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      // No link was valid: not one argon2id hash was spent.
      expect(hashes.count).toBe(0);
    } finally {
      await counted.close();
    }
  });
});

describe('link requests answer before any account lookup', () => {
  let t: TestApp;
  const statements: string[] = [];
  let recording = false;
  beforeAll(async () => {
    const database = await createTestDatabase({
      onQuery: (query) => {
        if (recording) statements.push(query);
      },
    });
    await ensureReferenceData(database.db);
    t = await buildTestApp({ database, linkRequests: 'manual' });
  });
  afterAll(async () => {
    await t.close();
    await t.database.drop();
  });

  const request = async (kind: 'reset' | 'verifyEmail', value: string) => {
    statements.length = 0;
    recording = true;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/User/${kind}/${encodeURIComponent(value)}`,
      remoteAddress: '10.30.0.1',
    });
    recording = false;
    return { answer: `${response.statusCode} ${response.body}`, work: [...statements] };
  };

  it('existing, missing, disabled and passwordless accounts, by e-mail or CPF: the same statements, then the link', async () => {
    const enabled = await seedUser(t.app);
    const disabled = await seedUser(t.app, { registerStatus: 'disabled' });
    const fresh = await seedUser(t.app, { password: null });
    const cases: Array<['reset' | 'verifyEmail', string]> = [
      ['reset', enabled.email],
      ['reset', 'ninguem@teste.gov.br'],
      ['reset', disabled.email],
      ['reset', enabled.cpf],
      ['reset', '529.982.247-25'],
      ['verifyEmail', fresh.email],
      ['verifyEmail', enabled.email],
      ['verifyEmail', 'ninguem@teste.gov.br'],
    ];
    const results = [];
    for (const [kind, value] of cases) results.push(await request(kind, value));
    expect(new Set(results.map((result) => result.answer)).size).toBe(1);
    expect(results[0]?.answer).toMatch(/^202 /);
    const reference = JSON.stringify(results[0]?.work);
    for (const result of results) expect(JSON.stringify(result.work)).toBe(reference);
    // The request path never reads users or writes links: that work comes after the answer.
    expect(reference).not.toMatch(/"users"|password_links|mail_outbox/);
    expect(await mailCount()).toBe(0);

    await t.app.identity.linkRequests.run();
    expect((await lastMailTo(t.app, enabled.email))?.link?.path).toBe(
      `/reset-password/${enabled.cpf}`,
    );
    expect((await lastMailTo(t.app, fresh.email))?.link?.path).toBe(
      `/register-password/${fresh.cpf}`,
    );
    expect(await lastMailTo(t.app, disabled.email)).toBeUndefined();
    // Two reset requests for `enabled` (e-mail and CPF): the newer link voids the older.
    expect(await mailCount()).toBe(3);
    const queued = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from password_link_requests`,
    );
    expect(queued).toEqual([{ n: 0 }]);
  });

  const mailCount = async () =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from mail_outbox`,
      )
    )[0]?.n;
});
