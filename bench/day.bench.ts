/**
 * A busy day, side by side: the product as it is and as it was (an earlier
 * commit, `--baseline`), each a real server process on a database of its own
 * holding the same busy unit (20 posts, `--exams` exams over a year, see
 * day/data.ts), under the same simulated users (day/load-client.mjs):
 * examiners polling their boards every 5 s with the event stream open,
 * auditors working the queue, admins on the dashboard, the report and the
 * lists, the delivery system pushing status changes, occurrences and new
 * exams, and every screen's page view. Three examiners for each auditor and
 * each admin; people think 1 to 4 s between actions.
 *
 * For each level of simulated users (`--levels`), each variant runs
 * `--seconds` in turn (the order alternates between levels), and the run
 * prints per route class: requests per second, p50/p95/p99, answers other
 * than 2xx by status; the delivery of board events (p50/p95/p99 from the
 * change sent to its arrival on each open stream); the CPU per request of the
 * server process and, on PostgreSQL, of its database backends, with the
 * connections the server opened meanwhile; and the statements that took the
 * database most time: by pg_stat_statements when the server loads it
 * (`shared_preload_libraries`, with `pg_stat_statements.track_planning` for
 * the planning time), otherwise the ones it was running most (pg_stat_activity
 * sampled every 20 ms). Then the growth table of the main reads (day/growth.ts) and of the
 * activity and check-in searches (day/growth-searches.ts).
 *
 *   npm run bench:day -w bench [-- --levels 20,50,100 --seconds 45 --exams 100000
 *     --baseline d529d4b --growth 10000,100000,1000000]
 *
 * PGlite always; PostgreSQL too when BENCH_DATABASE_URL names a server (a
 * database per variant is created and dropped there). `--engine pglite` or
 * `--engine postgres` runs one; `--baseline none` measures this checkout
 * alone; `--growth none` skips the growth table, `--levels none` the load.
 * `--roles examiner;auditor;admin;integration` measures each role alone, one
 * set after the other at every level (what each costs the database).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addDays, dayInZone } from '@exame/shared';
import { loadConfig } from '../apps/server/src/config/env';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import { productionEnv } from './bench-support';
import { POSTS, seedBusyUnit, simulatedUsers, type SimulatedUser } from './day/data';
import { runGrowth } from './day/growth';
import { runSearchGrowth } from './day/growth-searches';
import { cpuMs, waitAtRest } from '../apps/server/test/spawn-server';
import {
  ms,
  postgresProbe,
  summarize,
  percentile,
  type ClientResult,
  type StatementTime,
} from './day/measure';
import {
  baselineTree,
  databaseFor,
  REPO_ROOT,
  startServer,
  type RunningServer,
  type Variant,
} from './day/servers';

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}
const numbers = (text: string) =>
  text
    .split(',')
    .map(Number)
    .filter((value) => Number.isInteger(value) && value > 0);

const LEVELS = numbers(option('levels', '20,50,100'));
const SECONDS = Number(option('seconds', '45'));
const EXAMS = Number(option('exams', '100000'));
const BASELINE = option('baseline', 'd529d4b');
const GROWTH = option('growth', '10000,100000,1000000');
const ENGINE = option('engine', 'both');
const PASSWORD = 'Bench#Dia-2026';
const POSTGRES_URL = process.env.BENCH_DATABASE_URL;
/** Role sets measured one after the other at each level (`examiner;admin,integration`). */
const ROLE_SETS = option('roles', 'all')
  .split(';')
  .map((set) => set.split(',').filter(Boolean));

const variants: Variant[] = [
  ...(BASELINE === 'none' ? [] : [{ name: `antes (${BASELINE})`, root: baselineTree(BASELINE) }]),
  { name: 'depois', root: REPO_ROOT },
];
const engines = [
  ...(ENGINE !== 'postgres' ? [{ name: 'PGlite', url: undefined }] : []),
  ...(ENGINE !== 'pglite' && POSTGRES_URL ? [{ name: 'PostgreSQL', url: POSTGRES_URL }] : []),
];
const users = simulatedUsers(Math.max(0, ...LEVELS));
const env = {
  ...productionEnv(),
  ADMIN_PASSWORD: PASSWORD,
  SEED_DEMO: 'true',
  ACTIVITY_CLIENT_EVENTS_PER_HOUR: '100000',
};
const hasher = createPasswordHasher(loadConfig(productionEnv()).argon2);
const passwordHash = await hasher.hash(PASSWORD);
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-day-'));

