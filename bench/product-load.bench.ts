/**
 * The product under rising load, next to a bare Fastify route measured in
 * the same run: sign-in (`POST api/Auth`, argon2id by design), the exam list
 * (`GET api/Exam`), the report (`GET api/ExamReport`), the examiner's
 * check-in (`GET api/SchedulingLocalCheckIn/findCheckIn` of an open room),
 * the station board's realtime stream (`GET api/Realtime/events`: N streams
 * open while exams change, the delivery time of each change to each stream)
 * each at rising concurrency (face verification is timed by bench:liveness:
 * every take answers a single-use challenge); then a soak: a mixed load for `--soak-minutes`
 * (10 by default) with the server's memory sampled, to show it stays flat.
 *
 * The server is the real app (what `npm start` seeds: PGlite on files with
 * the demo data; with BENCH_DATABASE_URL a PostgreSQL database of its own,
 * dropped at the end) on this thread; the bare route is a Fastify instance
 * with one route and nothing else, on the same thread, measured in turn. Load
 * comes from autocannon in a child process; the realtime streams are read by
 * another child; everything is production.
 *
 *   npm run bench:product-load -w bench [-- --seconds 8 --levels 10,50,100 --soak-minutes 10]
 *
 * Run node with --expose-gc (the script does) so that memory samples are taken
 * after a full collection.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, dayInZone } from '@exame/shared';
import type { Result } from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { faceServiceFromConfig } from '../apps/server/src/biometrics/face-pool';
import { loadConfig, type AppConfig } from '../apps/server/src/config/env';
import { openDatabase, targetFromConfig, type DatabaseHandle } from '../apps/server/src/db/client';
import { seedDemoOnEmpty } from '../apps/server/src/db/seed/demo-exams';
import { cpfFromBase, seedFirstStart } from '../apps/server/src/db/seed/first-start';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';
import {
  argument,
  autocannon,
  ownPostgresDatabase,
  percentile,
  productionEnv,
  type LoadOptions,
} from './bench-support';

const SECONDS = argument('seconds', 8);
const SOAK_MINUTES = (() => {
  const index = process.argv.indexOf('--soak-minutes');
  const value = index >= 0 ? Number(process.argv[index + 1]) : 10;
  return Number.isFinite(value) && value >= 0 ? value : 10;
})();
const LEVELS = (() => {
  const index = process.argv.indexOf('--levels');
  const raw = index >= 0 ? (process.argv[index + 1] ?? '') : '10,50,100';
  const levels = raw
    .split(',')
    .map(Number)
    .filter((value) => Number.isInteger(value) && value > 0);
  return levels.length > 0 ? levels : [10, 50, 100];
})();
const STREAM_LEVELS = [10, 100, 200];
const CHANGES_PER_LEVEL = 30;
const PASSWORD = 'Bench#Produto-2026';
const ADMIN_EMAIL = 'admin@demo.exame.local';
const EXAMINER = { email: 'examinador@demo.exame.local', cpf: cpfFromBase('100200302') };

if (typeof globalThis.gc !== 'function') {
  console.error('Rode com node --expose-gc (npm run bench:product-load -w bench já o faz).');
  process.exit(2);
}
const collect = globalThis.gc as () => void;

// ---------------------------------------------------------------- servers

const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-product-'));
const ownDatabase = await ownPostgresDatabase('bench_product');
const databaseUrl = ownDatabase.url;

const loaded = loadConfig({
  ...productionEnv(),
  DATA_DIR: benchDir,
  ADMIN_PASSWORD: PASSWORD,
  SEED_DEMO: 'true',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const config: AppConfig = {
  ...loaded,
  // Every board stream of this run is one ADMIN's (standing for many boards):
  // the per-user bound (REALTIME_MAX_STREAMS_PER_USER) would end all but the
  // newest, so this server allows as many as the largest level opens.
  realtime: { ...loaded.realtime, maxStreamsPerUser: Math.max(...STREAM_LEVELS) },
  webDistDir: '/nonexistent',
};
const engine = databaseUrl ? 'PostgreSQL' : 'PGlite';
console.log(`${engine}: semeando os dados de demonstração...`);
const database: DatabaseHandle = await openDatabase(targetFromConfig(config));
await database.migrate();
await ensureReferenceData(database.db);
const face = faceServiceFromConfig(config.face);
const app = await buildApp({
  config,
  database,
  logger: false,
  faceService: face,
});
await app.ready();
await seedFirstStart(database.db, config, app.identity.hasher);
await seedDemoOnEmpty(database.db, app.files);
if (database.kind === 'pglite') await database.analyze();
await app.listen({ host: '127.0.0.1', port: 0 });
const base = urlOf(app);

const bare: FastifyInstance = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareBase = urlOf(bare);

function urlOf(instance: FastifyInstance): string {
  const address = instance.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function call(
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token.startsWith('exk_') ? { 'x-api-key': token } : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function signIn(email: string): Promise<string> {
  const answer = await call('', 'POST', '/api/Auth', { email, password: PASSWORD });
  if (answer.status !== 200) throw new Error(`login de ${email}: ${JSON.stringify(answer.body)}`);
  return (answer.body as { token: string }).token;
}

const adminToken = await signIn(ADMIN_EMAIL);
const examinerToken = await signIn(EXAMINER.email);

// The examiner opens a room of DEMO.POSTO01 alone (DEMO has no face validation).
const rooms = await call(examinerToken, 'GET', '/api/ExamRoom?schedulingLocal=DEMO.POSTO01');
const roomId = (rooms.body as Array<{ id: string; code: string }> | null)?.find(
  (room) => room.code === 'S3',
)?.id;
const opened = await call(examinerToken, 'POST', '/api/SchedulingLocalCheckIn/checkIn', {
  viewers: [{ cpf: EXAMINER.cpf }],
  schedulingLocal: 'DEMO.POSTO01',
  ...(roomId ? { examRoomId: roomId } : {}),
});
if (opened.status !== 201) throw new Error(`checkIn: ${JSON.stringify(opened.body)}`);

// An integration key of DEMO moves exams for the realtime runs.
const created = await call(adminToken, 'POST', '/api/Integration/keys', { name: 'bench carga' });
const apiKey = (created.body as { key: string }).key;

// Face verification is not in this load: each take answers a single-use
// challenge, so a body cannot be repeated; bench:liveness times the whole
// check (challenge, analysis of every picture, decision) one take at a time.

// ---------------------------------------------------------------- runs

type Row = {
  route: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** The answers other than 2xx by status, e.g. "429×186". */
  otherCodes: string;
  ofBare?: number;
};

