/**
 * The `face-read` queue scaled out: photos read per second by one
 * `face:worker` process and by two side by side, and the API's p95 while two
 * workers drain a burst against the same read with no drain, in one run.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     npm run bench:face-queue -w bench [-- --photos 200 --seconds 10]
 *
 * PostgreSQL only (the workers are other processes; PGlite is one process's).
 * The run makes a database of its own and drops it at the end.
 *
 * 1. An API instance in this process (FACE_READ_IN_SERVER=false: it sends
 *    each stored photo's job and reads none) receives the burst through the
 *    integration API: P photos (exams of one reference and four captures,
 *    from the dev faces), each sent to the queue after its commit.
 * 2. The machine's ceiling: the dev photos analysed by one process, then by
 *    two at once (face-analysis-process.ts: a face pool of one thread, no
 *    queue, database or file store); the ratio two readers can reach here.
 * 3. For one worker, then two (FACE_WORKERS=1 each, so a worker is one
 *    inference thread): the workers start and load their models, then every
 *    photo is set unread again and re-enqueued through the product's send;
 *    photos/s = P / (last reading - enqueue), from the workers' own lines.
 * 4. p95 of GET api/Exam (autocannon, in a process of its own) for N seconds
 *    with the queue idle, then N seconds right after the burst is enqueued
 *    again for the two workers.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { openDatabase } from '../apps/server/src/db/client';
import { startJobBoss } from '../apps/server/src/db/job-boss';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';
import { selectRows } from '../apps/server/src/db/select-rows';
import { startScheduledJobs } from '../apps/server/src/jobs/scheduled-jobs';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import {
  ensureFaceReadQueue,
  sendFaceReads,
} from '../apps/server/src/modules/audits/face-read-queue.service';
import { listFixtures, fixturePath, hasFaceFixtures } from '../apps/server/test/faces/fixtures';
import { seedSignedIn } from '../apps/server/test/identity';
import { awaitingAuditPayload, createApiKeyFor } from '../apps/server/test/exams';
import { argument, ownPostgresDatabase, percentile, productionEnv } from './bench-support';

const PHOTOS = Math.floor(argument('photos', 200) / 5) * 5;
const SECONDS = argument('seconds', 10);
const repoRoot = path.resolve(import.meta.dirname, '..');
const WORKER = path.join(repoRoot, 'apps/server/src/cli/face-worker.ts');

if (!process.env.BENCH_DATABASE_URL?.trim()) {
  console.log(
    'SKIPPED: a fila de leitura facial precisa de PostgreSQL (os leitores são outros processos): ' +
      'defina BENCH_DATABASE_URL=postgres://...',
  );
  process.exit(0);
}
if (!hasFaceFixtures('dev')) {
  console.log('SKIPPED: as fotos de desenvolvimento (apps/server/test/faces/dev) não estão aqui.');
  process.exit(0);
}

const own = await ownPostgresDatabase('bench_face_queue');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-face-queue-'));
const env = {
  ...productionEnv(),
  DATA_DIR: dataDir,
  DATABASE_URL: own.url!,
  FACE_READ_IN_SERVER: 'false',
  FACE_ANALYSIS_SWEEP_SECONDS: '0',
};
const config = { ...loadConfig(env), webDistDir: '/nonexistent' };
const database = await openDatabase({ kind: 'postgres', url: own.url!, poolSize: 10 });
await database.migrate();
await ensureReferenceData(database.db);
const app = await buildApp({
  config,
  database,
  logger: false,
  hasher: createPasswordHasher(config.argon2),
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const jobs = await startScheduledJobs(app, { retentionAtStart: false });
const admin = await seedSignedIn(app, { role: 'ADMIN', unit: 'DF' });
const key = (await createApiKeyFor(app, admin.auth)).key;

// 1. The burst of uploads, through the integration API.
const faces = listFixtures('dev').map((photo) =>
  fs.readFileSync(fixturePath('dev', photo.file)).toString('base64'),
);
const upload = async (url: string, method: 'POST' | 'PUT', body: object) => {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
};
const uploadStarted = performance.now();
const exams = PHOTOS / 5;
const payloads = Array.from({ length: exams }, () => awaitingAuditPayload());
await upload('/api/Integration/exams', 'POST', { exams: payloads });
await Promise.all(
  [0, 1, 2, 3].map(async (lane) => {
    for (let exam = lane; exam < exams; exam += 4) {
      const id = payloads[exam]!.schedulingId;
      await upload(`/api/Integration/exams/${id}/reference-photo`, 'PUT', {
        image: faces[exam % faces.length],
      });
      for (let index = 1; index <= 4; index += 1) {
        await upload(`/api/Integration/exams/${id}/photos`, 'POST', {
          image: faces[(exam + index) % faces.length],
          capturedAt: new Date(Date.UTC(2026, 10, 20, 13, index)).toISOString(),
        });
      }
    }
  }),
);
const uploadSeconds = (performance.now() - uploadStarted) / 1000;
const count = async (query: ReturnType<typeof sql>) =>
  (await selectRows<{ n: number }>(database.db, query))[0]!.n;
const stored = await count(sql`select count(*)::int as n from exam_photos`);
const queued = await count(
  sql`select count(*)::int as n from pgboss.job where name = 'face-read' and state = 'created'`,
);

// The product's send, for the re-runs (this process's own pg-boss handle).
const boss = await startJobBoss(database, {
  log: { info: () => undefined, error: (o, m) => console.error(m, o) },
  schedule: false,
});
await ensureFaceReadQueue(boss);
async function resetAndEnqueue(): Promise<number> {
  await database.db.execute(sql`delete from pgboss.job where name = 'face-read'`);
  await database.db.execute(
    sql`update exam_photos set face_status = 'pending', face_descriptor = null,
          face_descriptor_version = null, face_analysed_at = null`,
  );
  const ids = await selectRows<{ id: string }>(
    database.db,
    sql`select id from exam_photos order by captured_at`,
  );
  await sendFaceReads(
    boss,
    database.db,
    ids.map((row) => row.id),
  );
  return Date.now();
}

type Worker = {
  reads: () => Array<{ photoId: string; time: number }>;
  ready: Promise<void>;
  exited: Promise<number | null>;
  stop: () => void;
};

function spawnWorker(): Worker {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...env,
      LOG_LEVEL: 'info',
      FACE_WORKERS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('"leitor de fotos pronto"')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then(() => {
    if (!stdout.includes('"leitor de fotos pronto"')) {
      console.error(`o leitor saiu antes de ficar pronto:\n${stdout}\n${stderr}`);
      process.exit(1);
    }
  });
  return {
    reads: () =>
      stdout
        .split('\n')
        .filter((line) => line.includes('"foto lida"'))
        .map((line) => JSON.parse(line) as { photoId: string; time: number }),
    ready,
    exited,
    stop: () => child.kill('SIGTERM'),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Workers started and ready, the burst enqueued again, the drain timed. */
