/**
 * The exam report read from the maintained counters (`GET api/ExamReport`,
 * what the product does: O(posts x days) rows of exam_day_counts) against
 * the original's way: load every exam of the period and count
 * in JavaScript (the shared reference implementation, `countLocalReports`).
 * Over 1 000 000 demo exams, about a third of them in the period, on PGlite
 * and, when BENCH_DATABASE_URL is set, also on PostgreSQL, in one run. Both
 * answers are checked equal; time and bytes to the browser are printed side
 * by side.
 *
 *   npm run bench:report -w bench [-- --exams 1000000 --runs 5]
 *
 * The counters side is measured through the real route (app.inject: session
 * check, SQL, JSON); the baseline is only the row query plus the JavaScript
 * count, with no HTTP and no serialisation, so the ratio understates the gap.
 * After seeding, the counters kept by the triggers are checked against a full
 * recount (`diffCounters`, what `counters:check` runs) and the time of that
 * recount is printed too: it is what a report over the exams table costs.
 */
import { countLocalReports, type ReportExamInput } from '@exame/shared/exam-report-reference';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { dayInZone, addDays, localPrefixFor, resolvePeriod, type LocalReport } from '@exame/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { selectRows } from '../apps/server/src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../apps/server/src/db/seed/demo-exams';
import { cpfFromBase } from '../apps/server/src/db/seed/first-start';
import { ensureReferenceData } from '../apps/server/src/db/seed/reference-data';
import { createPasswordHasher } from '../apps/server/src/lib/password-hash';
import { insertUser } from '../apps/server/src/modules/users/users.repository';
import { diffCounters } from '../apps/server/src/modules/exam-report/exam-counts.repository';
import { argument, productionEnv } from './bench-support';

const EXAMS = argument('exams', 1_000_000);
const RUNS = argument('runs', 5);
const BATCH = 200_000;
const UNIT = 'DEMO';
const PASSWORD = 'Bench#Relatorio-2026';
const DAY_MS = 86_400_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

type Engine = {
  name: string;
  open: () => Promise<DatabaseHandle & { dispose: () => Promise<void> }>;
};

