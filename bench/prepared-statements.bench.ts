/**
 * Whether the prepared-statement plumbing (`DB_PREPARED_STATEMENTS`, on by
 * default: node-postgres told to prepare each parameterised statement once
 * per connection; on PGlite's worker the same) earns its place, under what
 * users do: a mixed load of reads and writes, never one address repeated.
 *
 * Two servers of the real app side by side on the same data (on PostgreSQL
 * one database, on PGlite two copies of one seeded folder), one with prepared
 * statements and one without, measured in turn for `--rounds` rounds of
 * `--seconds` each, so that a busy machine weighs on both. The load comes
 * from a child process: `--connections` loops, each picking its next request
 * at random from the mix below, with varied pages, filters, periods and
 * exams, and new page views and exam pushes every time:
 *
 *   3  GET  api/Exam (page 1-10, five filters)          admin
 *   2  GET  api/ExamReport (thirty periods)             admin
 *   2  GET  api/Audit/queue (page 1-5)                  auditor
 *   2  GET  findCheckIn of an open room (board poll)    examiner
 *   1  GET  api/User (page 1-3, three searches)         admin
 *   2  POST api/ActivityLog/events (a new page view)    admin
 *   1  POST api/Integration/exams (one of 400 exams)    integration key
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     npm run bench:prepared -w bench [-- --seconds 8 --rounds 4 --connections 20]
 *
 * Without BENCH_DATABASE_URL it measures PGlite. Prints, per variant,
 * requests per second, p50/p99 latency and answers other than 2xx, and the
 * ratio "with / without".
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, dayInZone } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig, type AppConfig } from '../apps/server/src/config/env';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { seedDemoOnEmpty } from '../apps/server/src/db/seed/demo-exams';
import { cpfFromBase, seedFirstStart } from '../apps/server/src/db/seed/first-start';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';
import { apiCall } from '../e2e/support/api';
import { argument, ownPostgresDatabase, percentile, productionEnv } from './bench-support';

const SECONDS = argument('seconds', 8);
const ROUNDS = argument('rounds', 4);
const CONNECTIONS = argument('connections', 20);
const PASSWORD = 'Bench#Preparadas-2026';
const EXAMINER = { email: 'examinador@demo.exame.local', cpf: cpfFromBase('100200302') };

// ---------------------------------------------------------------- databases

const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-prepared-'));
const ownDatabase = await ownPostgresDatabase('bench_prepared');
const databaseUrl = ownDatabase.url;

// One environment for both servers (one file key): they read the same rows.
const ENV = productionEnv();

function configOf(prepared: boolean): AppConfig {
  const loaded = loadConfig({
    ...ENV,
    DATA_DIR: benchDir,
    ADMIN_PASSWORD: PASSWORD,
    SEED_DEMO: 'true',
    DB_PREPARED_STATEMENTS: String(prepared),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return { ...loaded, webDistDir: '/nonexistent' };
}

async function open(prepared: boolean, dump?: Uint8Array): Promise<DatabaseHandle> {
  return databaseUrl
    ? openDatabase({ kind: 'postgres', url: databaseUrl, preparedStatements: prepared })
    : openDatabase({
        kind: 'pglite',
        dataDir: 'memory',
        preparedStatements: prepared,
        ...(dump ? { loadDataDir: dump } : {}),
      });
}

const engine = databaseUrl ? 'PostgreSQL' : 'PGlite';
console.log(`${engine}: semeando os dados de demonstração...`);
const withDatabase = await open(true);
await withDatabase.migrate();
await ensureReferenceData(withDatabase.db);

async function serve(config: AppConfig, database: DatabaseHandle): Promise<FastifyInstance> {
  const app = await buildApp({
    config,
    database,
    logger: false,
    // The load is one user's many tabs: the per-user limits of the activity log step aside.
    rateLimits: {
      activityEventsPerUser: { limit: 100_000_000 },
      activityPerUser: { limit: 100_000_000 },
    },
  });
  await app.ready();
  return app;
}

const withApp = await serve(configOf(true), withDatabase);
await seedFirstStart(withDatabase.db, configOf(true), withApp.identity.hasher);
await seedDemoOnEmpty(withDatabase.db, withApp.files);
const withoutDatabase = databaseUrl
  ? await open(false)
  : await open(false, await withDatabase.dumpDataDir!());
await Promise.all([withDatabase.analyze(), withoutDatabase.analyze()]);
const withoutApp = await serve(configOf(false), withoutDatabase);
await withApp.listen({ host: '127.0.0.1', port: 0 });
await withoutApp.listen({ host: '127.0.0.1', port: 0 });

function urlOf(instance: FastifyInstance): string {
  const address = instance.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

// ---------------------------------------------------------------- actors

async function signIn(base: string, email: string): Promise<string> {
  const answer = await apiCall(base, '', 'POST', '/api/Auth', { email, password: PASSWORD });
  if (answer.status !== 200) throw new Error(`login de ${email}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { token: string }).token;
}

type Actors = { base: string; admin: string; auditor: string; examiner: string; key: string };

/** The signed-in people of one server, with the examiner's room open and an integration key. */
async function actorsOf(base: string, openRoom: boolean): Promise<Actors> {
  const admin = await signIn(base, 'admin@demo.exame.local');
  const auditor = await signIn(base, 'auditor@demo.exame.local');
  const examiner = await signIn(base, EXAMINER.email);
  if (openRoom) {
    const rooms = await apiCall(
      base,
      examiner,
      'GET',
      '/api/ExamRoom?schedulingLocal=DEMO.POSTO01',
    );
    const roomId = (rooms.body as Array<{ id: string; code: string }>).find(
      (room) => room.code === 'S3',
    )?.id;
    const opened = await apiCall(base, examiner, 'POST', '/api/SchedulingLocalCheckIn/checkIn', {
      viewers: [{ cpf: EXAMINER.cpf }],
      schedulingLocal: 'DEMO.POSTO01',
      ...(roomId ? { examRoomId: roomId } : {}),
    });
    if (opened.status !== 201) throw new Error(`checkIn: ${JSON.stringify(opened.body)}`);
  }
  const created = await apiCall(base, admin, 'POST', '/api/Integration/keys', { name: 'bench' });
  return { base, admin, auditor, examiner, key: (created.body as { key: string }).key };
}

