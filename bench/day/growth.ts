/**
 * The growth table of `bench:day`: the first page of each main list as the
 * exams table grows (10 000, 100 000, 1 000 000 by default), for each variant
 * with its own code (the repository functions imported from its tree) on its
 * own database with its own migrations. Median of 9 calls after 2 warm-ups.
 * PostgreSQL when a server is named, PGlite in memory otherwise.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { localPrefixFor } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { percentile } from './measure';
import { databaseFor, type Variant } from './servers';
import type * as ClientCode from '../../apps/server/src/db/client';
import type * as SeedCode from '../../apps/server/src/db/seed/demo-exams';
import type * as ReferenceCode from '../../apps/server/src/db/seed/reference-data';
import type * as ExamsCode from '../../apps/server/src/modules/exams/exams.repository';
import type * as QueueCode from '../../apps/server/src/modules/audits/audit-queue.repository';
import type * as ReportCode from '../../apps/server/src/modules/exam-report/exam-report.repository';
import os from 'node:os';
import fs from 'node:fs';

const DAY = 86_400_000;
const UNITS: Array<[string, number]> = [
  ['DEMO', 0.7],
  ['SP', 0.3],
];

type ClientModule = typeof ClientCode;
type SeedModule = typeof SeedCode;
type ReferenceModule = typeof ReferenceCode;

/** The functions the table calls, from the variant's own tree. */
type Code = {
  openDatabase: ClientModule['openDatabase'];
  seedDemoExams: SeedModule['seedDemoExams'];
  seedDemoLocals: SeedModule['seedDemoLocals'];
  ensureReferenceData: ReferenceModule['ensureReferenceData'];
  listExams: typeof ExamsCode.listExams;
  listQueue: typeof QueueCode.listQueue;
  listOccurrences: typeof ReportCode.listOccurrences;
};

async function codeOf(root: string): Promise<Code> {
  const from = (file: string) => import(path.join(root, 'apps/server/src', file));
  const [client, seed, reference, exams, queue, report] = await Promise.all([
    from('db/client.ts'),
    from('db/seed/demo-exams.ts'),
    from('db/seed/reference-data.ts'),
    from('modules/exams/exams.repository.ts'),
    from('modules/audits/audit-queue.repository.ts'),
    from('modules/exam-report/exam-report.repository.ts'),
  ]);
  return {
    openDatabase: client.openDatabase,
    seedDemoExams: seed.seedDemoExams,
    seedDemoLocals: seed.seedDemoLocals,
    ensureReferenceData: reference.ensureReferenceData,
    listExams: exams.listExams,
    listQueue: queue.listQueue,
    listOccurrences: report.listOccurrences,
  };
}

type Database = Awaited<ReturnType<Code['openDatabase']>>;

/** The reads of the table, each one call of the variant's repository. */
function casesOf(code: Code, db: Database['db']): Array<[string, () => Promise<unknown>]> {
  const now = new Date();
  const month = { start: new Date(now.getTime() - 30 * DAY), endExclusive: now };
  const page = { page: 1, pageSize: 20, sort: 'schedulingDate' as const, order: 'desc' as const };
  const byName = { ...page, sort: 'candidateName' as const, order: 'asc' as const };
  return [
    ['exames, 30 dias', () => code.listExams(db, 'DEMO', month, page)],
    [
      'exames, 30 dias, finalizados reprovados',
      () =>
        code.listExams(db, 'DEMO', { ...month, statuses: ['done'], results: ['reproved'] }, page),
    ],
    ['exames, 30 dias, por nome', () => code.listExams(db, 'DEMO', month, byName)],
    [
      'exames, 7 dias, por nome, página 5',
      () =>
        code.listExams(
          db,
          'DEMO',
          { start: new Date(now.getTime() - 7 * DAY), endExclusive: now },
          { ...byName, page: 5 },
        ),
    ],
    [
      'exames, busca "Ana", 30 dias',
      () => code.listExams(db, 'DEMO', { ...month, search: 'Ana' }, page),
    ],
    ['exames, busca "Ana", sem período', () => code.listExams(db, 'DEMO', { search: 'Ana' }, page)],
    [
      'fila de auditoria',
      () => code.listQueue(db, 'DEMO', { page: 1, pageSize: 20, now, faceVersion: 'v2' }),
    ],
    [
      'ocorrências do painel, 30 dias',
      () =>
        code.listOccurrences(
          db,
          { unit: 'DEMO', prefix: localPrefixFor('DEMO'), ...month },
          { page: 1, pageSize: 10 },
        ),
    ],
  ];
}

