/**
 * The report's maintained counters (exam_day_counts, kept by the triggers of
 * migration 0016) against a full recount of the exams, on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL: random sequences of creates, status and
 * result transitions, metadata changes, moves between posts and days,
 * deletions and multi-row statements (fast-check) leave them equal to the
 * recount; concurrent changes to the same post and day lose no increment;
 * the check finds a tampered row and the rebuild repairs it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema/index';
import { ensureReferenceData } from '../../db/seed/reference-data';
import { selectRows } from '../../db/select-rows';
import {
  createTestDatabase,
  engineName,
  openSameDatabase,
  type TestDatabase,
} from '../../../test/helper';
import { diffCounters, rebuildCounters } from './exam-counts.repository';

type Status = (typeof exams.$inferInsert)['status'];
type Result = NonNullable<(typeof exams.$inferInsert)['result']> | null;

const UNITS = ['DF', 'SP'] as const;
const STATUSES: Status[] = ['scheduled', 'started', 'done', 'absence', 'cancelled'];
const RESULTS: Result[] = [null, 'in_analysis', 'approved', 'reproved', 'disqualified'];
const LOCALS = [null, '', 'DETRANDF-POSTO01-S1', 'DETRANDF-POSTO01-S2', 'DF.POSTO02', 'SP-X'];
// Instants around São Paulo midnights (03:00Z), so a move of an hour can change the day.
const BASE = Date.parse('2026-11-20T03:00:00Z');
const instant = fc
  .tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -90, max: 90 }))
  .map(([days, minutes]) => new Date(BASE + days * 86_400_000 + minutes * 60_000));
const metadata = fc.integer({ min: 0, max: 3 });

const newExam = fc.record({
  federativeUnit: fc.constantFrom(...UNITS),
  schedulingDate: instant,
  status: fc.constantFrom(...STATUSES),
  result: fc.constantFrom(...RESULTS),
  schedulingLocal: fc.constantFrom(...LOCALS),
  pendingAudit: metadata,
  absence: metadata,
  interrupted: metadata,
});

/** `pick` chooses among the exams present when the step runs (index modulo their number). */
const operation = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    rows: fc.array(newExam, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant('transition' as const),
    pick: fc.nat(),
    status: fc.constantFrom(...STATUSES),
    result: fc.constantFrom(...RESULTS),
  }),
  fc.record({
    kind: fc.constant('metadata' as const),
    pick: fc.nat(),
    pendingAudit: metadata,
    absence: metadata,
    interrupted: metadata,
  }),
  fc.record({
    kind: fc.constant('move' as const),
    pick: fc.nat(),
    local: fc.constantFrom(...LOCALS),
  }),
  fc.record({ kind: fc.constant('reschedule' as const), pick: fc.nat(), date: instant }),
  fc.record({
    kind: fc.constant('unit' as const),
    pick: fc.nat(),
    unit: fc.constantFrom(...UNITS),
  }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('bulk' as const),
    local: fc.constantFrom(...LOCALS),
    status: fc.constantFrom(...STATUSES),
  }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;
type NewExam = typeof newExam extends fc.Arbitrary<infer T> ? T : never;

let database: TestDatabase;
let serial = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await ensureReferenceData(database.db);
}, 120_000);

afterAll(async () => {
  await database?.drop();
});

function examRow(input: NewExam) {
  serial += 1;
  return {
    ...input,
    schedulingId: `CNT-${serial}`,
    candidateName: `Candidato ${serial}`,
    candidateCpf: String(10_000_000_000 + serial),
  };
}

async function apply(step: Operation): Promise<void> {
  const db = database.db;
  if (step.kind === 'create') {
    await db.insert(exams).values(step.rows.map(examRow));
    return;
  }
  if (step.kind === 'bulk') {
    // One statement over many rows: a whole post changes status at once.
    await db
      .update(exams)
      .set({ status: step.status })
      .where(
        step.local === null ? sql`scheduling_local is null` : eq(exams.schedulingLocal, step.local),
      );
    return;
  }
  const ids = await selectRows<{ id: string }>(
    db,
    sql`select id from exams order by scheduling_id`,
  );
  const target = ids[step.pick % Math.max(ids.length, 1)]?.id;
  if (!target) return;
  const where = eq(exams.id, target);
  switch (step.kind) {
    case 'transition':
      await db.update(exams).set({ status: step.status, result: step.result }).where(where);
      break;
    case 'metadata':
      await db
        .update(exams)
        .set({
          pendingAudit: step.pendingAudit,
          absence: step.absence,
          interrupted: step.interrupted,
        })
        .where(where);
      break;
    case 'move':
      await db.update(exams).set({ schedulingLocal: step.local }).where(where);
      break;
    case 'reschedule':
      await db.update(exams).set({ schedulingDate: step.date }).where(where);
      break;
    case 'unit':
      await db.update(exams).set({ federativeUnit: step.unit }).where(where);
      break;
    case 'rename':
      // Nothing counted changes: the counters must not move.
      await db
        .update(exams)
        .set({ candidateName: `Renomeado ${step.pick}` })
        .where(where);
      break;
    case 'delete':
      await db.delete(exams).where(where);
      break;
  }
}

async function keptTotal(unit: string, local: string, status: string): Promise<number> {
  const [row] = await selectRows<{ n: string | number | null }>(
    database.db,
    sql`select sum(exams) as n from exam_day_counts
        where federative_unit = ${unit} and scheduling_local = ${local} and status = ${status}`,
  );
  return Number(row?.n ?? 0);
}