// PGlite: two copies, each with its own room to open; PostgreSQL: one database, one room.
const withActors = await actorsOf(urlOf(withApp), true);
const withoutActors = await actorsOf(urlOf(withoutApp), !databaseUrl);

// ---------------------------------------------------------------- the mix

const today = dayInZone(new Date());
const FILTERS = ['', '&status=done', '&result=approved', '&result=in_analysis', '&search=Silva'];
const PERIODS = Array.from({ length: 30 }, (_, index) => {
  const end = addDays(today, 7 - index);
  return `startDate=${addDays(end, -(7 + (index % 4) * 7))}&endDate=${end}`;
});
const SEARCHES = ['', '&search=auditor', '&search=demo'];

/** The reads of the mix, each as [weight, token kind, addresses]; writes are made in the client. */
function readsOf(): Array<[number, keyof Actors, string[]]> {
  return [
    [
      3,
      'admin',
      FILTERS.flatMap((filter) =>
        Array.from({ length: 10 }, (_, page) => `/api/Exam?page=${page + 1}&pageSize=20${filter}`),
      ),
    ],
    [2, 'admin', PERIODS.map((period) => `/api/ExamReport?${period}`)],
    [
      2,
      'auditor',
      Array.from(
        { length: 5 },
        (_, page) =>
          `/api/Audit/queue?page=${page + 1}&pageSize=20&startDate=${addDays(today, -30)}&endDate=${today}`,
      ),
    ],
    [
      2,
      'examiner',
      [
        `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${EXAMINER.cpf}&schedulingLocal=DEMO.POSTO01`,
      ],
    ],
    [
      1,
      'admin',
      SEARCHES.flatMap((search) =>
        [1, 2, 3].map((page) => `/api/User?page=${page}&pageSize=20${search}`),
      ),
    ],
  ];
}