type Ready = {
  variant: Variant;
  server: RunningServer;
  url?: string;
  plan: Record<string, unknown>;
  drop: () => Promise<void>;
};

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/Auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`login de ${email}: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

async function post(base: string, token: string, url: string, body: unknown) {
  const response = await fetch(base + url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

/** A variant's server on its own database with the busy unit, its users signed in. */
async function prepare(variant: Variant, url: string | undefined): Promise<Ready> {
  const place = await databaseFor(variant.name.split(' ')[0]!, folder, url);
  // The first start migrates and seeds the demo; the busy unit is written with the server down.
  await (await startServer(variant, place, env)).stop();
  const { todayExams } = await seedBusyUnit(place, { exams: EXAMS, users, passwordHash });
  const server = await startServer(variant, place, env);
  const admin = await signIn(server.base, 'admin@demo.exame.local');
  const key = (await post(server.base, admin, '/api/Integration/keys', { name: 'dia' })).body as {
    key: string;
  };
  const signed: Array<SimulatedUser & { token: string; checkInId?: string }> = [];
  let rooms = 0;
  for (const user of users) {
    const token = await signIn(server.base, user.email);
    let checkInId: string | undefined;
    if (user.role === 'examiner') {
      const opened = await post(server.base, token, '/api/SchedulingLocalCheckIn/checkIn', {
        viewers: [{ cpf: user.cpf }],
        schedulingLocal: user.post,
      });
      if (opened.status === 201) {
        checkInId = (opened.body as { id: string }).id;
        rooms += 1;
      }
    }
    signed.push({ ...user, token, checkInId });
  }
  const examiners = users.filter((user) => user.role === 'examiner').length;
  // After a start it reads the demo's exam photos (the face-read queue) for half a
  // minute or so: background work no simulated user asked, which would be charged
  // to whichever variant is measured first.
  const settled = await waitAtRest(server.pid, { windowMs: 5000, timeoutMs: 300_000 });
  console.log(
    `  ${variant.name}: pronto, ${rooms} de ${examiners} examinadores com registro aberto; ` +
      `servidor em repouso após ${settled} s`,
  );
  const today = dayInZone(new Date());
  const periods = [0, 7, 30].map((days) => `startDate=${addDays(today, -days)}&endDate=${today}`);
  return {
    variant,
    server,
    url: place.kind === 'postgres' ? place.url : undefined,
    plan: {
      base: server.base,
      key: key.key,
      today,
      periods,
      posts: POSTS,
      names: ['Ana', 'Silva', 'Maria Souza', 'João', 'Conceição'],
      users: signed,
      todayExams,
    },
    drop: async () => {
      await server.stop();
      if (place.kind === 'postgres') await place.drop();
    },
  };
}

/** The exams each run starts and finishes: a slice of its own, so that every change is a real one. */
let slice = 0;

function runClient(
  plan: Record<string, unknown>,
  level: number,
  seconds = SECONDS,
  roles: string[] = ['all'],
): Promise<ClientResult> {
  const all = roles.includes('all');
  const chosen = (plan.users as Array<{ role: string }>)
    .slice(0, level)
    .filter((user) => all || roles.includes(user.role));
  const integration = all || roles.includes('integration');
  const exams = plan.todayExams as string[];
  const size = Math.floor(exams.length / (2 * LEVELS.length * ROLE_SETS.length + 2));
  const todayExams = exams.slice(slice * size, (slice + 1) * size);
  slice = (slice + 1) % (2 * LEVELS.length * ROLE_SETS.length + 2);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'day/load-client.mjs')], {
      env: {
        ...process.env,
        PLAN: JSON.stringify({ ...plan, users: chosen, todayExams, seconds, integration }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output) as ClientResult)
        : reject(new Error(`cliente: ${code}`)),
    );
  });
}

type Measured = {
  result: ClientResult;
  serverCpuMs: number;
  databaseCpuMs?: number;
  connectionsOpened?: number;
  statementTimes?: StatementTime[];
  statementTotals?: StatementTime;
  statements?: Array<{ query: string; running: number }>;
};

async function measure(ready: Ready, level: number, roles: string[]): Promise<Measured> {
  const probe = ready.url ? await postgresProbe(ready.url) : undefined;
  const cpuBefore = cpuMs(ready.server.pid);
  probe?.start();
  const result = await runClient(ready.plan, level, SECONDS, roles);
  const serverCpuMs = cpuMs(ready.server.pid) - cpuBefore;
  const database = await probe?.stop();
  await probe?.close();
  return {
    result,
    serverCpuMs,
    databaseCpuMs: database?.cpuMs,
    connectionsOpened: database?.connectionsOpened,
    statementTimes: database?.statementTimes,
    statementTotals: database?.statementTotals,
    statements: database?.statements,
  };
}

function report(level: number, roles: string[], measured: Array<[Variant, Measured]>) {
  const only = roles.includes('all') ? '' : ` (só ${roles.join(', ')})`;
  console.log(`\n  ${level} usuários simulados${only}, ${SECONDS} s cada:`);
  const rows = new Map<string, string[]>();
  for (const [variant, run] of measured) {
    for (const row of summarize(run.result)) {
      const line = `${variant.name.padEnd(18)} ${row.perSecond.toFixed(1).padStart(6)}/s  p50 ${ms(row.p50).padStart(5)}  p95 ${ms(row.p95).padStart(5)}  p99 ${ms(row.p99).padStart(5)} ms  não-2xx ${row.errors}`;
      rows.set(row.name, [...(rows.get(row.name) ?? []), line]);
    }
  }
  for (const [name, lines] of [...rows.entries()].sort()) {
    console.log(`    ${name}`);
    for (const line of lines) console.log(`      ${line}`);
  }
  for (const [variant, run] of measured) {
    const requests = summarize(run.result).reduce((sum, row) => sum + row.requests, 0);
    const events = [...run.result.deliveries].sort((a, b) => a - b);
    const cpu = `servidor ${(run.serverCpuMs / Math.max(1, requests)).toFixed(2)} ms/req${
      run.databaseCpuMs === undefined
        ? ' (o PGlite roda dentro do processo do servidor)'
        : `, banco ${(run.databaseCpuMs / Math.max(1, requests)).toFixed(2)} ms/req, ${run.connectionsOpened ?? 0} conexões abertas`
    }`;
    console.log(
      `    ${variant.name}: eventos no quadro p50 ${ms(percentile(events, 50))} p95 ${ms(percentile(events, 95))} p99 ${ms(percentile(events, 99))} ms (${events.length} entregas de ${run.result.changesSent} mudanças a ${run.result.streamsOpen} fluxos, ${run.result.streamErrors} recusados); CPU ${cpu}`,
    );
    if (run.statementTimes && run.statementTotals) {
      const all = run.statementTotals;
      const perRequest = (value: number) => (value / Math.max(1, requests)).toFixed(2);
      console.log(
        `      por requisição: ${perRequest(all.calls)} instruções, ${perRequest(all.execMs)} ms de execução e ${perRequest(all.planMs)} ms de planejamento (pg_stat_statements)`,
      );
      for (const statement of run.statementTimes) {
        const each = (statement.execMs + statement.planMs) / Math.max(1, statement.calls);
        console.log(
          `      ${statement.execMs.toFixed(0).padStart(6)} ms execução + ${statement.planMs.toFixed(0).padStart(4)} ms planejamento, ${String(statement.calls).padStart(5)} vezes (${each.toFixed(2)} ms cada): ${statement.query}`,
        );
      }
      continue;
    }
    for (const statement of run.statements ?? []) {
      console.log(`      ${statement.running.toFixed(2)} em execução em média: ${statement.query}`);
    }
  }
}

for (const engine of LEVELS.length > 0 ? engines : []) {
  console.log(`\n${engine.name}: preparando ${variants.length} servidores com ${EXAMS} exames...`);
  const prepared: Ready[] = [];
  for (const variant of variants) prepared.push(await prepare(variant, engine.url));
  // A warm-up of each server (its code compiled, its caches filled), not counted.
  for (const ready of prepared) await runClient(ready.plan, Math.min(...LEVELS), 15);
  let turn = 0;
  for (const level of LEVELS) {
    for (const roles of ROLE_SETS) {
      const order = turn++ % 2 === 0 ? prepared : [...prepared].reverse();
      const measured: Array<[Variant, Measured]> = [];
      for (const ready of order) measured.push([ready.variant, await measure(ready, level, roles)]);
      measured.sort((a, b) => variants.indexOf(a[0]) - variants.indexOf(b[0]));
      report(level, roles, measured);
    }
  }
  for (const ready of prepared) await ready.drop();
}

if (GROWTH !== 'none') {
  await runGrowth({ sizes: numbers(GROWTH), variants, postgresUrl: POSTGRES_URL });
  await runSearchGrowth({ sizes: numbers(GROWTH), postgresUrl: POSTGRES_URL });
}
fs.rmSync(folder, { recursive: true, force: true });
process.exit(0);