const engines: Engine[] = [
  {
    name: 'PGlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-report-'));
      const handle = await openDatabase({ kind: 'pglite', dataDir: dir });
      return {
        ...handle,
        dispose: async () => {
          await handle.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
];
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim();
if (postgresUrl) {
  engines.push({
    name: 'PostgreSQL',
    open: async () => {
      // A database of its own, dropped at the end: the server's other data is left alone.
      const name = `bench_report_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(postgresUrl);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
      return {
        ...handle,
        dispose: async () => {
          await handle.close();
          const cleanup = new pg.Client({ connectionString: postgresUrl });
          await cleanup.connect();
          await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await cleanup.end();
        },
      };
    },
  });
}

// 90 days of exams ending today; the period is the 30 days in the middle (about a third).
const today = dayInZone(new Date());
const seedFrom = new Date(Date.now() - 75 * DAY_MS);
const seedTo = new Date(Date.now() + 15 * DAY_MS);
const startDay = addDays(today, -45);
const endDay = addDays(today, -16);
const period = resolvePeriod(startDay, endDay);
if (!period.ok) throw new Error(period.message);

type Row = {
  engine: string;
  exams: number;
  inPeriod: number;
  sqlMs: number;
  jsMs: number;
  sqlBytes: number;
  jsBytes: number;
  plan: string;
  equal: boolean;
  seedSeconds: number;
  recountMs: number;
  countersEqual: boolean;
};
const results: Row[] = [];

for (const engine of engines) {
  console.log(`\n${engine.name}: semeando ${EXAMS.toLocaleString('pt-BR')} exames...`);
  const database = await engine.open();
  try {
    await database.migrate();
    await ensureReferenceData(database.db);
    await seedDemoLocals(database.db, UNIT);
    const seedStarted = performance.now();
    let written = 0;
    for (let done = 0; done < EXAMS; done += BATCH) {
      written += await seedDemoExams(database.db, {
        exams: Math.min(BATCH, EXAMS - done),
        from: seedFrom,
        to: seedTo,
        unit: UNIT,
        offset: done,
        seed: ((done / BATCH) % 100) / 100,
      });
      process.stdout.write(`\r  ${written.toLocaleString('pt-BR')} exames inseridos`);
    }
    await database.db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    console.log(` em ${seedSeconds.toFixed(1)} s (com os contadores mantidos pelos gatilhos)`);
    const recountStarted = performance.now();
    const drift = await diffCounters(database.db);
    const recountMs = performance.now() - recountStarted;
    console.log(
      `  contadores x recontagem completa: ${drift.length === 0 ? 'iguais' : `${drift.length} diferenças`} (${(recountMs / 1000).toFixed(1)} s)`,
    );

    const config = {
      ...loadConfig(productionEnv()),
      webDistDir: '/nonexistent',
    };
    const hasher = createPasswordHasher(config.argon2);
    const admin = await insertUser(database.db, {
      name: 'Administrador Bench',
      email: 'admin@bench.exame.local',
      cpf: cpfFromBase('400000001'),
      federativeUnit: UNIT,
      role: 'ADMIN',
      passwordHash: await hasher.hash(PASSWORD),
    });
    const app = await buildApp({ config, database, logger: false, hasher });
    await app.ready();
    const login = await app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: admin.email, password: PASSWORD },
    });
    const { token } = login.json() as { token: string };
    const query = { startDate: startDay, endDate: endDay };

    // The product: one aggregation in SQL through the real route.
    const sqlTimes: number[] = [];
    let sqlBody = '';
    for (let run = 0; run <= RUNS; run += 1) {
      const started = performance.now();
      const response = await app.inject({
        method: 'GET',
        url: '/api/ExamReport',
        query,
        headers: { authorization: `Bearer ${token}` },
      });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`relatório falhou: ${response.body}`);
      sqlBody = response.body;
      // The first run warms the caches; it is not counted.
      if (run > 0) sqlTimes.push(elapsed);
    }

    // The original: every exam of the period loaded, then counted in JavaScript.
    const jsTimes: number[] = [];
    let rows: ReportExamInput[] = [];
    let jsReports: LocalReport[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const started = performance.now();
      const loaded = await selectRows<{
        federative_unit: string;
        scheduling_date: Date | string;
        status: ReportExamInput['status'];
        result: ReportExamInput['result'];
        scheduling_local: string | null;
        pending_audit: number;
        absence: number;
        interrupted: number;
      }>(
        database.db,
        sql`select federative_unit, scheduling_date, status, result, scheduling_local,
                   pending_audit, absence, interrupted
            from exams
            where federative_unit = ${UNIT}
              and scheduling_date >= ${period.start.toISOString()}::timestamptz
              and scheduling_date < ${period.endExclusive.toISOString()}::timestamptz
              and status <> 'cancelled'`,
      );
      const locals = await selectRows<{ identifier: string; description: string }>(
        database.db,
        sql`select identifier, description from scheduling_locals where federative_unit = ${UNIT}`,
      );
      rows = loaded.map((row) => ({
        federativeUnit: row.federative_unit,
        schedulingDate: new Date(row.scheduling_date).toISOString(),
        status: row.status,
        result: row.result,
        schedulingLocal: row.scheduling_local,
        pendingAudit: row.pending_audit,
        absence: row.absence,
        interrupted: row.interrupted,
      }));
      jsReports = countLocalReports(
        rows,
        locals.map((local) => ({ ...local, federativeUnit: UNIT })),
        {
          unit: UNIT,
          prefix: localPrefixFor(UNIT, config.reportLocalPrefixes),
          start: period.start,
          endExclusive: period.endExclusive,
        },
      );
      const elapsed = performance.now() - started;
      if (run > 0) jsTimes.push(elapsed);
    }

    const [count] = await selectRows<{ n: number | string }>(
      database.db,
      sql`select count(*) as n from exams`,
    );
    const plan = await selectRows<{ 'QUERY PLAN': string }>(
      database.db,
      sql`explain select scheduling_local, status from exams
          where federative_unit = ${UNIT}
            and scheduling_date >= ${period.start.toISOString()}::timestamptz
            and scheduling_date < ${period.endExclusive.toISOString()}::timestamptz
            and status <> 'cancelled'`,
    );
    const scan = plan
      .map((line) => line['QUERY PLAN'])
      .find((line) => /Scan/.test(line))
      ?.trim()
      .replace(/\s+\(cost.*$/, '');
    const sqlReports = JSON.parse(sqlBody) as LocalReport[];
    results.push({
      engine: engine.name,
      exams: Number(count?.n ?? 0),
      inPeriod: rows.length,
      sqlMs: median(sqlTimes),
      jsMs: median(jsTimes),
      sqlBytes: Buffer.byteLength(sqlBody),
      jsBytes: Buffer.byteLength(JSON.stringify(rows)),
      plan: scan ?? '?',
      equal: JSON.stringify(sqlReports) === JSON.stringify(jsReports),
      seedSeconds,
      recountMs,
      countersEqual: drift.length === 0,
    });
    await app.close();
  } finally {
    await database.dispose();
  }
}

const format = (value: number, digits = 0) =>
  value.toLocaleString('pt-BR', { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(
  `\nRelatório por posto, período ${startDay} a ${endDay} (inclusivo), mediana de ${RUNS} execuções após 1 de aquecimento`,
);
console.table(
  Object.fromEntries(
    results.map((row) => [
      row.engine,
      {
        exames: format(row.exams),
        'no período': format(row.inPeriod),
        'contadores (ms)': format(row.sqlMs, 1),
        'carregar e contar (ms)': format(row.jsMs, 1),
        'tempo carregar/contadores': `${format(row.jsMs / row.sqlMs, 1)}×`,
        'JSON relatório (B)': format(row.sqlBytes),
        'JSON linhas (B)': format(row.jsBytes),
        'bytes linhas/relatório': `${format(row.jsBytes / row.sqlBytes)}×`,
        'mesmo resultado': row.equal ? 'sim' : 'NÃO',
        'contadores = recontagem': row.countersEqual ? 'sim' : 'NÃO',
      },
    ]),
  ),
);
for (const row of results) console.log(`${row.engine}: varredura do período — ${row.plan}`);
console.log(JSON.stringify(results));
if (results.some((row) => !row.equal || !row.countersEqual)) process.exitCode = 1;
