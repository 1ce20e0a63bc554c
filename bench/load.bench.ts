/**
 * Authenticated reads under load: autocannon (100 connections, 10 s by
 * default) against `GET /health/live` and the main authenticated reads
 * (`GET api/User`, `api/Exam`, `api/ExamReport` for the last 30 days and the
 * next 7) of a real server on loopback, signed in as the first ADMIN, with
 * what `npm start` seeds: on PGlite the demo data, on PostgreSQL (when
 * BENCH_DATABASE_URL is set; a database of its own, dropped at the end) the
 * first ADMIN and empty tables, or the demo data with `--postgres-demo 1`.
 *
 *   npm run bench:load -w bench [-- --seconds 10 --connections 100 --overload 300]
 *
 * Before and after in one run: two servers side by side, measured route by
 * route in turn, so that a busy machine weighs on both. The fixes are all
 * switchable, and "before" switches them off:
 * - session cache: SESSION_CACHE_SECONDS=0 (after: the default, 5 s);
 * - database admission line: DB_MAX_ACTIVE_REQUESTS=0 (after: the default,
 *   4 on PGlite; none on PostgreSQL, where it is off by default);
 * - PGlite's thread: `openDatabase({ thread: 'main' })` (after: its worker);
 * - PGlite's planner statistics: no ANALYZE (after: the ANALYZE main.ts runs
 *   at start-up). Each PGlite server has its own copy of the seeded files.
 * - PostgreSQL pool: DB_POOL_SIZE=10, the old fixed size (after: the default);
 * - PostgreSQL prepared statements: DB_PREPARED_STATEMENTS=false (after: on).
 * Three fixes are plain code and "antes" has them too, so its figures are
 * better than the code before them: the exam and user lists send page and total as one statement, prepared
 * once per filter shape (they were two statements, built anew each time),
 * and the São Paulo day of a period no longer builds an Intl.DateTimeFormat
 * per call (it was most of api/ExamReport's CPU time).
 *
 * Printed per route: requests per second, latency p50/p99/max, connection
 * errors, timeouts, non-2xx and 503 answers, the share of the health route's
 * rate of the same server, statements per request (onQuery), the server
 * process's CPU time per request and its event-loop delay during the run (max
 * and p99). The load generator (autocannon) runs in a child process, so the
 * server's event loop and CPU time are the server's alone. An extra
 * run on PGlite puts `--overload` connections on `api/Exam` (beyond the
 * admission line: fast 503s with Retry-After instead of timeouts).
 *
 * "depois" takes this run's tuning variables if set (e.g. DB_POOL_SIZE=20,
 * DB_MAX_ACTIVE_REQUESTS=8); LOAD_SKIP_PGLITE=1 measures PostgreSQL only;
 * LOAD_PROFILE_DIR=<dir> writes a CPU profile of the main thread per run.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { addDays, dayInZone } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig, type AppConfig } from '../apps/server/src/config/env';
import {
  openDatabase,
  targetFromConfig,
  type DatabaseHandle,
  type DatabaseTarget,
} from '../apps/server/src/db/client';
import { seedDemoOnEmpty } from '../apps/server/src/db/seed/demo-exams';
import { seedFirstStart } from '../apps/server/src/db/seed/first-start';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';
import { argument, autocannon, productionEnv, type LoadOptions } from './bench-support';

const SECONDS = argument('seconds', 10);
const CONNECTIONS = argument('connections', 100);
const OVERLOAD = argument('overload', 300);
/** `--postgres-demo 1`: PostgreSQL with the demo data too (by default empty, as `npm start` leaves it). */
const POSTGRES_DEMO = argument('postgres-demo', 0) === 1;
const WARM_UP_SECONDS = 2;
const PASSWORD = 'Bench#Carga-2026';
const ADMIN_EMAIL = 'admin@demo.exame.local';

