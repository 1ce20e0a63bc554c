/**
 * The activity log's hash chain against plain inserts, side by side in one
 * run: the same events written through the product's code (each appended to
 * its unit's chain by the trigger, under the chain head's lock) and into a
 * copy of the table without the chain (activity_log as it was before
 * migration 0017: no trigger, no chain indexes). On PGlite and, when
 * BENCH_DATABASE_URL is set, on PostgreSQL.
 *
 *   npm run bench:activity -w bench [-- --events 2000 --batches 100 --runs 3]
 *
 * Three shapes: one event per transaction (a server action and its event),
 * batches of 100 web events (`POST api/ActivityLog/events`), and, on
 * PostgreSQL, four writers appending to the same unit at once (where the
 * chain makes them take turns). Chained and plain runs alternate; the median
 * of the runs is printed, and the chain is verified at the end (with its
 * speed, events per second).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { DatabaseHandle, Executor } from '../apps/server/src/db/client';
import { verifyChain } from '../apps/server/src/modules/activity/activity-chain';
import {
  appendWebEvents,
  insertActivity,
  type WebEventRow,
} from '../apps/server/src/modules/activity/activity.repository';
import { argument, openBenchDatabase } from './bench-support';

const EVENTS = argument('events', 2000);
const BATCHES = argument('batches', 100);
const RUNS = argument('runs', 3);
const BATCH_SIZE = 100;
const WRITERS = 4;
const UNIT = 'DF';

/** The log without the chain: same columns, the indexes of before 0017. */
const plainLog = pgTable('activity_plain', {
  id: uuid('id').primaryKey().defaultRandom(),
  type: text('type').notNull(),
  actorId: uuid('actor_id'),
  federativeUnit: text('federative_unit'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  target: text('target'),
  deviceId: text('device_id'),
  appVersion: text('app_version'),
  clientId: uuid('client_id'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
});

async function createPlainTable(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql`drop table if exists activity_plain`);
  await database.db.execute(sql`create table activity_plain (
    id uuid primary key default gen_random_uuid(),
    type text not null, actor_id uuid, federative_unit text,
    payload jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    target text, device_id text, app_version text, client_id uuid,
    occurred_at timestamptz not null default now())`);
  await database.db.execute(
    sql`create index activity_plain_unit_time_idx on activity_plain (federative_unit, created_at)`,
  );
}

const actorId = randomUUID();

function serverEvent(i: number) {
  return {
    type: 'load_exam' as const,
    actorId,
    federativeUnit: UNIT,
    payload: { schedulingId: `AG-${i}` },
    target: `exam:AG-${i}`,
  };
}

function webBatch(): WebEventRow[] {
  return Array.from({ length: BATCH_SIZE }, (_, i) => ({
    clientId: randomUUID(),
    type: 'page_view' as const,
    occurredAt: new Date().toISOString(),
    target: `/exames/${i}`,
    details: { from: '/inicio', durationMs: i },
    deviceId: 'bench-device',
    appVersion: '1.0.0',
  }));
}

async function plainInsert(db: Executor, rows: Array<Record<string, unknown>>): Promise<void> {
  await db.insert(plainLog).values(rows as Array<typeof plainLog.$inferInsert>);
}

type Shape = {
  name: string;
  events: number;
  chained: (database: DatabaseHandle) => Promise<void>;
  plain: (database: DatabaseHandle) => Promise<void>;
};

function shapes(kind: DatabaseHandle['kind']): Shape[] {
  const list: Shape[] = [
    {
      name: '1 evento por transação',
      events: EVENTS,
      chained: async ({ db }) => {
        for (let i = 0; i < EVENTS; i += 1)
          await db.transaction((tx) => insertActivity(tx, serverEvent(i)));
      },
      plain: async ({ db }) => {
        for (let i = 0; i < EVENTS; i += 1)
          await db.transaction((tx) => plainInsert(tx, [serverEvent(i)]));
      },
    },
    {
      name: `lotes de ${BATCH_SIZE} eventos da web`,
      events: BATCHES * BATCH_SIZE,
      chained: async ({ db }) => {
        for (let i = 0; i < BATCHES; i += 1)
          await db.transaction((tx) =>
            appendWebEvents(tx, { id: actorId, federativeUnit: UNIT }, webBatch()),
          );
      },
      plain: async ({ db }) => {
        for (let i = 0; i < BATCHES; i += 1)
          await db.transaction((tx) =>
            plainInsert(
              tx,
              webBatch().map((event) => ({
                type: event.type,
                actorId,
                federativeUnit: UNIT,
                payload: event.details,
                target: event.target,
                deviceId: event.deviceId,
                appVersion: event.appVersion,
                clientId: event.clientId,
                occurredAt: new Date(event.occurredAt),
              })),
            ),
          );
      },
    },
  ];
  if (kind === 'postgres') {
    const perWriter = Math.ceil(EVENTS / WRITERS);
    const together = (write: (db: Executor, i: number) => Promise<void>) => (d: DatabaseHandle) =>
      Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < perWriter; i += 1)
            await d.db.transaction((tx) => write(tx, w * perWriter + i));
        }),
      ).then(() => undefined);
    list.push({
      name: `${WRITERS} escritores na mesma unidade`,
      events: perWriter * WRITERS,
      chained: together((tx, i) => insertActivity(tx, serverEvent(i))),
      plain: together((tx, i) => plainInsert(tx, [serverEvent(i)])),
    });
  }
  return list;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const database = await openBenchDatabase({ poolSize: WRITERS + 2 });
await createPlainTable(database);
const engine = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite em memória';
const results: Array<Record<string, string | number>> = [];
for (const shape of shapes(database.kind)) {
  // One warm-up of each, then chained and plain alternate.
  await shape.chained(database);
  await shape.plain(database);
  const chained: number[] = [];
  const plain: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    let started = performance.now();
    await shape.chained(database);
    chained.push(shape.events / ((performance.now() - started) / 1000));
    started = performance.now();
    await shape.plain(database);
    plain.push(shape.events / ((performance.now() - started) / 1000));
  }
  const withChain = median(chained);
  const withoutChain = median(plain);
  results.push({
    forma: shape.name,
    eventos: shape.events,
    'com cadeia (eventos/s)': Math.round(withChain),
    'sem cadeia (eventos/s)': Math.round(withoutChain),
    'com / sem': Number((withChain / withoutChain).toFixed(2)),
  });
}

const started = performance.now();
const report = await verifyChain(database.db, UNIT);
const verifySeconds = (performance.now() - started) / 1000;
await database.close();

console.log(
  `\nRegistro de atividades: gravação com a cadeia de hashes ao lado de inserções simples — ${engine}, mediana de ${RUNS} execuções`,
);
console.table(results);
console.log(
  `Conferência da cadeia de ${UNIT}: ${report.checked.toLocaleString('pt-BR')} eventos em ${verifySeconds.toFixed(2)} s ` +
    `(${Math.round(report.checked / verifySeconds).toLocaleString('pt-BR')} eventos/s), ${report.ok ? 'íntegra' : 'QUEBRADA'}.`,
);
if (!report.ok) process.exitCode = 1;
