/**
 * Realtime latency: 200 board clients hold the SSE stream of their unit
 * (`GET api/Realtime/events`) while exams change status through the
 * integration API; for each change, the time from sending it to its arrival
 * at each client (p50, p99), printed next to the round trip of a plain
 * request (`GET /health/live`) measured in the same run, with the same 200
 * clients connected. Goal: p99 under 1 s.
 *
 * The server runs on this thread alone; the clients, the changes and the
 * plain requests run on a worker thread over real HTTP on loopback, so that
 * the measuring side does not compete with the server's event loop. PGlite
 * in memory by default; BENCH_DATABASE_URL measures a PostgreSQL server.
 *
 *   npm run bench:realtime -w bench [-- --clients 200 --changes 100]
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { cpfFromBase } from '../apps/server/src/db/seed/first-start';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import { insertUser } from '../apps/server/src/modules/users/users.repository';
import { argument, openBenchDatabase, productionEnv } from './bench-support';

const CLIENTS = argument('clients', 200);
const CHANGES = argument('changes', 100);
const UNIT = 'DF';
const PASSWORD = 'Bench#Senha-2026';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

const config = { ...loadConfig(productionEnv()), webDistDir: '/nonexistent' };
const database = await openBenchDatabase({ poolSize: 10 });
const hasher = createPasswordHasher(config.argon2);
await insertUser(database.db, {
  name: 'Pessoa do Painel',
  email: 'painel@bench.exame.local',
  cpf: cpfFromBase('310000000'),
  federativeUnit: UNIT,
  role: 'ADMIN',
  passwordHash: await hasher.hash(PASSWORD),
});
const app = await buildApp({ config, database, logger: false, hasher });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

// The board clients share one session (what matters is the number of streams).
const signIn = await app.inject({
  method: 'POST',
  url: '/api/Auth',
  payload: { email: 'painel@bench.exame.local', password: PASSWORD },
});
const token = (signIn.json() as { token: string }).token;
const created = await app.inject({
  method: 'POST',
  url: '/api/Integration/keys',
  headers: { authorization: `Bearer ${token}` },
  payload: { name: 'Bench' },
});
const apiKey = (created.json() as { key: string }).key;

// Each exam changes twice (scheduled -> started -> done), as on a morning of exams.
const exams = Array.from({ length: Math.ceil(CHANGES / 2) }, (_, index) => ({
  schedulingId: `BENCH-RT-${index}`,
  candidate: { name: `Candidato ${index}`, cpf: cpfFromBase(String(320_000_000 + index)) },
  schedulingDate: new Date().toISOString(),
  status: 'scheduled',
  metadata: { schedulingLocal: `${UNIT}.POSTO01-S${(index % 20) + 1}` },
  room: 'Sala 1',
  station: `Estação ${String((index % 20) + 1).padStart(2, '0')}`,
}));
const pushed = await app.inject({
  method: 'POST',
  url: '/api/Integration/exams',
  headers: { 'x-api-key': apiKey },
  payload: { exams },
});
if (pushed.statusCode !== 200) throw new Error(`exames: ${pushed.statusCode} ${pushed.body}`);
const changes = Array.from({ length: CHANGES }, (_, index) => {
  const exam = exams[Math.floor(index / 2)]!;
  return index % 2 === 0
    ? { schedulingId: exam.schedulingId, body: { status: 'started' } }
    : { schedulingId: exam.schedulingId, body: { status: 'done', result: 'approved' } };
});

const CLIENT_CODE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { baseUrl, token, apiKey, clients, changes } = workerData;
const now = () => performance.now();

// Arrivals of the change being measured: one time per client.
let expected = null;
let arrivals = [];
let onAllArrived = null;
let eventsSeen = 0;

function openClient(index) {
  return new Promise((resolve, reject) => {
    const request = http.get(baseUrl + '/api/Realtime/events', {
      agent: false,
      headers: { authorization: 'Bearer ' + token, accept: 'text/event-stream' },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error('stream ' + response.statusCode));
      response.setEncoding('utf8');
      let buffer = '';
      let ready = false;
      response.on('data', (chunk) => {
        const at = now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\\n\\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!ready && block.startsWith('id:')) {
            ready = true;
            resolve(request);
          }
          const data = block.split('\\n').find((line) => line.startsWith('data: '));
          if (!data || expected === null) continue;
          const event = JSON.parse(data.slice(6));
          eventsSeen += 1;
          if (event.payload.schedulingId === expected.schedulingId && event.payload.status === expected.status && arrivals[index] === undefined) {
            arrivals[index] = at;
            if (arrivals.filter((value) => value !== undefined).length === clients) onAllArrived?.();
          }
        }
      });
    });
  });
}

function call(method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const started = now();
    const request = http.request(baseUrl + path, { method, headers }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode, ms: now() - started }));
    });
    request.once('error', reject);
    request.end(body);
  });
}

(async () => {
  const connected = [];
  // Connect in groups, as screens open through a morning, not all in one instant.
  for (let index = 0; index < clients; index += 20) {
    const group = [];
    for (let offset = index; offset < Math.min(clients, index + 20); offset += 1) group.push(openClient(offset));
    connected.push(...(await Promise.all(group)));
  }
  parentPort.postMessage({ type: 'ready' });
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  const slowest = [];
  const patches = [];
  const plain = [];
  let missed = 0;
  for (const [index, change] of changes.entries()) {
    // A plain request under the same load, between two changes.
    const live = await new Promise((resolve, reject) => {
      const started = now();
      http.get(baseUrl + '/health/live', { agent: keepAlive }, (response) => {
        response.resume();
        response.once('end', () => resolve(now() - started));
      }).once('error', reject);
    });
    if (index >= 5) plain.push(live);
    expected = { schedulingId: change.schedulingId, status: change.body.status };
    arrivals = new Array(clients);
    const all = new Promise((resolve) => {
      onAllArrived = resolve;
      setTimeout(resolve, 5000);
    });
    const sent = now();
    const body = JSON.stringify(change.body);
    const answer = await call('PATCH', '/api/Integration/exams/' + change.schedulingId + '/status', {
      'x-api-key': apiKey,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    }, body);
    if (answer.status !== 200) throw new Error('PATCH ' + answer.status);
    await all;
    onAllArrived = null;
    expected = null;
    // The first changes warm the server up; they are not counted.
    if (index < 5) continue;
    patches.push(answer.ms);
    let last = 0;
    for (const at of arrivals) {
      if (at === undefined) { missed += 1; continue; }
      latencies.push(at - sent);
      last = Math.max(last, at - sent);
    }
    slowest.push(last);
  }
  for (const request of connected) request.destroy();
  keepAlive.destroy();
  parentPort.postMessage({ type: 'done', latencies, slowest, patches, plain, missed, eventsSeen });
})().catch((error) => { throw error; });
`;

type Result = {
  latencies: number[];
  slowest: number[];
  patches: number[];
  plain: number[];
  missed: number;
  eventsSeen: number;
};

const started = Date.now();
let connected = 0;
const result = await new Promise<Result>((resolve, reject) => {
  const worker = new Worker(CLIENT_CODE, {
    eval: true,
    workerData: { baseUrl, token, apiKey, clients: CLIENTS, changes },
  });
  worker.on('message', (message: { type: 'ready' } | ({ type: 'done' } & Result)) => {
    // The streams the server holds while the changes are measured.
    if (message.type === 'ready') connected = app.realtime.size();
    else resolve(message);
  });
  worker.once('error', reject);
});
const elapsedS = (Date.now() - started) / 1000;
await app.close();
await database.close();

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const row = (name: string, values: number[]) => {
  const list = sorted(values);
  return {
    medida: name,
    amostras: list.length,
    'p50 (ms)': Number(percentile(list, 50).toFixed(1)),
    'p99 (ms)': Number(percentile(list, 99).toFixed(1)),
    'máx (ms)': Number((list.at(-1) ?? Number.NaN).toFixed(1)),
  };
};
const arrival = row(`mudança -> cada um dos ${CLIENTS} clientes`, result.latencies);
const last = row(`mudança -> o último dos ${CLIENTS} clientes`, result.slowest);
const plain = row('GET /health/live (ida e volta)', result.plain);
console.log(
  `\nTempo real: ${CLIENTS} clientes SSE, ${CHANGES} mudanças de situação (5 de aquecimento), ` +
    `${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite em memória'}, ` +
    `${availableParallelism()} núcleos, ${elapsedS.toFixed(0)} s`,
);
console.table([arrival, last, row('PATCH de situação (ida e volta)', result.patches), plain]);
const ratio = arrival['p50 (ms)'] / plain['p50 (ms)'];
console.log(
  `razão p50 chegada / p50 requisição simples: ${ratio.toFixed(1)}x; ` +
    `eventos perdidos: ${result.missed}; streams abertos no servidor durante a medição: ${connected}`,
);
console.log(
  `meta p99 < 1 s: ${arrival['p99 (ms)'] < 1000 && result.missed === 0 ? 'atingida' : 'NÃO atingida'}`,
);