const today = dayInZone(new Date());
type Route = Omit<LoadOptions, 'connections' | 'duration'> & { name: string };

const ROUTES: [Route, ...Route[]] = [
  { name: 'Fastify puro GET /bare', url: `${bareBase}/bare`, headers: {} },
  { name: 'GET /health/live', url: `${base}/health/live`, headers: {} },
  {
    name: 'POST /api/Auth (entrar)',
    url: `${base}/api/Auth`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
  },
  {
    name: 'GET /api/Exam',
    url: `${base}/api/Exam`,
    headers: { authorization: `Bearer ${adminToken}` },
  },
  {
    name: 'GET /api/ExamReport',
    url: `${base}/api/ExamReport?startDate=${addDays(today, -30)}&endDate=${addDays(today, 7)}`,
    headers: { authorization: `Bearer ${adminToken}` },
  },
  {
    name: 'GET findCheckIn (entrada)',
    url: `${base}/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${EXAMINER.cpf}&schedulingLocal=DEMO.POSTO01`,
    headers: { authorization: `Bearer ${examinerToken}` },
  },
];

function rowOf(name: string, connections: number, result: Result): Row {
  return {
    route: name,
    connections,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    otherCodes: Object.entries(
      (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
        .statusCodeStats ?? {},
    )
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, stats]) => `${code}×${stats.count}`)
      .join(' '),
  };
}

/**
 * Waits until this process (the server, its libuv threads included) is nearly
 * idle, for at most 30 s: the work a run leaves queued (the password hashes
 * of sign-ins whose clients have gone) must not weigh on the next route.
 */