/** A growth table: a line per read with its time at each size and the ratio of the last to the first. */
export function printGrowth(sizes: number[], rows: Array<[string, number[]]>): void {
  const header = sizes.map((size) => String(size).padStart(9)).join('');
  console.log(`  ${''.padEnd(64)}${header}   razão ${sizes.at(-1)}/${sizes[0]}`);
  for (const [name, values] of rows) {
    const growth = (values.at(-1) ?? 0) / Math.max(0.01, values[0] ?? 0);
    const cells = values.map((value) => value.toFixed(1).padStart(9)).join('');
    console.log(`  ${name.padEnd(64)}${cells}   ${growth.toFixed(1)}×`);
  }
}

export async function timedMedian(work: () => Promise<unknown>): Promise<number> {
  for (let warm = 0; warm < 2; warm += 1) await work();
  const times: number[] = [];
  for (let run = 0; run < 9; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

export async function runGrowth(options: {
  sizes: number[];
  variants: Variant[];
  postgresUrl: string | undefined;
}): Promise<void> {
  const engine = options.postgresUrl ? 'PostgreSQL' : 'PGlite';
  const sizes = [...options.sizes].sort((a, b) => a - b);
  console.log(`\nCrescimento (${engine}), primeira página, mediana de 9 em ms:`);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-growth-'));
  const table = new Map<string, Map<string, number[]>>();
  for (const variant of options.variants) {
    const code = await codeOf(variant.root);
    const place = await databaseFor(
      `growth_${variant.name.split(' ')[0]}`,
      folder,
      options.postgresUrl,
    );
    const database = await code.openDatabase(
      place.kind === 'postgres'
        ? { kind: 'postgres', url: place.url, poolSize: 4 }
        : { kind: 'pglite', dataDir: 'memory' },
    );
    await database.migrate();
    await code.ensureReferenceData(database.db);
    for (const [unit] of UNITS) await code.seedDemoLocals(database.db as never, unit);
    let written = 0;
    for (const size of sizes) {
      for (const [unit, share] of UNITS) {
        const count = Math.round((size - written) * share);
        for (let done = 0; done < count; done += 100_000) {
          await code.seedDemoExams(database.db as never, {
            unit,
            exams: Math.min(100_000, count - done),
            offset: 20_000_000 + written + done + (unit === 'SP' ? 5_000_000 : 0),
            from: new Date(Date.now() - 330 * DAY),
            to: new Date(Date.now() + 35 * DAY),
            seed: 0.31,
          });
        }
      }
      await database.db
        .execute(sql`insert into occurrences (exam_id, external_id, type, description, occurred_at)
        select id, 'g-' || id::text, 'ruido', 'Ruído no ambiente detectado.',
               coalesce(started_at, scheduling_date) + interval '12 minutes'
        from exams where status in ('done', 'started') and abs(hashtext(id::text)) % 4 = 0
        on conflict do nothing`);
      written = size;
      await database.db.execute(sql`vacuum analyze`);
      for (const [name, work] of casesOf(code, database.db)) {
        const row = table.get(name) ?? new Map<string, number[]>();
        row.set(variant.name, [...(row.get(variant.name) ?? []), await timedMedian(work)]);
        table.set(name, row);
      }
      process.stdout.write(`\r  ${variant.name}: ${size} exames medidos`);
    }
    process.stdout.write('\n');
    await database.close();
    if (place.kind === 'postgres') await place.drop();
  }
  printGrowth(
    sizes,
    [...table].flatMap(([name, byVariant]) =>
      [...byVariant].map(([variant, values]): [string, number[]] => [
        `${name} — ${variant}`,
        values,
      ]),
    ),
  );
  fs.rmSync(folder, { recursive: true, force: true });
}