const today = dayInZone(new Date());
const ROUTES = [
  { name: 'GET /health/live', path: '/health/live', auth: false },
  { name: 'GET /api/User', path: '/api/User', auth: true },
  { name: 'GET /api/Exam', path: '/api/Exam', auth: true },
  {
    name: 'GET /api/ExamReport',
    path: `/api/ExamReport?startDate=${addDays(today, -30)}&endDate=${addDays(today, 7)}`,
    auth: true,
  },
] as const;

// ---------------------------------------------------------------- load generator

const load = (options: LoadOptions) => autocannon(options);

async function cpuProfile<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.LOAD_PROFILE_DIR;
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, out) => (error ? reject(error) : resolve(out))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  }
}

// ---------------------------------------------------------------- servers

type Server = {
  variant: 'antes' | 'depois';
  app: FastifyInstance;
  database: DatabaseHandle;
  base: string;
  token: string;
  statements: { count: number };
  inFlight: { count: number };
};

const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-load-'));
const baseEnv = {
  ...productionEnv(),
  DATA_DIR: benchDir,
  ADMIN_PASSWORD: PASSWORD,
  SEED_DEMO: 'true',
};

/** The production configuration of this engine; "antes" switches the fixes off. */
function configFor(variant: Server['variant'], postgresUrl: string | undefined): AppConfig {
  // On PostgreSQL `npm start` seeds no demo data: the first ADMIN of a unit and empty tables.
  const env = postgresUrl
    ? {
        ...baseEnv,
        DATABASE_URL: postgresUrl,
        SEED_DEMO: POSTGRES_DEMO ? 'true' : 'false',
        ...(POSTGRES_DEMO ? {} : { ADMIN_FEDERATIVE_UNIT: 'DF' }),
      }
    : baseEnv;
  const settings =
    variant === 'antes'
      ? {
          SESSION_CACHE_SECONDS: '0',
          DB_MAX_ACTIVE_REQUESTS: '0',
          DB_POOL_SIZE: '10',
          DB_PREPARED_STATEMENTS: 'false',
        }
      : tunables();
  return { ...loadConfig({ ...env, ...settings }), webDistDir: '/nonexistent' };
}

/** "depois" takes the defaults, or the tuning variables of this run's environment (DB_POOL_SIZE=20 ...). */
function tunables(): NodeJS.ProcessEnv {
  const names = [
    'SESSION_CACHE_SECONDS',
    'DB_POOL_SIZE',
    'DB_MAX_ACTIVE_REQUESTS',
    'DB_MAX_QUEUED_REQUESTS',
    'DB_MAX_QUEUE_WAIT_MS',
    'DB_PREPARED_STATEMENTS',
  ];
  return Object.fromEntries(
    names
      .filter((name) => process.env[name] !== undefined)
      .map((name) => [name, process.env[name]]),
  );
}

/** What `npm start` does on an empty database: migrations, first accounts, demo data. */
async function seed(database: DatabaseHandle, config: AppConfig): Promise<void> {
  await database.migrate();
  await ensureReferenceData(database.db);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  await seedFirstStart(database.db, config, app.identity.hasher);
  if (config.seedDemo) await seedDemoOnEmpty(database.db, app.files);
  await app.close();
}