async function settle(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 0.2 * 250) return;
  }
}

const rows: Row[] = [];
for (const connections of LEVELS) {
  for (const route of ROUTES) {
    const options = { ...route, connections, duration: SECONDS };
    await settle();
    await autocannon({ ...options, connections: Math.min(10, connections), duration: 1 });
    const row = rowOf(route.name, connections, await autocannon(options));
    rows.push(row);
    console.log(
      `  ${String(connections).padStart(3)} conexões  ${route.name.padEnd(26)} ${String(row.requestsPerSecond).padStart(6)} req/s  p99 ${row.p99Ms} ms${row.errors + row.non2xx > 0 ? `  (${row.errors} erros, ${row.non2xx} não-2xx: ${row.otherCodes})` : ''}`,
    );
  }
}
for (const row of rows) {
  const bareRow = rows.find(
    (other) => other.route === ROUTES[0].name && other.connections === row.connections,
  );
  if (bareRow && row.route !== bareRow.route) {
    row.ofBare = Number(((100 * row.requestsPerSecond) / bareRow.requestsPerSecond).toFixed(1));
  }
}

// ---------------------------------------------------------------- realtime

/** A child process opens `streams` SSE connections and reports when each event reached each. */
const STREAM_CLIENT = `
const [base, token, count] = [process.env.BASE, process.env.TOKEN, Number(process.env.COUNT)];
const arrivals = [];
let ready = 0;
const controllers = [];
for (let i = 0; i < count; i += 1) {
  const controller = new AbortController();
  controllers.push(controller);
  fetch(base + '/api/Realtime/events', {
    headers: { authorization: 'Bearer ' + token },
    signal: controller.signal,
  }).then(async (response) => {
    ready += 1;
    if (ready === count) process.stdout.write('ready\\n');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\\n\\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\\n').find((line) => line.startsWith('data: '));
        if (data && data.includes('BENCH-RT-')) {
          const id = /BENCH-RT-[0-9-]+/.exec(data)[0];
          arrivals.push([id, Date.now()]);
        }
      }
    }
  }).catch(() => undefined);
}
process.stdin.on('data', () => {
  for (const controller of controllers) controller.abort();
  process.stdout.write(JSON.stringify(arrivals) + '\\n');
  process.exit(0);
});
`;

type StreamRow = {
  streams: number;
  changes: number;
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
};
const streamRows: StreamRow[] = [];
const day = dayInZone(new Date());
for (const [level, streams] of STREAM_LEVELS.entries()) {
  const ids = Array.from({ length: CHANGES_PER_LEVEL }, (_, index) => `BENCH-RT-${level}-${index}`);
  const pushed = await call(apiKey, 'POST', '/api/Integration/exams', {
    exams: ids.map((schedulingId, index) => ({
      schedulingId,
      candidate: { name: `Candidata Tempo Real ${index}`, cpf: '529.982.247-25' },
      schedulingDate: `${day}T10:00:00-03:00`,
      status: 'scheduled',
      metadata: { schedulingLocal: 'DEMO.POSTO01-S1' },
    })),
  });
  if (pushed.status !== 200) throw new Error(`exames: ${JSON.stringify(pushed.body)}`);
  const child = spawn(process.execPath, ['-e', STREAM_CLIENT], {
    env: { ...process.env, BASE: base, TOKEN: adminToken, COUNT: String(streams) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('ready\n')) resolve();
    });
  });
  await ready;
  const sentAt = new Map<string, number>();
  for (const id of ids) {
    sentAt.set(id, Date.now());
    const moved = await call(apiKey, 'PATCH', `/api/Integration/exams/${id}/status`, {
      status: 'started',
    });
    if (moved.status !== 200) throw new Error(`status: ${JSON.stringify(moved.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const finished = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.write('end\n');
  await finished;
  const lines = output.split('\n').filter((line) => line.startsWith('['));
  const arrivals = JSON.parse(lines.at(-1) ?? '[]') as Array<[string, number]>;
  const latencies = arrivals.map(([id, at]) => at - (sentAt.get(id) ?? at)).sort((a, b) => a - b);
  streamRows.push({
    streams,
    changes: ids.length,
    deliveries: arrivals.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  });
  console.log(
    `  ${String(streams).padStart(3)} fluxos SSE: ${arrivals.length}/${ids.length * streams} entregas, p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
  );
}