describe(`maintained report counters (${engineName})`, () => {
  it('equal a full recount after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (steps) => {
        await database.db.delete(exams);
        for (const step of steps) await apply(step);
        expect(await diffCounters(database.db)).toEqual([]);
      }),
      { numRuns: engineName === 'postgres' ? 40 : 60 },
    );
  }, 300_000);

  it('a change of only uncounted columns writes no counter row', async () => {
    await database.db.delete(exams);
    await database.db.insert(exams).values(
      examRow({
        federativeUnit: 'DF',
        schedulingDate: new Date(BASE),
        status: 'done',
        result: 'approved',
        schedulingLocal: 'DETRANDF-POSTO01-S1',
        pendingAudit: 0,
        absence: 0,
        interrupted: 0,
      }),
    );
    const before = await selectRows<{ xmin: string }>(
      database.db,
      sql`select xmin::text as xmin from exam_day_counts where exams <> 0`,
    );
    await database.db.update(exams).set({ room: 'Sala 9', faceMinSimilarity: 0.5 });
    const after = await selectRows<{ xmin: string }>(
      database.db,
      sql`select xmin::text as xmin from exam_day_counts where exams <> 0`,
    );
    expect(after).toEqual(before);
  });

  it('concurrent changes to the same post and day lose no increment', async () => {
    await database.db.delete(exams);
    const other = await openSameDatabase(database);
    try {
      const rows = Array.from({ length: 40 }, () =>
        examRow({
          federativeUnit: 'DF',
          schedulingDate: new Date(BASE + 3_600_000),
          status: 'scheduled',
          result: null,
          schedulingLocal: 'DETRANDF-POSTO09-S1',
          pendingAudit: 0,
          absence: 0,
          interrupted: 0,
        }),
      );
      // 40 inserts racing on a counter row that does not exist yet (two pools on PostgreSQL).
      await Promise.all(
        rows.map((row, index) =>
          (index % 2 ? other : database).db.transaction(async (tx) => {
            await tx.insert(exams).values(row);
            await tx.execute(sql`select pg_sleep(0.005)`);
          }),
        ),
      );
      expect(await keptTotal('DF', 'DETRANDF-POSTO09-S1', 'scheduled')).toBe(40);
      // Then every one of them starts and finishes, concurrently.
      const ids = rows.map((row) => row.schedulingId);
      await Promise.all(
        ids.map((schedulingId, index) =>
          (index % 2 ? other : database).db.transaction(async (tx) => {
            const where = and(eq(exams.federativeUnit, 'DF'), eq(exams.schedulingId, schedulingId));
            await tx.update(exams).set({ status: 'started' }).where(where);
            await tx.execute(sql`select pg_sleep(0.002)`);
            await tx.update(exams).set({ status: 'done', result: 'approved' }).where(where);
          }),
        ),
      );
      expect(await keptTotal('DF', 'DETRANDF-POSTO09-S1', 'scheduled')).toBe(0);
      expect(await keptTotal('DF', 'DETRANDF-POSTO09-S1', 'started')).toBe(0);
      expect(await keptTotal('DF', 'DETRANDF-POSTO09-S1', 'done')).toBe(40);
      expect(await diffCounters(database.db)).toEqual([]);
    } finally {
      await other.drop();
    }
  }, 120_000);

  it('the check finds a counter row that drifted and the rebuild repairs it', async () => {
    await database.db.delete(exams);
    await database.db.insert(exams).values(
      ['DETRANDF-POSTO01-S1', 'DETRANDF-POSTO01-S2', null].map((local) =>
        examRow({
          federativeUnit: 'DF',
          schedulingDate: new Date(BASE),
          status: 'done',
          result: 'reproved',
          schedulingLocal: local,
          pendingAudit: 1,
          absence: 0,
          interrupted: 2,
        }),
      ),
    );
    expect(await diffCounters(database.db)).toEqual([]);
    await database.db.execute(
      sql`update exam_day_counts set exams = exams + 5 where federative_unit = 'DF' and scheduling_local = 'DETRANDF-POSTO01-S2' and day = '2026-11-20' and status = 'done' and result = 'reproved'`,
    );
    await database.db.execute(sql`delete from exam_day_counts where scheduling_local = ''`);
    const drift = await diffCounters(database.db);
    expect(drift).toEqual([
      expect.objectContaining({
        schedulingLocal: '',
        kept: { exams: 0, pendingAudit: 0, absence: 0, interrupted: 0 },
        recounted: { exams: 1, pendingAudit: 1, absence: 0, interrupted: 2 },
      }),
      expect.objectContaining({
        schedulingLocal: 'DETRANDF-POSTO01-S2',
        day: '2026-11-20',
        kept: expect.objectContaining({ exams: 6 }),
        recounted: expect.objectContaining({ exams: 1 }),
      }),
    ]);
    const written = await database.db.transaction((tx) => rebuildCounters(tx));
    expect(written).toBe(3);
    expect(await diffCounters(database.db)).toEqual([]);
    // And the triggers go on from the rebuilt rows.
    await database.db
      .update(exams)
      .set({ status: 'cancelled' })
      .where(inArray(exams.schedulingLocal, ['DETRANDF-POSTO01-S2']));
    expect(await diffCounters(database.db)).toEqual([]);
  });
});