async function startServer(
  variant: Server['variant'],
  config: AppConfig,
  target: DatabaseTarget,
): Promise<Server> {
  const statements = { count: 0 };
  const database = await openDatabase({
    ...target,
    onQuery: () => {
      statements.count += 1;
    },
  });
  const app = await buildApp({ config, database, logger: false });
  // Requests still running after a run ends (their clients gone) would weigh on the next run.
  const inFlight = { count: 0 };
  app.addHook('onRequest', async () => {
    inFlight.count += 1;
  });
  // onSend runs once the handler is done, whether or not its client is still there.
  app.addHook('onSend', async (_request, _reply, payload) => {
    inFlight.count -= 1;
    return payload;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/Auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login falhou: ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return { variant, app, database, base, token, statements, inFlight };
}

/** Waits until the server has answered everything it accepted (at most a minute). */
async function drained(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (server.inFlight.count > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function stopServer(server: Server): Promise<void> {
  await server.app.close();
  await server.database.close();
}

// ---------------------------------------------------------------- measurement

type Row = {
  engine: string;
  variant: Server['variant'];
  route: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  status503: number;
  statementsPerRequest: number;
  /** CPU time of this process (main thread and PGlite's worker) per answered request. */
  cpuMsPerRequest: number;
  loopMaxMs: number;
  loopP99Ms: number;
  ofHealth?: number;
};

async function measure(
  engine: string,
  server: Server,
  route: (typeof ROUTES)[number],
  connections: number,
): Promise<Row> {
  const headers: Record<string, string> = route.auth
    ? { authorization: `Bearer ${server.token}` }
    : {};
  const url = server.base + route.path;
  await load({ url, connections: Math.min(10, connections), duration: WARM_UP_SECONDS, headers });
  await drained(server);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  server.statements.count = 0;
  loop.enable();
  const cpuBefore = process.cpuUsage();
  const name = `${engine}-${server.variant}-${route.path.split('?')[0]?.replace(/\W+/g, '_')}-${connections}`;
  const result = await cpuProfile(name, () =>
    load({ url, connections, duration: SECONDS, headers }),
  );
  loop.disable();
  const cpu = process.cpuUsage(cpuBefore);
  await drained(server);
  const completed = result.requests.total;
  const codes = (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
    .statusCodeStats;
  return {
    engine,
    variant: server.variant,
    route: route.name,
    connections,
    requestsPerSecond: Math.round(completed / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    status503: codes?.['503']?.count ?? 0,
    statementsPerRequest: Number((server.statements.count / Math.max(1, completed)).toFixed(2)),
    cpuMsPerRequest: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, completed)).toFixed(3)),
    loopMaxMs: Number((loop.max / 1e6).toFixed(1)),
    loopP99Ms: Number((loop.percentile(99) / 1e6).toFixed(1)),
  };
}

const MAIN_READS: string[] = ROUTES.slice(1).map((route) => route.name);

/** The goals, checked on the "depois" rows of an engine. */
function printGoals(engine: string, rows: Row[]): void {
  const after = rows.filter(
    (row) =>
      row.variant === 'depois' && row.connections === CONNECTIONS && MAIN_READS.includes(row.route),
  );
  const mark = (ok: boolean) => (ok ? 'ok' : 'NÃO');
  for (const row of after) {
    const clean = row.errors === 0 && row.timeouts === 0 && row.non2xx === 0;
    const line =
      engine === 'PostgreSQL'
        ? `>= 30% da saúde: ${mark((row.ofHealth ?? 0) >= 30)} (${row.ofHealth}%); p99 < 50 ms: ${mark(row.p99Ms < 50)} (${row.p99Ms} ms)`
        : `sem erros nem timeouts: ${mark(clean)}; laço máx ${row.loopMaxMs} ms`;
    console.log(`  meta ${engine} ${row.variant.padEnd(6)} ${row.route}: ${line}`);
  }
  const overload = rows.find((row) => row.variant === 'depois' && row.connections === OVERLOAD);
  if (overload) {
    console.log(
      `  meta ${engine} ${OVERLOAD} conexões: sem timeouts: ${mark(overload.timeouts === 0)}; além do limite 503 rápido: ${mark(overload.status503 > 0 && overload.p50Ms < 1000)} (${overload.status503} respostas 503, p50 ${overload.p50Ms} ms)`,
    );
  }
}

function printTable(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.table(
    rows.map((row) => ({
      variante: row.variant,
      rota: row.route,
      conexões: row.connections,
      'req/s': row.requestsPerSecond,
      '% da saúde': row.ofHealth === undefined ? '' : `${row.ofHealth}%`,
      'p50 ms': row.p50Ms,
      'p99 ms': row.p99Ms,
      'máx ms': row.maxMs,
      erros: row.errors,
      timeouts: row.timeouts,
      'não-2xx': row.non2xx,
      'só 503': row.status503,
      'SQL/req': row.statementsPerRequest,
      'CPU ms/req': row.cpuMsPerRequest,
      'laço máx ms': row.loopMaxMs,
      'laço p99 ms': row.loopP99Ms,
    })),
  );
}

async function runEngine(
  engine: string,
  servers: { before: Server; after: Server },
  overload: boolean,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const route of ROUTES) {
    for (const server of [servers.before, servers.after]) {
      const row = await measure(engine, server, route, CONNECTIONS);
      rows.push(row);
      process.stdout.write(
        `  ${engine} ${row.variant.padEnd(6)} ${route.name.padEnd(22)} ${String(row.requestsPerSecond).padStart(6)} req/s  p99 ${row.p99Ms} ms\n`,
      );
    }
  }
  for (const row of rows) {
    const health = rows.find(
      (other) => other.variant === row.variant && other.route === ROUTES[0].name,
    );
    if (health && row.route !== ROUTES[0].name) {
      row.ofHealth = Math.round(
        (100 * row.requestsPerSecond) / Math.max(1, health.requestsPerSecond),
      );
    }
  }
  if (overload) {
    // Beyond the admission line: fast 503s with Retry-After instead of timeouts.
    const exam = ROUTES[2];
    for (const server of [servers.before, servers.after]) {
      rows.push(await measure(engine, server, exam, OVERLOAD));
    }
  }
  return rows;
}

// ---------------------------------------------------------------- engines

const all: Row[] = [];

if (!process.env.LOAD_SKIP_PGLITE) {
  // PGlite on files, as `npm start` runs it: seeded once, then one copy per server.
  const seeded = path.join(benchDir, 'pgdata-antes');
  console.log('PGlite: semeando os dados de demonstração...');
  const seeding = await openDatabase({ kind: 'pglite', dataDir: seeded, thread: 'main' });
  await seed(seeding, configFor('antes', undefined));
  await seeding.close();
  const copy = path.join(benchDir, 'pgdata-depois');
  fs.cpSync(seeded, copy, { recursive: true });
  const before = await startServer('antes', configFor('antes', undefined), {
    kind: 'pglite',
    dataDir: seeded,
    thread: 'main',
  });
  const after = await startServer('depois', configFor('depois', undefined), {
    kind: 'pglite',
    dataDir: copy,
    thread: 'worker',
  });
  // What main.ts does on PGlite before listening.
  await after.database.analyze();
  try {
    const rows = await runEngine('PGlite', { before, after }, true);
    all.push(...rows);
    printTable(
      `PGlite (arquivos), ${CONNECTIONS} conexões, ${SECONDS} s por rota; últimas duas linhas: api/Exam com ${OVERLOAD} conexões`,
      rows,
    );
    printGoals('PGlite', rows);
  } finally {
    await stopServer(before);
    await stopServer(after);
  }
}

const postgresUrl = process.env.BENCH_DATABASE_URL?.trim();
if (postgresUrl) {
  const name = `bench_load_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    console.log('\nPostgreSQL: semeando os dados de demonstração...');
    const beforeConfig = configFor('antes', databaseUrl);
    const afterConfig = configFor('depois', databaseUrl);
    const seeding = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
    await seed(seeding, beforeConfig);
    // What autovacuum does by itself shortly after the seed.
    await seeding.analyze();
    await seeding.close();
    const before = await startServer('antes', beforeConfig, targetFromConfig(beforeConfig));
    const after = await startServer('depois', afterConfig, targetFromConfig(afterConfig));
    try {
      const rows = await runEngine('PostgreSQL', { before, after }, false);
      all.push(...rows);
      printTable(
        `PostgreSQL (${POSTGRES_DEMO ? 'dados de demonstração' : 'tabela de exames vazia'}; pool antes ${beforeConfig.database.poolSize}, depois ${afterConfig.database.poolSize}), ${CONNECTIONS} conexões, ${SECONDS} s por rota`,
        rows,
      );
      printGoals('PostgreSQL', rows);
    } finally {
      await stopServer(before);
      await stopServer(after);
    }
  } finally {
    const cleanup = new pg.Client({ connectionString: postgresUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
}

fs.rmSync(benchDir, { recursive: true, force: true });
console.log(
  `\nmáquina: ${os.availableParallelism()} núcleos, carga média ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`,
);
console.log(JSON.stringify(all));