// ---------------------------------------------------------------- soak

type Sample = { minute: number; rssMb: number; heapMb: number; externalMb: number };
const samples: Sample[] = [];
if (SOAK_MINUTES > 0) {
  console.log(`\nCarga mista por ${SOAK_MINUTES} min, memória do servidor a cada 15 s...`);
  const started = Date.now();
  const sample = () => {
    collect();
    const memory = process.memoryUsage();
    samples.push({
      minute: Number(((Date.now() - started) / 60_000).toFixed(2)),
      rssMb: Number((memory.rss / 2 ** 20).toFixed(1)),
      heapMb: Number((memory.heapUsed / 2 ** 20).toFixed(1)),
      externalMb: Number(((memory.external + memory.arrayBuffers) / 2 ** 20).toFixed(1)),
    });
  };
  sample();
  const timer = setInterval(sample, 15_000);
  const soakRoutes = ROUTES.slice(3);
  const deadline = started + SOAK_MINUTES * 60_000;
  let turn = 0;
  while (Date.now() < deadline) {
    const route = soakRoutes[turn % soakRoutes.length];
    turn += 1;
    if (!route) break;
    const seconds = Math.max(1, Math.min(15, Math.round((deadline - Date.now()) / 1000)));
    await autocannon({ ...route, connections: 20, duration: seconds });
  }
  clearInterval(timer);
  sample();
}

// ---------------------------------------------------------------- report

console.log(`\n${engine}: rotas em concorrência crescente, ${SECONDS} s cada`);
console.table(
  rows.map((row) => ({
    rota: row.route,
    conexões: row.connections,
    'req/s': row.requestsPerSecond,
    '% do Fastify puro': row.ofBare === undefined ? '' : `${row.ofBare}%`,
    'p50 ms': row.p50Ms,
    'p99 ms': row.p99Ms,
    erros: row.errors,
    'não-2xx': row.non2xx,
  })),
);
console.log('Fluxo do quadro das estações (SSE): da mudança à chegada em cada fluxo');
console.table(streamRows);
const mark = (ok: boolean) => (ok ? 'ok' : 'NÃO');
for (const route of ['GET /api/Exam', 'GET /api/ExamReport', 'GET findCheckIn (entrada)']) {
  const row = rows.find((candidate) => candidate.route === route && candidate.connections === 100);
  if (row) {
    console.log(
      `  meta ${route} a 100 conexões: >= 30% do Fastify puro: ${mark((row.ofBare ?? 0) >= 30)} (${row.ofBare}%); p99 < 50 ms: ${mark(row.p99Ms < 50)} (${row.p99Ms} ms)`,
    );
  }
}
if (samples.length > 2) {
  console.log('Memória do servidor (após coleta completa):');
  console.table(samples);
  // Flat: the last third's heap within 10% (or 8 MB) of the first third's, after the warm-up sample.
  const steady = samples.slice(1);
  const third = Math.max(1, Math.floor(steady.length / 3));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const first = mean(steady.slice(0, third).map((entry) => entry.heapMb));
  const last = mean(steady.slice(-third).map((entry) => entry.heapMb));
  const growth = last - first;
  console.log(
    `  meta memória estável em ${SOAK_MINUTES} min: ${mark(growth <= Math.max(8, first * 0.1))} (heap ${first.toFixed(1)} -> ${last.toFixed(1)} MB; RSS ${samples[0]?.rssMb} -> ${samples.at(-1)?.rssMb} MB)`,
  );
}
console.log(
  `\nmáquina: ${os.availableParallelism()} núcleos, carga média ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
fs.writeFileSync(
  path.join(import.meta.dirname, 'results', `product-load-${engine.toLowerCase()}.json`),
  `${JSON.stringify({ rows, streamRows, samples }, null, 2)}\n`,
);

await bare.close();
await app.close();
await face.close();
await database.close();
await ownDatabase.drop();
fs.rmSync(benchDir, { recursive: true, force: true });