async function drain(workers: Worker[], during?: () => Promise<void>) {
  await Promise.all(workers.map((worker) => worker.ready));
  const before = workers.map((worker) => worker.reads().length);
  const enqueuedAt = await resetAndEnqueue();
  const measuring = during?.();
  for (;;) {
    const read = workers.reduce((sum, w, i) => sum + w.reads().length - before[i]!, 0);
    if (read >= stored) break;
    await sleep(100);
  }
  await measuring;
  const reads = workers.flatMap((worker, i) => worker.reads().slice(before[i]));
  const last = Math.max(...reads.map((read) => read.time));
  const seconds = (last - enqueuedAt) / 1000;
  const ids = new Set(reads.map((read) => read.photoId));
  return {
    seconds,
    perSecond: stored / seconds,
    perWorker: workers.map((worker, i) => worker.reads().length - before[i]!),
    twice: reads.length - ids.size,
  };
}

async function stopAll(workers: Worker[]) {
  for (const worker of workers) worker.stop();
  await Promise.all(workers.map((worker) => worker.exited));
}

console.log(
  `Fila de leitura facial (face-read): ${stored} fotos de ${exams} exames enviadas em ${uploadSeconds.toFixed(1)} s ` +
    `(${queued} trabalhos na fila); ${os.availableParallelism()} núcleos, carga ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
);

// 2. The machine's own ceiling: the same analyses in one process, then in two
// at once, with no queue, database or file store (face-analysis-process.ts).
async function analysingProcesses(count: number): Promise<number> {
  const runs = Array.from(
    { length: count },
    () =>
      new Promise<{ photos: number; ms: number }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(repoRoot, 'bench/face-analysis-process.ts')],
          {
            cwd: repoRoot,
            env: { ...process.env, ROUNDS: '3' },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('exit', () => resolve(JSON.parse(output) as { photos: number; ms: number }));
      }),
  );
  const done = await Promise.all(runs);
  // Photos per second of all of them together: their photos over the slowest one's time.
  return (
    done.reduce((sum, run) => sum + run.photos, 0) / (Math.max(...done.map((run) => run.ms)) / 1000)
  );
}
const ceilingOne = await analysingProcesses(1);
const ceilingTwo = await analysingProcesses(2);

// 3. One worker, then two side by side.
const one = [spawnWorker()];
const single = await drain(one);
await stopAll(one);
const two = [spawnWorker(), spawnWorker()];
const double = await drain(two);

// 4. The API's p95 with the queue idle, then during a drain by the two workers.
// The client is a process of its own (the API's event loop is the API's alone):
// CLIENTS loops of sequential requests for SECONDS, each latency kept.
const CLIENTS = 4;
const CLIENT_CODE = `
const { url, authorization, clients, seconds } = JSON.parse(process.env.LOAD);
const end = Date.now() + seconds * 1000;
const latencies = [];
let failed = 0;
async function lane() {
  while (Date.now() < end) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization } });
    await response.arrayBuffer();
    if (!response.ok) failed += 1;
    latencies.push(performance.now() - started);
  }
}
Promise.all(Array.from({ length: clients }, lane)).then(() =>
  process.stdout.write(JSON.stringify({ latencies, failed })),
);
`;
type Load = { p50: number; p95: number; p99: number; perSecond: number; failed: number };
function load(): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT_CODE], {
      env: {
        PATH: process.env.PATH ?? '',
        LOAD: JSON.stringify({
          url: `${base}/api/Exam?pageSize=20`,
          authorization: admin.auth.authorization,
          clients: CLIENTS,
          seconds: SECONDS,
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      const { latencies, failed } = JSON.parse(output) as { latencies: number[]; failed: number };
      const sorted = latencies.sort((a, b) => a - b);
      resolve({
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        perSecond: sorted.length / SECONDS,
        failed,
      });
    });
  });
}
const idle = await load();
let busy: Load | undefined;
const drained = await drain(two, async () => {
  busy = await load();
});
await stopAll(two);
const unread = await count(
  sql`select count(*)::int as n from exam_photos where face_status = 'pending'`,
);

const fmt = (x: number) => x.toFixed(2);
console.table([
  {
    leitores: 1,
    'fotos/s': fmt(single.perSecond),
    segundos: fmt(single.seconds),
    'por leitor': single.perWorker.join(' / '),
    'lidas 2x': single.twice,
  },
  {
    leitores: 2,
    'fotos/s': fmt(double.perSecond),
    segundos: fmt(double.seconds),
    'por leitor': double.perWorker.join(' / '),
    'lidas 2x': double.twice,
  },
]);
console.log(
  `Razão 2 leitores / 1 leitor: ${fmt(double.perSecond / single.perSecond)}x (meta: >= 1.8x)`,
);
console.log(
  `Teto da máquina, as mesmas análises sem fila nem banco: 1 processo ${fmt(ceilingOne)} fotos/s, ` +
    `2 processos ${fmt(ceilingTwo)} fotos/s: ${fmt(ceilingTwo / ceilingOne)}x`,
);
const row = (name: string, result: Load | undefined) => ({
  'GET api/Exam': name,
  'p50 ms': result ? fmt(result.p50) : '',
  'p95 ms': result ? fmt(result.p95) : '',
  'p99 ms': result ? fmt(result.p99) : '',
  'req/s': result ? Math.round(result.perSecond) : '',
  falhas: result?.failed ?? '',
});
console.table([row('fila parada', idle), row(`2 leitores lendo ${stored} fotos`, busy)]);
console.log(
  `p95 durante / p95 parada: ${idle.p95 > 0 && busy ? fmt(busy.p95 / idle.p95) : 'n/a'}x ` +
    `(${CLIENTS} clientes, ${SECONDS} s cada)`,
);
console.log(
  `Esvaziamento durante a medida: ${fmt(drained.seconds)} s (${fmt(drained.perSecond)} fotos/s); fotos não lidas ao fim: ${unread}`,
);

await jobs.stop();
await boss.stop({ graceful: true, wait: true, timeout: 5000 });
await app.close();
await database.close();
await own.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
