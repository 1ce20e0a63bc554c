/**
 * The integration photo route (`POST api/Integration/exams/:schedulingId/photos`)
 * BEFORE and AFTER "each picture validated and re-encoded once, outside the
 * transaction", side by side in one run, over real HTTP on loopback, with the
 * API key of a unit, on the same app, database and photos:
 *
 * - AFTER is the server's own route (integration.service addPhoto): the
 *   picture is validated and re-encoded once (biometrics/image), then the
 *   transaction finds the exam and stores that result (storeExamPhoto).
 * - BEFORE is the previous path (integration.service before ec29d5d),
 *   rebuilt here as a bench-only route registered on the same app, with the
 *   same key check, body schema and body limit: validated and re-encoded
 *   outside the transaction (result thrown away), then decoded and re-encoded
 *   again inside the transaction, then stored by the same storeExamPhoto
 *   and announced by the same publishRealtimeAll. The extra pass, and the
 *   transaction it keeps open, is the only difference.
 *
 * Photos: apps/server/test/faces/dev (real camera JPEGs, ~640 px), sent as they are,
 * made smaller (320 px on the long side) and larger (1920 px, which the server
 * brings down to 1280). Each request goes to an exam of its own, so every
 * photo is stored (no "same picture twice" shortcut). Measured one client at
 * a time and with a few concurrent clients (on their own thread, so the
 * server's event loop is the server's alone), BEFORE and AFTER alternating
 * run by run so that drift of a shared machine hits both alike. Also counted:
 * re-encodes per photo (the image module's hook) and the time the work of a
 * transaction holds its connection and locks, per photo (BEGIN, COMMIT and
 * the wait for a connection left out).
 *
 *   npm run bench:photo -w bench [-- --requests 60 --rounds 2 --clients 4]
 *   BENCH_DATABASE_URL=postgres://... measures on PostgreSQL instead of PGlite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { photoInputSchema, type PhotoAddedPayload } from '@exame/shared';
import sharp from 'sharp';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildApp } from '../apps/server/src/app';
import {
  observeNormalisation,
  validateAndNormalizeImage,
} from '../apps/server/src/biometrics/image';
import { loadConfig } from '../apps/server/src/config/env';
import { cpfFromBase } from '../apps/server/src/db/seed/first-start';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import { storeExamPhoto } from '../apps/server/src/modules/exams/exam-photos.service';
import { findExam } from '../apps/server/src/modules/exams/exams.repository';
import { examNotFound } from '../apps/server/src/modules/exams/exams.service';
import { publishRealtimeAll } from '../apps/server/src/modules/realtime/realtime.repository';
import { insertUser } from '../apps/server/src/modules/users/users.repository';
import { currentIntegration } from '../apps/server/src/lib/current-user';
import { listFixtures } from '../apps/server/test/faces/fixtures';
import { argument, openBenchDatabase, productionEnv } from './bench-support';

const REQUESTS = argument('requests', 60);
const ROUNDS = argument('rounds', 2);
const CONCURRENT = argument('clients', 4);
const CLIENT_COUNTS = [1, CONCURRENT];
const WARM_UP = 4;
const PASSWORD = 'Bench#Senha-2026';
const BEFORE_ROUTE = '/bench/before/exams/:schedulingId/photos';

type PathName = 'before' | 'after';
type Size = { name: string; longSide: number | null };
const SIZES: Size[] = [
  { name: 'pequena (320 px)', longSide: 320 },
  { name: 'original (~640 px)', longSide: null },
  { name: 'grande (1920 px)', longSide: 1920 },
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const round1 = (value: number) => Number(value.toFixed(1));

// The photos of each size, as base64 (the body the delivery system sends).
const originals = listFixtures('dev').map((photo) => fs.readFileSync(photo.path));
const photoSets = await Promise.all(
  SIZES.map(async (size) => {
    const files = await Promise.all(
      originals.map((bytes) =>
        size.longSide === null
          ? bytes
          : sharp(bytes)
              .resize(size.longSide, size.longSide, { fit: 'inside', kernel: 'lanczos3' })
              .jpeg({ quality: 90 })
              .toBuffer(),
      ),
    );
    const first = await sharp(files[0]).metadata();
    const meanBytes = files.reduce((sum, file) => sum + file.length, 0) / files.length;
    return {
      size,
      images: files.map((file) => file.toString('base64')),
      example: `${first.width}x${first.height}`,
      meanKiB: Math.round(meanBytes / 1024),
    };
  }),
);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-photo-'));
const config = {
  ...loadConfig({ ...productionEnv(), DATA_DIR: dataDir }),
  webDistDir: '/nonexistent',
};
const database = await openBenchDatabase({ poolSize: 10 });
const hasher = createPasswordHasher(config.argon2);

// How long each transaction's work holds its connection and locks (BEGIN and
// COMMIT, and the wait for a connection, left out), on the handle the app uses.
let transactionMs = 0;
const transaction = database.db.transaction.bind(database.db);
database.db.transaction = ((...[work, options]: Parameters<typeof transaction>) =>
  transaction(async (tx) => {
    const started = performance.now();
    try {
      return await work(tx);
    } finally {
      transactionMs += performance.now() - started;
    }
  }, options)) as typeof database.db.transaction;
let passes = 0;
observeNormalisation(() => {
  passes += 1;
});

const app = await buildApp({ config, database, logger: false, hasher });
const files = app.files;

// BEFORE: the previous path, on the same app (see the file comment).
app.withTypeProvider<ZodTypeProvider>().post(
  BEFORE_ROUTE,
  {
    config: { access: 'integration' },
    bodyLimit: 12 * 1024 * 1024,
    schema: { body: photoInputSchema },
  },
  async (request) => {
    const caller = currentIntegration(request);
    const { schedulingId } = request.params as { schedulingId: string };
    const input = request.body;
    // Validated and re-encoded before the transaction, the result thrown away...
    await validateAndNormalizeImage(input.image);
    return database.db.transaction(async (tx) => {
      const exam = await findExam(tx, caller.federativeUnit, schedulingId);
      if (!exam) throw examNotFound();
      // ...then decoded and re-encoded again inside it, and that one stored.
      const picture = await validateAndNormalizeImage(input.image);
      const photo = await storeExamPhoto(tx, files, exam.id, picture, new Date(input.capturedAt));
      if (photo.created) {
        await publishRealtimeAll(tx, [
          {
            federativeUnit: exam.federativeUnit,
            schedulingLocal: exam.schedulingLocal,
            kind: 'photo_added',
            payload: {
              examId: exam.id,
              schedulingId: exam.schedulingId,
              photoId: photo.id,
            } satisfies PhotoAddedPayload,
          },
        ]);
      }
      return photo;
    });
  },
);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const base = `http://127.0.0.1:${port}`;

async function call(method: string, url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

// An ADMIN of DF signs in and creates the unit's key, as an operator would.
const admin = await insertUser(database.db, {
  name: 'Administração da bancada',
  email: 'admin@bench.exame.local',
  cpf: cpfFromBase('300000001'),
  federativeUnit: 'DF',
  role: 'ADMIN',
  passwordHash: await hasher.hash(PASSWORD),
});
const { token } = (await call(
  'POST',
  '/api/Auth',
  {},
  { email: admin.email, password: PASSWORD },
)) as {
  token: string;
};
const { key } = (await call(
  'POST',
  '/api/Integration/keys',
  { authorization: `Bearer ${token}` },
  { name: 'Bancada de fotos' },
)) as { key: string };

// One started exam per request, so that every photo is stored.
const examsNeeded =
  SIZES.length * CLIENT_COUNTS.length * ROUNDS * 2 * REQUESTS + SIZES.length * 2 * WARM_UP;
const schedulingIds = Array.from({ length: examsNeeded }, (_, index) => `BENCH-FOTO-${index}`);
process.stdout.write(`Criando ${examsNeeded.toLocaleString('pt-BR')} exames...`);
for (let start = 0; start < schedulingIds.length; start += 1000) {
  await call(
    'POST',
    '/api/Integration/exams',
    { 'x-api-key': key },
    {
      exams: schedulingIds.slice(start, start + 1000).map((schedulingId, offset) => ({
        schedulingId,
        candidate: {
          name: 'Candidato da Bancada',
          cpf: cpfFromBase(String(400_000_000 + start + offset)),
          renach: 'DF123456789',
        },
        schedulingDate: '2026-11-20T10:00:00-03:00',
        status: 'started',
        metadata: { schedulingLocal: 'DF.POSTO01-S1' },
        room: 'Sala 1',
        station: 'Estação 01',
      })),
    },
  );
}
console.log(' feito.');
let nextExam = 0;
const takeExams = (count: number) => {
  const taken = schedulingIds.slice(nextExam, nextExam + count);
  nextExam += count;
  return taken;
};

// The clients run on their own thread; each request sends one photo to an exam of its own.
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { base, route, key, exams, images, clients } = workerData;
const bodies = images.map((image) =>
  JSON.stringify({ image, capturedAt: '2026-11-20T10:05:00-03:00' }),
);
const latencies = [];
let failures = 0;
let firstFailure = null;
let next = 0;
async function client() {
  for (;;) {
    const index = next++;
    if (index >= exams.length) return;
    const url = base + route.replace(':schedulingId', encodeURIComponent(exams[index]));
    const body = bodies[index % bodies.length];
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body,
    });
    const text = await response.text();
    latencies.push(performance.now() - started);
    if (response.status !== 200 || !JSON.parse(text).created) {
      failures += 1;
      firstFailure ??= response.status + ' ' + text.slice(0, 200);
    }
  }
}
(async () => {
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, () => client()));
  parentPort.postMessage({ latencies, failures, firstFailure, elapsedMs: performance.now() - started });
})();
`;

type ClientRun = {
  latencies: number[];
  failures: number;
  firstFailure: string | null;
  elapsedMs: number;
};

const ROUTES: Record<PathName, string> = {
  before: BEFORE_ROUTE,
  after: '/api/Integration/exams/:schedulingId/photos',
};

function runClients(
  which: PathName,
  images: string[],
  clients: number,
  requests: number,
): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT_CODE, {
      eval: true,
      workerData: { base, route: ROUTES[which], key, exams: takeExams(requests), images, clients },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

type Totals = {
  latencies: number[];
  elapsedMs: number;
  requests: number;
  failures: number;
  passes: number;
  transactionMs: number;
};
const emptyTotals = (): Totals => ({
  latencies: [],
  elapsedMs: 0,
  requests: 0,
  failures: 0,
  passes: 0,
  transactionMs: 0,
});

async function measure(which: PathName, images: string[], clients: number, into: Totals) {
  const passesBefore = passes;
  const transactionBefore = transactionMs;
  const run = await runClients(which, images, clients, REQUESTS);
  if (run.firstFailure) console.error(`${which}: ${run.firstFailure}`);
  into.latencies.push(...run.latencies);
  into.elapsedMs += run.elapsedMs;
  into.requests += REQUESTS;
  into.failures += run.failures;
  into.passes += passes - passesBefore;
  into.transactionMs += transactionMs - transactionBefore;
}

function summary(totals: Totals) {
  const latencies = [...totals.latencies].sort((a, b) => a - b);
  return {
    photosPerSecond: round1(totals.requests / (totals.elapsedMs / 1000)),
    p50Ms: round1(percentile(latencies, 50)),
    p99Ms: round1(percentile(latencies, 99)),
    reencodesPerPhoto: Number((totals.passes / totals.requests).toFixed(2)),
    transactionMsPerPhoto: round1(totals.transactionMs / totals.requests),
    failures: totals.failures,
  };
}

const results = [];
for (const set of photoSets) {
  // Warm-up of both paths on this size (not counted).
  for (const which of ['before', 'after'] as const) {
    await runClients(which, set.images, 2, WARM_UP);
  }
  for (const clients of CLIENT_COUNTS) {
    const totals: Record<PathName, Totals> = { before: emptyTotals(), after: emptyTotals() };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order: PathName[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const which of order) await measure(which, set.images, clients, totals[which]);
    }
    const before = summary(totals.before);
    const after = summary(totals.after);
    results.push({
      size: set.size.name,
      example: set.example,
      meanKiB: set.meanKiB,
      clients,
      before,
      after,
      throughputRatio: Number((after.photosPerSecond / before.photosPerSecond).toFixed(2)),
    });
  }
}

await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const engine = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite em memória';
console.log(
  `\nFotos da integração (POST api/Integration/exams/:schedulingId/photos), HTTP real em loopback, ${engine}, ${os.availableParallelism()} núcleos; ${REQUESTS} fotos x ${ROUNDS} rodadas por caso; ANTES = nova decodificação e recodificação dentro da transação`,
);
console.table(
  results.map((row) => ({
    foto: `${row.size}, ex. ${row.example}, ~${row.meanKiB} KiB`,
    clientes: row.clients,
    'fotos/s antes': row.before.photosPerSecond,
    'fotos/s depois': row.after.photosPerSecond,
    'depois / antes': row.throughputRatio,
    'p50 ms antes': row.before.p50Ms,
    'p50 ms depois': row.after.p50Ms,
    'p99 ms antes': row.before.p99Ms,
    'p99 ms depois': row.after.p99Ms,
    'recodificações/foto antes': row.before.reencodesPerPhoto,
    'recodificações/foto depois': row.after.reencodesPerPhoto,
    'ms com transação aberta/foto antes': row.before.transactionMsPerPhoto,
    'ms com transação aberta/foto depois': row.after.transactionMsPerPhoto,
  })),
);
const failures = results.reduce((sum, row) => sum + row.before.failures + row.after.failures, 0);
if (failures > 0) console.error(`${failures} requisições falharam: a comparação não vale.`);
console.log(
  JSON.stringify({
    database: database.kind,
    cores: os.availableParallelism(),
    requests: REQUESTS,
    rounds: ROUNDS,
    results,
  }),
);
if (failures > 0) process.exitCode = 1;
