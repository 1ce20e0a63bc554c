/**
 * PostgreSQL restarted under load: while the database server cannot be
 * reached the app answers 503 with `Retry-After` and code
 * DATABASE_UNAVAILABLE (readiness says not ready), the process stays up
 * (/health/live answers), and once the server is back the pool reconnects
 * by itself: the same requests succeed, nothing restarted.
 *
 * The restart is a small TCP proxy in front of the test's PostgreSQL that
 * the test closes (cutting every live connection, as a restart does) and
 * opens again on the same port. PostgreSQL only: the embedded PGlite lives
 * in the process and has no connection to lose.
 */
import net from 'node:net';
import { SERVER_ERRORS } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { databaseUnavailable } from '../../src/db/errors';
import { ensureReferenceData } from '../../src/db/seed/reference-data';
import {
  buildTestApp,
  createTestDatabase,
  testDatabaseUrl,
  type TestApp,
  type TestDatabase,
} from '../helper';
import { seedSignedIn } from '../identity';

/** A TCP proxy to PostgreSQL that can be cut and opened again on the same port. */
async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  await open();
  return {
    port: () => port,
    /** Refuses new connections and cuts the live ones. */
    cut: async () => {
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closing;
    },
    open,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server?.listening ? server.close(() => resolve()) : resolve(),
      );
    },
  };
}

describe.skipIf(!testDatabaseUrl)('PostgreSQL reiniciado sob carga', () => {
  let database: TestDatabase;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let viaProxy: Awaited<ReturnType<typeof openDatabase>>;
  let t: TestApp;
  let auth: { authorization: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    await ensureReferenceData(database.db);
    const direct = new URL(database.url ?? '');
    proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port());
    viaProxy = await openDatabase({
      kind: 'postgres',
      url: proxied.toString(),
      poolSize: 4,
      connectTimeoutMs: 1000,
    });
    t = await buildTestApp({
      database: { ...database, ...viaProxy, drop: async () => {} },
      // Every request reads its session: the cache would hide the outage from reads.
      config: { sessionCacheMs: 0 },
    });
    ({ auth } = await seedSignedIn(t.app));
  });

  afterAll(async () => {
    await t?.app.close();
    await viaProxy?.close().catch(() => undefined);
    await proxy?.close();
    await database?.drop();
  });

  const list = () => t.app.inject({ method: 'GET', url: '/api/SchedulingLocal', headers: auth });
  const create = (identifier: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocal',
      headers: auth,
      payload: { identifier, description: `Posto ${identifier}` },
    });

  /** Answers 503 while the database cannot be reached, as a client sees it. */
  const expectUnavailable = (response: Awaited<ReturnType<typeof list>>) => {
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
      Error: SERVER_ERRORS.DATABASE_UNAVAILABLE.message,
    });
  };

  /**
   * After the database is back: rounds of as many reads at once as the pool
   * holds connections, until one round is served whole. A connection the cut
   * left idle in the pool may not have noticed yet: the request that meets
   * it answers 503 (the client retries after Retry-After) and the pool drops
   * it, so one round clears them all. Returns the rounds it took.
   */
  const roundsUntilServed = async (): Promise<number> => {
    for (let round = 1; round <= 5; round += 1) {
      const responses = await Promise.all(Array.from({ length: 4 }, () => list()));
      for (const response of responses)
        if (response.statusCode !== 200) expectUnavailable(response);
      if (responses.every((response) => response.statusCode === 200)) return round;
    }
    return Number.POSITIVE_INFINITY;
  };

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while it is down, and recovers by itself', async () => {
    // Load before: the pool holds live connections.
    const before = await Promise.all([list(), list(), create('ANTES1'), create('ANTES2')]);
    expect(before.map((response) => response.statusCode)).toEqual([200, 200, 201, 201]);
    expect(viaProxy.poolStats().total).toBeGreaterThan(0);

    await proxy.cut();
    const during = await Promise.all([list(), create('DURANTE'), list()]);
    for (const response of during) expectUnavailable(response);
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    expect(ready.headers['retry-after']).toBe('5');
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);

    await proxy.open();
    expect(await roundsUntilServed()).toBeLessThanOrEqual(2);
    const after = await Promise.all([list(), create('DEPOIS'), list()]);
    expect(after.map((response) => response.statusCode)).toEqual([200, 201, 200]);
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);

    // The write refused during the outage was not half-made; those before and after are there.
    const found = (await list()).json() as { items: Array<{ identifier: string }> };
    expect(found.items.map((item) => item.identifier).sort()).toEqual([
      'ANTES1',
      'ANTES2',
      'DEPOIS',
    ]);
  });

  it('answers 503 when the connection is cut in the middle of a statement', async () => {
    const running = viaProxy.executeRaw('select pg_sleep(30)');
    // Wait (directly, not through the proxy) until the statement is running on the server.
    for (;;) {
      const { rows } = await database.executeRaw(
        "select count(*)::int as n from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'",
      );
      if ((rows[0] as { n: number }).n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await proxy.cut();
    const failure = await running.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).not.toBeNull();
    expect(databaseUnavailable(failure)).toBe(true);
    await proxy.open();
    expect(await roundsUntilServed()).toBeLessThanOrEqual(2);
  });
});
