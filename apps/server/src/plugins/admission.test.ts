/**
 * The database admission line in front of the API: beyond its bound a fast
 * 503 with Retry-After and a stable code, nothing written by a refused
 * request, health checks never held back.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { nextCpf, seedSignedIn } from '../../test/identity';

type Gate = { open: () => void; wait: Promise<void> };

function gate(): Gate {
  let open = () => undefined as void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, wait };
}

async function count(t: TestApp, table: 'users' | 'activity_log'): Promise<number> {
  const result = (await t.database.db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

describe('database admission line (one request at a time, one waiting)', () => {
  let t: TestApp;
  const gates: Gate[] = [];
  let entered = 0;

  beforeAll(async () => {
    t = await buildTestApp({
      config: {
        database: {
          poolSize: 4,
          connectTimeoutMs: 5000,
          preparedStatements: true,
          admission: { maxActive: 1, maxQueued: 1, maxWaitMs: 2_000 },
        },
      },
      beforeReady: (app) => {
        // An API route that holds its place until the test lets it go.
        app.get('/api/__test/hold', { config: { access: 'public' } }, async () => {
          entered += 1;
          const next = gates.shift();
          await next?.wait;
          return { ok: true };
        });
      },
    });
  });
  afterAll(() => t.close());

  it('beyond the bound answers at once 503 SERVER_BUSY with Retry-After; health is never held', async () => {
    const holding = gate();
    gates.push(holding);
    const first = t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    await expect.poll(() => entered).toBe(1);
    // The one place is taken: the next request waits in line...
    const queued = t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    await expect.poll(() => t.app.admission.stats().queued).toBe(1);
    // ...and the line (one) is full: refused at once.
    const started = Date.now();
    const refused = await t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(refused.statusCode).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({
      Error: 'O servidor está atendendo muitas solicitações agora. Tente novamente em instantes.',
      code: 'SERVER_BUSY',
    });
    // Liveness and readiness do not wait for the database line.
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    holding.open();
    expect((await first).statusCode).toBe(200);
    // The waiting request got the place once it was given back.
    expect((await queued).statusCode).toBe(200);
    expect(t.app.admission.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('a refused write leaves nothing written', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
    const users = await count(t, 'users');
    const events = await count(t, 'activity_log');

    const holding = gate();
    gates.push(holding);
    const before = entered;
    const first = t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    await expect.poll(() => entered).toBe(before + 1);
    const queued = t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    await expect.poll(() => t.app.admission.stats().queued).toBe(1);

    const create = await t.app.inject({
      method: 'POST',
      url: '/api/User',
      headers: admin.auth,
      payload: {
        name: 'Pessoa Recusada',
        email: 'recusada@teste.gov.br',
        cpf: nextCpf(),
        role: 'VIEWER',
      },
    });
    expect(create.statusCode).toBe(503);
    expect(create.json()).toMatchObject({ code: 'SERVER_BUSY' });
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/logout',
      headers: admin.auth,
    });
    expect(logout.statusCode).toBe(503);

    holding.open();
    await first;
    await queued;
    expect(await count(t, 'users')).toBe(users);
    expect(await count(t, 'activity_log')).toBe(events);
    // The refused logout did not end the session.
    const me = await t.app.inject({ method: 'GET', url: '/api/Auth/me', headers: admin.auth });
    expect(me.statusCode).toBe(200);

    // With the line free, the same write goes through.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/User',
      headers: admin.auth,
      payload: {
        name: 'Pessoa Aceita',
        email: 'aceita@teste.gov.br',
        cpf: nextCpf(),
        role: 'VIEWER',
      },
    });
    expect(again.statusCode).toBe(201);
    expect(await count(t, 'users')).toBe(users + 1);
  });

  it('a request that waits longer than the bound is refused, and its place is not lost', async () => {
    const holding = gate();
    gates.push(holding);
    const before = entered;
    const first = t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    await expect.poll(() => entered).toBe(before + 1);
    const started = Date.now();
    const waited = await t.app.inject({ method: 'GET', url: '/api/__test/hold' });
    expect(waited.statusCode).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    holding.open();
    expect((await first).statusCode).toBe(200);
    expect(t.app.admission.stats()).toMatchObject({ active: 0, queued: 0 });
  });
});
