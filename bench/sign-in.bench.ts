/**
 * Sign-in throughput and latency at 50 concurrent clients over real HTTP on
 * loopback, printed next to the cost of one argon2id hash measured in the
 * same run. Sign-in is bound by argon2id by design (the guide's >= 19 MiB,
 * t=2); the ratio shows how close the server gets to that floor.
 *
 *   npm run bench:sign-in -w bench [-- --clients 50 --requests 1000]
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { cpfFromBase } from '../apps/server/src/db/seed/first-start';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import { insertUser } from '../apps/server/src/modules/users/users.repository';
import { argument, openBenchDatabase, productionEnv } from './bench-support';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const CLIENTS = argument('clients', 50);
const REQUESTS = argument('requests', 1000);
const USERS = 200;
const PASSWORD = 'Bench#Senha-2026';

const config = {
  ...loadConfig(productionEnv()),
  webDistDir: '/nonexistent',
  // One client address for everyone: keep the per-address throttle out of the measurement.
  loginThrottle: {
    failureFactor: 1_000_000,
    ipFailureFactor: 1_000_000,
    waitIncrementMs: 1,
    maxWaitMs: 1,
  },
};
// BENCH_DATABASE_URL measures against a PostgreSQL server instead of embedded PGlite.
const database = await openBenchDatabase({ poolSize: 10 });
const hasher = createPasswordHasher(config.argon2);

// One argon2id hash, measured alone (median of 30).
const hashTimes: number[] = [];
for (let index = 0; index < 30; index += 1) {
  const start = performance.now();
  await hasher.hash(PASSWORD);
  hashTimes.push(performance.now() - start);
}
hashTimes.sort((a, b) => a - b);
const hashMs = percentile(hashTimes, 50);

const passwordHash = await hasher.hash(PASSWORD);

// The same verifications with no server around them, 50 at a time: the ceiling sign-in can reach.
const parallelStarted = performance.now();
const PARALLEL_HASHES = 400;
let issued = 0;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (issued++ < PARALLEL_HASHES) await hasher.verify(passwordHash, PASSWORD);
  }),
);
const hashesPerSecond = PARALLEL_HASHES / ((performance.now() - parallelStarted) / 1000);
const emails: string[] = [];
for (let index = 0; index < USERS; index += 1) {
  const email = `bench${index}@bench.exame.local`;
  emails.push(email);
  await insertUser(database.db, {
    name: `Pessoa ${index}`,
    email,
    cpf: cpfFromBase(String(300_000_000 + index)),
    federativeUnit: 'DF',
    role: 'VIEWER',
    passwordHash,
  });
}

const app = await buildApp({ config, database, logger: false, hasher });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const url = `http://127.0.0.1:${port}/api/Auth`;

// The clients run on their own thread, so the server's event loop is the server's alone.
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { url, emails, password, clients, requests } = workerData;
const latencies = [];
let failures = 0;
let next = 0;
async function client() {
  for (;;) {
    const index = next++;
    if (index >= requests) return;
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: emails[index % emails.length], password }),
    });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) failures += 1;
  }
}
(async () => {
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, () => client()));
  parentPort.postMessage({ latencies, failures, elapsedMs: performance.now() - started });
})();
`;

function runClients(
  clients: number,
  requests: number,
): Promise<{ latencies: number[]; failures: number; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT_CODE, {
      eval: true,
      workerData: { url, emails, password: PASSWORD, clients, requests },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

await runClients(5, 10); // warm-up
const run = await runClients(CLIENTS, REQUESTS);
const latencies = run.latencies.sort((a, b) => a - b);
const failures = run.failures;
const elapsedS = run.elapsedMs / 1000;

await app.close();
await database.close();

const throughput = REQUESTS / elapsedS;
const cores = availableParallelism();
// libuv runs argon2 on its thread pool (4 threads by default) over the machine's cores.
const hashFloor = (Math.min(cores, 4) * 1000) / hashMs;
const result = {
  clients: CLIENTS,
  requests: REQUESTS,
  failures,
  cores,
  argon2idHashMs: Number(hashMs.toFixed(1)),
  signInsPerSecond: Number(throughput.toFixed(1)),
  p50Ms: Number(percentile(latencies, 50).toFixed(1)),
  p99Ms: Number(percentile(latencies, 99).toFixed(1)),
  hashBoundSignInsPerSecond: Number(hashFloor.toFixed(1)),
  argon2idVerificationsPerSecondAt50: Number(hashesPerSecond.toFixed(1)),
};
console.log(
  `Sign-in (POST api/Auth), real HTTP on loopback, ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite in memory'}`,
);
console.table({
  'one argon2id hash (ms, median of 30)': result.argon2idHashMs,
  [`sign-ins per second at ${CLIENTS} clients`]: result.signInsPerSecond,
  'p50 latency (ms)': result.p50Ms,
  'p99 latency (ms)': result.p99Ms,
  [`hash-bound ceiling (min(cores,4) / hash), ${cores} cores`]: result.hashBoundSignInsPerSecond,
  'throughput / hash-bound ceiling': Number((throughput / hashFloor).toFixed(2)),
  [`argon2id verifications per second, ${CLIENTS} at a time, no server`]:
    result.argon2idVerificationsPerSecondAt50,
  'sign-ins / bare verifications (same run)': Number((throughput / hashesPerSecond).toFixed(2)),
  'p99 / one hash': Number((result.p99Ms / hashMs).toFixed(1)),
  failures,
});
console.log(JSON.stringify(result));
if (failures > 0) process.exitCode = 1;