/** Runs in a child process: CONNECTIONS loops over the mix for SECONDS; prints latencies. */
const CLIENT = `
const { randomUUID } = require('node:crypto');
const plan = JSON.parse(process.env.PLAN);
const deadline = Date.now() + plan.seconds * 1000;
const kinds = [];
for (const [weight, token, urls] of plan.reads) {
  for (let i = 0; i < weight; i += 1) kinds.push({ token: plan.actors[token], urls });
}
kinds.push({ write: 'view' }, { write: 'view' }, { write: 'push' });
const latencies = [];
const codes = {};
function request(kind) {
  const base = plan.actors.base;
  if (kind.urls) {
    const url = kind.urls[Math.floor(Math.random() * kind.urls.length)];
    return fetch(base + url, { headers: { authorization: 'Bearer ' + kind.token } });
  }
  if (kind.write === 'view') {
    const event = { clientId: randomUUID(), type: 'page_view', occurredAt: new Date().toISOString(),
      target: '/exames', deviceId: 'bench-device', appVersion: 'bench' };
    return fetch(base + '/api/ActivityLog/events', { method: 'POST',
      headers: { authorization: 'Bearer ' + plan.actors.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [event] }) });
  }
  const n = Math.floor(Math.random() * 400);
  const exam = { schedulingId: 'BENCH-PREP-' + n,
    candidate: { name: 'Candidato ' + n, cpf: plan.cpfs[n % plan.cpfs.length] },
    schedulingDate: plan.today + 'T' + String(7 + (n % 10)).padStart(2, '0') + ':00:00-03:00',
    status: 'scheduled',
    metadata: { schedulingLocal: 'DEMO.POSTO0' + (1 + (n % 8)) + '-S1' }, room: 'Sala 1', station: 'Estação ' + Math.floor(Math.random() * 30) };
  return fetch(base + '/api/Integration/exams', { method: 'POST',
    headers: { 'x-api-key': plan.actors.key, 'content-type': 'application/json' },
    body: JSON.stringify({ exams: [exam] }) });
}
async function loop() {
  while (Date.now() < deadline) {
    const kind = kinds[Math.floor(Math.random() * kinds.length)];
    const started = performance.now();
    try {
      const response = await request(kind);
      await response.arrayBuffer();
      const key = response.status < 300 ? String(response.status)
        : response.status + ' ' + (kind.write || kind.urls[0].split('?')[0]);
      codes[key] = (codes[key] || 0) + 1;
    } catch (error) {
      codes.erro = (codes.erro || 0) + 1;
    }
    latencies.push(performance.now() - started);
  }
}
Promise.all(Array.from({ length: plan.connections }, loop)).then(() => {
  process.stdout.write(JSON.stringify({ latencies, codes }));
});
`;

/** Valid CPFs for the pushed exams (check digits computed, as the seed does). */
const CPFS = Array.from({ length: 40 }, (_, index) =>
  cpfFromBase(String(300_000_000 + index * 7919)),
);

type Sample = { requests: number; latencies: number[]; codes: Record<string, number> };

function runMix(actors: Actors): Promise<Sample> {
  const plan = {
    seconds: SECONDS,
    connections: CONNECTIONS,
    actors,
    reads: readsOf(),
    cpfs: CPFS,
    today,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT], {
      env: { ...process.env, PLAN: JSON.stringify(plan) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`cliente saiu com ${code}`));
      const parsed = JSON.parse(output) as { latencies: number[]; codes: Record<string, number> };
      resolve({ requests: parsed.latencies.length, ...parsed });
    });
  });
}

// ---------------------------------------------------------------- runs

const totals = {
  com: { requests: 0, latencies: [] as number[], codes: {} as Record<string, number> },
  sem: { requests: 0, latencies: [] as number[], codes: {} as Record<string, number> },
};
// A short warm-up of each, then rounds in alternating order.
await runMix({ ...withActors });
await runMix({ ...withoutActors });
for (let round = 0; round < ROUNDS; round += 1) {
  const order = round % 2 === 0 ? (['com', 'sem'] as const) : (['sem', 'com'] as const);
  for (const name of order) {
    const sample = await runMix(name === 'com' ? withActors : withoutActors);
    const total = totals[name];
    total.requests += sample.requests;
    total.latencies.push(...sample.latencies);
    for (const [code, count] of Object.entries(sample.codes)) {
      total.codes[code] = (total.codes[code] ?? 0) + count;
    }
    console.log(
      `  rodada ${round + 1} ${name === 'com' ? 'com preparadas' : 'sem preparadas'}: ${Math.round(sample.requests / SECONDS)} req/s`,
    );
  }
}

function summary(name: 'com' | 'sem') {
  const total = totals[name];
  const sorted = [...total.latencies].sort((a, b) => a - b);
  const other = Object.entries(total.codes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return {
    perSecond: total.requests / (SECONDS * ROUNDS),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    other: other || 'nenhuma',
  };
}
const withSummary = summary('com');
const withoutSummary = summary('sem');
console.log(
  `\n${engine}, ${CONNECTIONS} conexões, ${ROUNDS} rodadas de ${SECONDS} s, mistura de leituras e escritas:`,
);
for (const [label, row] of [
  ['com instruções preparadas', withSummary],
  ['sem instruções preparadas', withoutSummary],
] as const) {
  console.log(
    `  ${label}: ${row.perSecond.toFixed(0)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, respostas não-2xx: ${row.other}`,
  );
}
console.log(
  `  razão com/sem: vazão ${(withSummary.perSecond / withoutSummary.perSecond).toFixed(2)}×, p99 ${(withSummary.p99 / withoutSummary.p99).toFixed(2)}×`,
);

await withApp.close();
await withoutApp.close();
await ownDatabase.drop();
fs.rmSync(benchDir, { recursive: true, force: true });
process.exit(0);
