/**
 * The exam list's first page with filters over 1 000 000 exams, with the
 * indexes of the schema and then with the same query after dropping them, in
 * one run. Runs the product's own query (listExams). PGlite in memory by
 * default; BENCH_DATABASE_URL measures a PostgreSQL server instead.
 *
 *   npm run bench:exam-list -w bench [-- --exams 1000000 --runs 15]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { selectRows } from '../apps/server/src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../apps/server/src/db/seed/demo-exams';
import { listExams, type ExamListFilter } from '../apps/server/src/modules/exams/exams.repository';
import { argument, openBenchDatabase } from './bench-support';

const EXAMS = argument('exams', 1_000_000);
const RUNS = argument('runs', 15);
const DAY = 86_400_000;

const database = await openBenchDatabase({ poolSize: 4 });
await seedDemoLocals(database.db);

// A year of exams; other units share the table as in production.
const now = Date.now();
const seedStarted = performance.now();
const batch = 200_000;
for (let done = 0; done < EXAMS; done += batch) {
  const size = Math.min(batch, EXAMS - done);
  const unit = done % (batch * 5) === batch * 4 ? 'SP' : 'DEMO';
  await seedDemoExams(database.db, {
    exams: size,
    from: new Date(now - 300 * DAY),
    to: new Date(now + 65 * DAY),
    unit,
    offset: done,
    seed: done / batch / 10,
  });
  process.stdout.write(`\rsemeando: ${done + size} exames`);
}
await database.db.execute(sql`analyze exams`);
console.log(` (${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`);

const [counts] = await selectRows<{ total: number; demo: number }>(
  database.db,
  sql`select count(*)::int as total, count(*) filter (where federative_unit = 'DEMO')::int as demo from exams`,
);

type Case = { name: string; filter: ExamListFilter; sort: 'schedulingDate' | 'candidateName' };
const week = { start: new Date(now - 7 * DAY), endExclusive: new Date(now) };
const cases: Case[] = [
  { name: 'última semana, todas as situações', filter: week, sort: 'schedulingDate' },
  {
    name: 'última semana, finalizados reprovados',
    filter: { ...week, statuses: ['done'], results: ['reproved'] },
    sort: 'schedulingDate',
  },
  {
    name: 'mês, um posto',
    filter: {
      start: new Date(now - 30 * DAY),
      endExclusive: new Date(now),
      schedulingLocals: ['DEMO.POSTO03'],
    },
    sort: 'schedulingDate',
  },
  { name: 'ano, busca por nome', filter: { search: 'tiago' }, sort: 'candidateName' },
  { name: 'busca por CPF', filter: { search: '00000007919' }, sort: 'schedulingDate' },
];

async function measure(
  filter: ExamListFilter,
  sort: Case['sort'],
): Promise<{ median: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let run = 0; run < RUNS + 2; run += 1) {
    const started = performance.now();
    const page = await listExams(database.db, 'DEMO', filter, {
      page: 1,
      pageSize: 20,
      sort,
      order: 'desc',
    });
    const elapsed = performance.now() - started;
    rows = page.total;
    if (run >= 2) times.push(elapsed); // two warm-up runs
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? Number.NaN, rows };
}

const withIndexes: Array<{ median: number; rows: number }> = [];
for (const item of cases) withIndexes.push(await measure(item.filter, item.sort));

const indexes = await selectRows<{ indexname: string }>(
  database.db,
  sql`select indexname from pg_indexes where tablename = 'exams' and indexname <> 'exams_pkey'`,
);
for (const { indexname } of indexes)
  await database.db.execute(sql.raw(`drop index "${indexname}"`));
await database.db.execute(sql`analyze exams`);

const withoutIndexes: Array<{ median: number; rows: number }> = [];
for (const item of cases) withoutIndexes.push(await measure(item.filter, item.sort));
await database.close();

console.log(
  `\nLista de exames, primeira página (20 linhas) com total — ${counts?.total.toLocaleString('pt-BR')} exames (${counts?.demo.toLocaleString('pt-BR')} da unidade), ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite em memória'}, mediana de ${RUNS} execuções`,
);
console.table(
  cases.map((item, index) => ({
    consulta: item.name,
    'exames no filtro': withIndexes[index]?.rows,
    'com índices (ms)': Number(withIndexes[index]?.median.toFixed(1)),
    'sem índices (ms)': Number(withoutIndexes[index]?.median.toFixed(1)),
    'sem / com': Number(
      ((withoutIndexes[index]?.median ?? 0) / (withIndexes[index]?.median ?? 1)).toFixed(1),
    ),
  })),
);
const mismatch = cases.some(
  (_item, index) => withIndexes[index]?.rows !== withoutIndexes[index]?.rows,
);
if (mismatch) {
  console.error('Os totais com e sem índices diferem: a comparação não vale.');
  process.exitCode = 1;
}
