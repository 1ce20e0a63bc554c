/**
 * The growth table of `bench:day` for the two searches: the activity search
 * (a page of 50 and its capped total, as the screen asks) and the check-in
 * search (a page of 20 and its total), as the activity log and the check-in
 * records grow (10 000, 100 000, 1 000 000 rows by default; 70 % in the unit
 * measured, 30 % in another). This checkout's code only: the indexes these
 * read came with the change the table measures (migration 0029). Median of 9
 * calls after 2 warm-ups; PostgreSQL when a server is named, PGlite in memory
 * otherwise. Rows are written by test/search-volume.ts, as the plan tests do;
 * the unit's people grow with its records (an examiner opens about one record
 * a working day, RECORDS_PER_PERSON a year), at least PEOPLE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TOTAL_COUNT_CAP } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client';
import { selectRows } from '../../apps/server/src/db/select-rows';
import { seedDemoLocals } from '../../apps/server/src/db/seed/demo-exams';
import { ensureReferenceData } from '../../apps/server/src/db/seed/reference-data';
import {
  countActivity,
  findActivityPage,
  type ActivitySearch,
} from '../../apps/server/src/modules/activity/activity.repository';
import {
  searchCheckIns,
  type CheckInSearch,
} from '../../apps/server/src/modules/check-ins/check-in-search.repository';
import {
  PEOPLE,
  seedActivity,
  seedCheckIns,
  seedPeople,
} from '../../apps/server/test/search-volume';
import { printGrowth, timedMedian } from './growth';
import { databaseFor } from './servers';

const DAY = 86_400_000;
const YEAR_SECONDS = 365 * 86_400;
const UNITS: Array<[string, number]> = [
  ['DEMO', 0.7],
  ['SP', 0.3],
];
const ACCENTED_ACTOR = 'Anaïs Conceição Lima';
/** Check-in records a year per person of the unit (one a working day). */
const RECORDS_PER_PERSON = 250;

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

function casesOf(db: Db, examinerCpf: string): Array<[string, () => Promise<unknown>]> {
  const now = new Date();
  const month = { start: new Date(now.getTime() - 30 * DAY), endExclusive: now };
  const activity = (filter: Omit<ActivitySearch, 'unit'>) => () => {
    const search = { unit: 'DEMO', ...filter };
    return Promise.all([
      findActivityPage(db, search, 50, 0),
      countActivity(db, search, TOTAL_COUNT_CAP + 1),
    ]);
  };
  const checkIns = (filter: Omit<CheckInSearch, 'page' | 'pageSize'>) => () =>
    searchCheckIns(db, 'DEMO', { page: 1, pageSize: 20, ...filter });
  const biometric = ['face_image_view', 'photo_view', 'cpf_view'];
  return [
    ['atividades, todas', activity({})],
    ['atividades, 30 dias', activity(month)],
    ['atividades, um tipo', activity({ types: ['checkin_close'] })],
    ['atividades, acessos biométricos, 30 dias', activity({ types: biometric, ...month })],
    ['atividades, por nome de quem agiu', activity({ actorText: 'anais conceicao' })],
    ['atividades, por texto ("conceição")', activity({ targetText: 'conceição' })],
    ['atividades, por alvo', activity({ targetText: 'exam:demo-000000124' })],
    ['registros, todos', checkIns({})],
    ['registros, um posto', checkIns({ schedulingLocal: 'DEMO.POSTO02' })],
    ['registros, abertos', checkIns({ status: 'open' })],
    ['registros, 30 dias', checkIns(month)],
    ['registros, examinador por nome', checkIns({ examiner: 'conceicao' })],
    ['registros, examinador por CPF', checkIns({ examiner: examinerCpf })],
  ];
}

export async function runSearchGrowth(options: {
  sizes: number[];
  postgresUrl: string | undefined;
}): Promise<void> {
  const engine = options.postgresUrl ? 'PostgreSQL' : 'PGlite';
  const sizes = [...options.sizes].sort((a, b) => a - b);
  console.log(
    `\nCrescimento das buscas (${engine}, este código), linhas de atividades e de registros; ` +
      'primeira página, mediana de 9 em ms:',
  );
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-bench-growth-searches-'));
  const place = await databaseFor('growth_searches', folder, options.postgresUrl);
  const database = await openDatabase(
    place.kind === 'postgres'
      ? { kind: 'postgres', url: place.url, poolSize: 4 }
      : { kind: 'pglite', dataDir: 'memory' },
  );
  await database.migrate();
  await ensureReferenceData(database.db);
  for (const [unit] of UNITS) {
    await seedDemoLocals(database.db, unit);
    await seedPeople(database.db, unit, { accentedActor: ACCENTED_ACTOR });
  }
  const people = new Map(UNITS.map(([unit]) => [unit, PEOPLE]));
  const [someone] = await selectRows<{ cpf: string }>(
    database.db,
    sql`select cpf from users where federative_unit = 'DEMO' and email = 'demo.pessoa7@exemplo.gov.br'`,
  );
  const table = new Map<string, number[]>();
  let written = 0;
  for (const size of sizes) {
    for (const [unit, share] of UNITS) {
      // Each batch spans the year before now, so that the table's rows stay spread over it.
      const rows = Math.round(size * share) - Math.round(written * share);
      const spacingSeconds = YEAR_SECONDS / rows;
      // An examiner opens about one record a working day: the unit's people grow with its records.
      const needed = Math.round((size * share) / RECORDS_PER_PERSON);
      const had = people.get(unit)!;
      if (needed > had) {
        await seedPeople(database.db, unit, { first: had + 1, count: needed - had });
        people.set(unit, needed);
      }
      await seedActivity(database.db, unit, { events: rows, spacingSeconds });
      await seedCheckIns(database.db, unit, { records: rows, spacingSeconds });
    }
    written = size;
    await database.db.execute(sql`vacuum analyze`);
    for (const [name, work] of casesOf(database.db, someone!.cpf)) {
      table.set(name, [...(table.get(name) ?? []), await timedMedian(work)]);
    }
    process.stdout.write(`\r  ${size} linhas medidas`);
  }
  process.stdout.write('\n');
  await database.close();
  if (place.kind === 'postgres') await place.drop();
  printGrowth(sizes, [...table]);
  fs.rmSync(folder, { recursive: true, force: true });
}
