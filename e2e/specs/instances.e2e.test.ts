/**
 * Two server instances on one PostgreSQL behind one address behave as one:
 * both start together on a fresh database (migrations and the first ADMIN
 * once), a small HTTP proxy in front sends each request to the instance the
 * test names, and in Chromium a person signs in through A and works through
 * B, then page after page through one and the other. A change made through A reaches a
 * realtime client of B; the proxy's request id follows each request; each
 * instance counts what it served in its own metrics.
 *
 * Skipped, saying so, when no PostgreSQL answers at 127.0.0.1:5432 (CI has
 * one); TEST_DATABASE_URL names another server.
 */
import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../apps/server/test/realtime';
import { examPayload } from '../../apps/server/test/exams';
import { ADMIN, signIn } from '../support/auth';
import { axeViolations } from '../support/axe';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { createLocalInUi } from '../support/locals';
import { freePort, startServer, type RunningServer } from '../support/server';

const ADMIN_URL =
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = randomBytes(24).toString('base64url');

async function postgresAnswers(): Promise<boolean> {
  const address = new URL(ADMIN_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(address.port || 5432), address.hostname);
    socket.setTimeout(1500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const reachable = await postgresAnswers();
if (!reachable) {
  console.warn(
    `PostgreSQL não respondeu em ${new URL(ADMIN_URL).host}: o teste de duas instâncias foi pulado.`,
  );
}

type Instance = 'A' | 'B';
type Served = { method: string; path: string; instance: Instance; requestId: string };

/** One address in front of both instances; `route` says which one answers the next requests. */
async function startProxy(ports: Record<Instance, number>) {
  const state = { mode: 'A' as Instance, count: 0 };
  const served: Served[] = [];
  const server = http.createServer((request, response) => {
    const instance = state.mode;
    const requestId = `proxy-${instance}-${String(++state.count).padStart(6, '0')}`;
    served.push({
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0]!,
      instance,
      requestId,
    });
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: ports[instance],
        method: request.method,
        path: request.url,
        headers: {
          ...request.headers,
          'x-forwarded-for': request.socket.remoteAddress ?? '127.0.0.1',
          'x-request-id': requestId,
        },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          'x-served-by': instance,
        });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    route(mode: Instance) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sample's value in a Prometheus text answer (0 when absent). */
function metric(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && wanted.every((pair) => line.includes(pair)))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe.skipIf(!reachable)('two instances on one PostgreSQL behind one address', () => {
  const database = `e2e_instancias_${Date.now()}_${randomBytes(3).toString('hex')}`;
  let a: RunningServer;
  let b: RunningServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let browser: Browser;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    const env = {
      DATABASE_URL: url.toString(),
      // What every instance shares: the key of the files, the first ADMIN, the proxy it trusts.
      FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_FEDERATIVE_UNIT: 'DF',
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1',
      METRICS_TOKEN,
    };
    // Both start at once on the empty database.
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    proxy = await startProxy({ A: a.port, B: b.port });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('signed in through A, a service post created through B, then pages from one and the other', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchPageErrors(page);

    proxy.route('A');
    await signIn(page, proxy.url, ADMIN.email, ADMIN.password);
    expect(proxy.served).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/Auth', instance: 'A' }),
    );

    // From here on, instance B answers: the session made by A is B's too.
    proxy.route('B');
    const before = proxy.served.length;
    await createLocalInUi(page, { identifier: 'DF.INSTANCIAS', name: 'Posto Duas Instâncias' });
    const throughB = proxy.served.slice(before);
    expect(throughB).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/api/SchedulingLocal', instance: 'B' }),
    );
    expect(throughB.every((request) => request.instance === 'B')).toBe(true);
    expect(await page.title()).toMatch(/\S/);
    expect(
      (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    ).toEqual([]);
    await screenshot(page, 'instances-local-created-through-b');

    // Page after page, each answered by the other instance: the same list whoever answers.
    for (const instance of ['A', 'B', 'A', 'B'] as const) {
      proxy.route(instance);
      const from = proxy.served.length;
      await page.reload();
      await page.getByRole('cell', { name: 'Posto Duas Instâncias', exact: true }).waitFor();
      expect(proxy.served.slice(from)).toContainEqual(
        expect.objectContaining({ method: 'GET', path: '/api/SchedulingLocal', instance }),
      );
    }
    expect(errors).toEqual([]);
    await page.close();

    // Each instance counts what it served: the creation on B only.
    const read = async (server: RunningServer) =>
      (
        await fetch(`${server.baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        })
      ).text();
    const created = { method: 'POST', route: '/api/SchedulingLocal', status_class: '2xx' };
    expect(metric(await read(b), 'exame_http_requests_total', created)).toBe(1);
    expect(metric(await read(a), 'exame_http_requests_total', created)).toBe(0);
  });

  it("a change made through A reaches B's realtime client; the proxy's request id is kept", async () => {
    proxy.route('A');
    const signedIn = await fetch(`${proxy.url}/api/Auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(signedIn.status).toBe(200);
    // The id the proxy gave the request is the one the instance answered and logged with.
    const given = proxy.served.at(-1)!;
    expect(signedIn.headers.get('x-request-id')).toBe(given.requestId);
    const { token } = (await signedIn.json()) as { token: string };

    proxy.route('B');
    const keyAnswer = await fetch(`${proxy.url}/api/Integration/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sistema de provas' }),
    });
    expect(keyAnswer.status).toBe(201);
    const { key } = (await keyAnswer.json()) as { key: string };
    const refused = await fetch(`${proxy.url}/api/Integration/exams`, {
      method: 'POST',
      headers: { 'x-api-key': 'exk_invalida', 'content-type': 'application/json' },
      body: JSON.stringify({ exams: [] }),
    });
    expect(await refused.json()).toMatchObject({
      code: 'API_KEY_INVALID',
      requestId: proxy.served.at(-1)!.requestId,
    });

    const onB = await openStream(b.baseUrl, token);
    try {
      const exam = examPayload();
      const pushed = await fetch(`${a.baseUrl}/api/Integration/exams`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ exams: [exam] }),
      });
      expect(pushed.status).toBe(200);
      const [event] = await onB.waitForEvents(1);
      expect(event).toMatchObject({
        kind: 'exam_changed',
        payload: { schedulingId: exam.schedulingId },
      });
    } finally {
      onB.close();
    }
  });
});
