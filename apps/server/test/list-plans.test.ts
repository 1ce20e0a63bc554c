/**
 * The exam lists at volume: every filter and order the screens offer reads
 * `exams` and `occurrences` through an index (no sequential scan), on both
 * engines, once the tables hold a year of exams of several units and the
 * planner's statistics are fresh. The statements are the repositories' own
 * (captured while they run), and the answers are checked too: the name
 * search ignores case and accents, the totals stop at the cap.
 */
import {
  SEARCH_COUNT_LIMIT,
  TOTAL_COUNT_CAP,
  localPrefixFor,
  type ExamSort,
  type ReportScope,
} from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../src/db/seed/demo-exams';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { listQueue } from '../src/modules/audits/audit-queue.repository';
import { listOccurrences } from '../src/modules/exam-report/exam-report.repository';
import { listExams, type ExamListFilter } from '../src/modules/exams/exams.repository';
import { listExamsOfPost } from '../src/modules/check-ins/check-ins.repository';
import { createPlanDatabase, indexesRead, sequentialScans, type PlanDatabase } from './plans';

const DAY = 86_400_000;
const BIG_TABLES = ['exams', 'occurrences'];

describe('exam lists read through indexes at volume', () => {
  let database: PlanDatabase;
  const now = new Date();
  const month = { start: new Date(now.getTime() - 30 * DAY), endExclusive: now };

  beforeAll(async () => {
    database = await createPlanDatabase();
    await ensureReferenceData(database.db);
    // A year of exams: DEMO holds most of them, three other units share the table.
    const units: Array<[string, number]> = [
      ['DEMO', 16_000],
      ['SP', 10_000],
      ['DF', 8_000],
      ['CE', 6_000],
    ];
    let offset = 0;
    for (const [unit, exams] of units) {
      await seedDemoLocals(database.db, unit);
      await seedDemoExams(database.db, {
        unit,
        exams,
        offset,
        from: new Date(now.getTime() - 330 * DAY),
        to: new Date(now.getTime() + 35 * DAY),
      });
      offset += exams;
    }
    // An occurrence for one exam in four that started.
    await database.db
      .execute(sql`insert into occurrences (exam_id, external_id, type, description, occurred_at)
      select id, 'seed-' || id::text, 'ruido', 'Ruído no ambiente detectado.',
             coalesce(started_at, scheduling_date) + interval '12 minutes'
      from exams where status in ('done', 'started') and abs(hashtext(id::text)) % 4 = 0`);
    // A common first name: one DEMO exam in three.
    await database.db.execute(sql`update exams set candidate_name = 'Ana ' || candidate_name
      where federative_unit = 'DEMO' and abs(hashtext(id::text)) % 3 = 0`);
    await database.db.execute(sql`update exams set candidate_name = 'Anaïs Conceição Lima'
      where federative_unit = 'DEMO' and scheduling_id in ('DEMO-000000011', 'DEMO-000000012')`);
    // Statistics and the visibility map, as autovacuum keeps them in production.
    await database.db.execute(sql`vacuum analyze`);
  }, 240_000);
  afterAll(() => database.drop());

  const page: { page: number; pageSize: number; sort: ExamSort; order: 'asc' | 'desc' } = {
    page: 1,
    pageSize: 20,
    sort: 'schedulingDate',
    order: 'desc',
  };

  // Each case, with the index its page must read where only one fits.
  const listCases: Array<[string, ExamListFilter, Partial<typeof page>, string?]> = [
    ['the last 30 days', month, {}],
    [
      'the last 30 days, done and reproved',
      { ...month, statuses: ['done'], results: ['reproved'] },
      {},
      'exams_unit_status_result_date_idx',
    ],
    ['the last 30 days, started or absent', { ...month, statuses: ['started', 'absence'] }, {}],
    ['the last 30 days at one post', { ...month, schedulingLocals: ['DEMO.POSTO02'] }, {}],
    ['a rare name, every day', { search: 'anais conceicao' }, {}, 'exams_unit_search_name_idx'],
    ['a common name, every day', { search: 'ana' }, {}],
    ['a common name in the period', { ...month, search: 'ana' }, {}],
    ['a name in the period', { ...month, search: 'Souza' }, {}],
    ['a CPF', { search: '000.000.791-90' }, {}, 'exams_unit_cpf_idx'],
    ['the last 30 days by name', month, { sort: 'candidateName', order: 'asc' }],
    [
      'every day, by name',
      {},
      { sort: 'candidateName', order: 'asc' },
      'exams_unit_name_order_idx',
    ],
  ];

  it.each(listCases)('the exam list: %s', async (_name, filter, order, index) => {
    const statements = await database.explain((db) =>
      listExams(db, 'DEMO', filter, { ...page, ...order }),
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    if (index) expect(indexesRead(statements)).toContain(index);
  });

  it.each([
    ['the last 30 days, page 1', month, 1],
    ['the last 7 days, page 5', { start: new Date(now.getTime() - 7 * DAY), endExclusive: now }, 5],
    ['every day, page 3', {}, 3],
  ] as Array<[string, ExamListFilter, number]>)(
    'by name (%s): the name index is read alone, its period tested on the entries, and only the page’s rows from the table',
    async (_name, filter, pageNumber) => {
      const statements = await database.explain((db) =>
        listExams(db, 'DEMO', filter, {
          ...page,
          page: pageNumber,
          sort: 'candidateName',
          order: 'asc',
        }),
      );
      const onNameIndex = statements.flatMap((statement) =>
        statement.nodes.filter((node) => node['Index Name'] === 'exams_unit_name_order_idx'),
      );
      expect(onNameIndex.map((node) => node['Node Type'])).not.toContain('Index Scan');
      expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
      const listed = await listExams(database.db, 'DEMO', filter, {
        ...page,
        page: pageNumber,
        sort: 'candidateName',
        order: 'asc',
      });
      expect(listed.items).toHaveLength(page.pageSize);
    },
  );

  it.each([
    ['a name in the last 30 days', { ...month, search: 'Souza' }],
    ['a common name in the last 30 days', { ...month, search: 'ana' }],
    ['a name in the last 7 days', { start: new Date(now.getTime() - 7 * DAY), search: 'lima' }],
  ] as Array<[string, ExamListFilter]>)(
    'a name search in date order (%s): the period’s entries are tested in the date index, only the page’s rows read from the table',
    async (_name, filter) => {
      const statements = await database.explain((db) => listExams(db, 'DEMO', filter, page));
      const onDateIndex = statements.flatMap((statement) =>
        statement.nodes.filter((node) => node['Index Name'] === 'exams_unit_date_idx'),
      );
      expect(onDateIndex.map((node) => node['Node Type'])).not.toContain('Index Scan');
      expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
      const listed = await listExams(database.db, 'DEMO', filter, { ...page, pageSize: 100 });
      const dates = listed.items.map((exam) => exam.schedulingDate.getTime());
      expect(listed.items.length).toBeGreaterThan(0);
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      const word = filter.search
        ?.normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      for (const exam of listed.items) {
        const name = exam.candidateName.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
        expect(
          name
            .toLowerCase()
            .split(' ')
            .some((part) => part.startsWith(word ?? '')),
        ).toBe(true);
      }
      const first = await listExams(database.db, 'DEMO', filter, page);
      expect(first.items.map((exam) => exam.id)).toEqual(
        listed.items.slice(0, page.pageSize).map((exam) => exam.id),
      );
    },
  );

  it('by name, the pages follow one another without a gap or a repeat', async () => {
    const week = { start: new Date(now.getTime() - 7 * DAY), endExclusive: now };
    const byName = { ...page, sort: 'candidateName' as const, order: 'asc' as const };
    const whole = await listExams(database.db, 'DEMO', week, { ...byName, pageSize: 100 });
    const paged = [];
    for (let number = 1; number <= 5; number += 1) {
      paged.push(
        ...(await listExams(database.db, 'DEMO', week, { ...byName, page: number })).items,
      );
    }
    expect(paged.map((exam) => exam.id)).toEqual(whole.items.map((exam) => exam.id));
    expect(whole.items[0]).toHaveProperty('schedulingLocalName');
  });

  it('the name search ignores case and accents, word by word', async () => {
    const names = async (search: string) =>
      (await listExams(database.db, 'DEMO', { search }, { ...page, pageSize: 100 })).items
        .filter((exam) => exam.candidateName.startsWith('Ana'))
        .map((exam) => exam.schedulingId)
        .sort();
    const both = ['DEMO-000000011', 'DEMO-000000012'];
    expect(await names('anais conceicao')).toEqual(both);
    expect(await names('ANAÏS CONCEIÇÃO')).toEqual(both);
    expect(await names('conceição li')).toEqual(both);
    // A word's start, not its middle.
    expect(await names('nais')).toEqual([]);
  });

  it('the total: exact from the day counters, else counted up to the cap and said so', async () => {
    const [every] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from exams where federative_unit = 'DEMO'`,
    );
    expect(every?.n).toBeGreaterThan(TOTAL_COUNT_CAP);
    const all = await listExams(database.db, 'DEMO', {}, page);
    expect(all).toEqual({ items: expect.any(Array), total: every?.n });
    // A bound that is not a São Paulo day start (UTC midnight): the counters'
    // days do not match it, so the exams are counted, up to the cap.
    const utc = await listExams(
      database.db,
      'DEMO',
      { start: new Date(Date.UTC(2000, 0, 1)) },
      page,
    );
    expect(utc).toMatchObject({ total: TOTAL_COUNT_CAP, totalCapped: true });
    const few = await listExams(database.db, 'DEMO', { search: 'anaïs' }, page);
    expect(few.total).toBe(2);
    expect(few.totalCapped).toBeUndefined();
    // A common name is not counted: its total is the planner's estimate, said as such.
    const [anas] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from exams where federative_unit = 'DEMO'
        and search_name like '% ana%'`,
    );
    expect(anas?.n).toBeGreaterThan(SEARCH_COUNT_LIMIT);
    const common = await listExams(database.db, 'DEMO', { search: 'Ana' }, page);
    expect(common.totalEstimated).toBe(true);
    // The planner's estimate, from a sample: of the right size, not exact.
    expect(common.total).toBeGreaterThan((anas?.n ?? 0) / 3);
    expect(common.total).toBeLessThan((anas?.n ?? 0) * 3);
    expect(common.items).toHaveLength(20);
    const [counted] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from exams where federative_unit = 'DEMO'
        and scheduling_date >= ${month.start.toISOString()}::timestamptz
        and scheduling_date < ${month.endExclusive.toISOString()}::timestamptz`,
    );
    const period = await listExams(database.db, 'DEMO', month, page);
    expect(period).toMatchObject({ total: counted?.n });
    expect(period.totalCapped).toBeUndefined();
  });

  it('the room board: its post’s day through the post index, rooms included', async () => {
    const day = { start: new Date(now.getTime() - DAY), endExclusive: now };
    const post = { identifier: 'DEMO.POSTO03', ...day };
    const statements = await database.explain((db) =>
      listExamsOfPost(db, 'DEMO', post, { page: 2, pageSize: 5 }),
    );
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    expect(indexesRead(statements)).toContain('exams_unit_post_date_idx');
    const [counted] = await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from exams where federative_unit = 'DEMO'
        and split_part(scheduling_local, '-', 1) = 'DEMO.POSTO03'
        and scheduling_date >= ${day.start.toISOString()}::timestamptz
        and scheduling_date < ${day.endExclusive.toISOString()}::timestamptz`,
    );
    expect(counted?.n).toBeGreaterThan(0);
    const whole = await listExamsOfPost(database.db, 'DEMO', post, { page: 1, pageSize: 500 });
    expect(whole.total).toBe(counted?.n);
    expect(whole.items).toHaveLength(counted?.n ?? -1);
    const paged = await listExamsOfPost(database.db, 'DEMO', post, { page: 2, pageSize: 1 });
    expect(paged.total).toBe(counted?.n);
  });

  // The queue's pending rows come through an index of exams, never a scan:
  // the partial index, or the status and result index that holds the same
  // rows in the same date order, or at one post also the post's own index
  // (migration 0032). The planner picks among them by the sample its
  // statistics drew from the seeded rows (random dates): runs have read the
  // whole unit's queue by another index than the partial one.
  const examIndex = /^exams_/;
  it.each([
    ['oldest first', {}],
    ['at one post', { schedulingLocal: 'DEMO.POSTO03' }],
    ['in the period', { ...month }],
  ])('the audit queue: %s', async (_name, filter) => {
    const statements = await database.explain((db) =>
      listQueue(db, 'DEMO', { page: 1, pageSize: 20, now, faceVersion: 'v2', ...filter }),
    );
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    // Both statements (the page and its total) read the unit's pending rows through an index.
    const reads = statements.filter((statement) => / from "exams"/.test(statement.query));
    expect(reads).toHaveLength(2);
    for (const statement of reads) {
      const read = indexesRead([statement]);
      expect(
        read.some((name) => examIndex.test(name)),
        `${read.join(', ')}: ${statement.query}`,
      ).toBe(true);
    }
  });

  const scope: ReportScope = {
    unit: 'DEMO',
    prefix: localPrefixFor('DEMO'),
    start: new Date(now.getTime() - 30 * DAY),
    endExclusive: now,
  };

  it.each([
    ['every post', undefined, 'occurrences_panel_idx'],
    ['one post', 'DF.POSTO02', 'occurrences_panel_local_idx'],
  ])('the occurrences panel: %s', async (_name, localId, index) => {
    const statements = await database.explain((db) =>
      listOccurrences(db, scope, { localId, page: 1, pageSize: 10 }),
    );
    expect(sequentialScans(statements, BIG_TABLES)).toEqual([]);
    expect(indexesRead(statements)).toContain(index);
    const found = await listOccurrences(database.db, scope, { localId, page: 1, pageSize: 10 });
    expect(found.items.length).toBe(10);
    if (localId)
      expect(new Set(found.items.map((item) => item.localId))).toEqual(new Set([localId]));
    const dates = found.items.map((item) => item.occurredAt.getTime());
    expect(dates.length).toBeGreaterThan(0);
  });

  it('the occurrences follow their exam: a cancelled exam leaves the panel, a new date moves it', async () => {
    const first = await listOccurrences(database.db, scope, { page: 1, pageSize: 1 });
    const item = first.items[0];
    if (!item) throw new Error('no occurrence in the period');
    await database.db.execute(
      sql`update exams set status = 'cancelled' where id = ${item.examId}::uuid`,
    );
    const after = await listOccurrences(database.db, scope, { page: 1, pageSize: 50 });
    expect(after.items.map((row) => row.examId)).not.toContain(item.examId);
    await database.db.execute(
      sql`update exams set status = 'done', scheduling_date = now() - interval '200 days'
        where id = ${item.examId}::uuid`,
    );
    const moved = await listOccurrences(database.db, scope, { page: 1, pageSize: 50 });
    expect(moved.items.map((row) => row.examId)).not.toContain(item.examId);
    const [copy] = await selectRows<{ same: boolean }>(
      database.db,
      sql`select bool_and(o.scheduling_date = e.scheduling_date and o.counted = (e.status <> 'cancelled')
          and o.federative_unit = e.federative_unit
          and o.scheduling_local = coalesce(e.scheduling_local, '')) as same
        from occurrences o join exams e on e.id = o.exam_id`,
    );
    expect(copy?.same).toBe(true);
  });
});
