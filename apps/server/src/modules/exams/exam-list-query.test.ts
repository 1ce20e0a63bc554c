/**
 * The exam and user lists are one prepared statement per filter shape, with
 * the total beside the page (for an exam list the day counters answer, their
 * sum): the same answers as counting apart, whatever values come
 * through a shape already prepared, and past the last page too.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countExams, seedExamsOfTwoUnits } from '../../../test/exam-counts';
import { createTestDatabase, type TestDatabase } from '../../../test/helper';
import { insertUser, listUsersInUnit } from '../users/users.repository';
import { nextCpf } from '../../../test/identity';
import { listExams, type ExamListFilter } from './exams.repository';

const DAY = 86_400_000;
const page = (number: number, size = 7) => ({
  page: number,
  pageSize: size,
  sort: 'schedulingDate' as const,
  order: 'desc' as const,
});

describe('exam list: page and total in one prepared statement', () => {
  let database: TestDatabase;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ onQuery: (query) => statements.push(query) });
    await seedExamsOfTwoUnits(database.db, {
      demo: 60,
      other: 10,
      otherOffset: 1000,
      daysBack: 20,
    });
  });
  afterAll(() => database.drop());

  const counted = (unit: string, where: ReturnType<typeof sql>) =>
    countExams(database.db, unit, where);

  it('the total is the unit’s, on every page and past the last one', async () => {
    const all = await counted('DEMO', sql`true`);
    expect(all).toBe(60);
    const first = await listExams(database.db, 'DEMO', {}, page(1));
    expect(first).toMatchObject({ total: 60 });
    expect(first.items).toHaveLength(7);
    const last = await listExams(database.db, 'DEMO', {}, page(9));
    expect(last.items).toHaveLength(4);
    expect(last.total).toBe(60);
    const past = await listExams(database.db, 'DEMO', {}, page(20));
    expect(past).toEqual({ items: [], total: 60 });
    expect((await listExams(database.db, 'XX', {}, page(1))).total).toBe(0);
  });

  it('values change, the prepared shape stays right', async () => {
    const cases: Array<[ExamListFilter, ReturnType<typeof sql>]> = [
      [{ statuses: ['done'] }, sql`status = 'done'`],
      [{ statuses: ['absence'] }, sql`status = 'absence'`],
      [{ statuses: ['done', 'absence'] }, sql`status in ('done', 'absence')`],
      [{ statuses: ['scheduled', 'started'] }, sql`status in ('scheduled', 'started')`],
      [{ schedulingLocals: ['DEMO.POSTO01'] }, sql`scheduling_local like 'DEMO.POSTO01-%'`],
      [{ schedulingLocals: ['DEMO.POSTO02'] }, sql`scheduling_local like 'DEMO.POSTO02-%'`],
      [
        { start: new Date(Date.now() - 5 * DAY), endExclusive: new Date(Date.now() + DAY) },
        sql`scheduling_date >= now() - interval '5 days' and scheduling_date < now() + interval '1 day'`,
      ],
      [{ search: 'ana' }, sql`lower(candidate_name) like 'ana%'`],
      [{ search: 'bruno' }, sql`lower(candidate_name) like 'bruno%'`],
    ];
    for (const [filter, where] of cases) {
      const expected = await counted('DEMO', where);
      const found = await listExams(database.db, 'DEMO', filter, page(1, 100));
      expect(found.total, JSON.stringify(filter)).toBe(expected);
      expect(found.items).toHaveLength(expected);
      expect(found.items.every((exam) => exam.federativeUnit === 'DEMO')).toBe(true);
    }
    // A period not in São Paulo's days: one statement, the total beside the page.
    let from = statements.length;
    await listExams(database.db, 'DEMO', { start: new Date(Date.now() - 15 * DAY) }, page(2, 2));
    expect(statements.slice(from)).toHaveLength(1);
    expect(statements[from]).toMatch(/count\(/);
    // Filters the counters hold: their sum beside the page, no exam counted.
    from = statements.length;
    await listExams(database.db, 'DEMO', { statuses: ['done'] }, page(2));
    expect(statements.slice(from)).toHaveLength(1);
    expect(statements[from]).toMatch(/from exam_day_counts/);
    expect(statements[from]).not.toMatch(/count\(/);
  });

  it('the user list too: page and total together, any values through one shape', async () => {
    for (let index = 0; index < 5; index += 1) {
      await insertUser(database.db, {
        name: `Usuária ${index}`,
        email: `usuaria${index}@teste.gov.br`,
        cpf: nextCpf(),
        federativeUnit: 'DEMO',
        role: index < 2 ? 'VIEWER' : 'auditor',
      });
    }
    expect(await listUsersInUnit(database.db, 'DEMO', { page: 1, pageSize: 2 })).toMatchObject({
      total: 5,
    });
    const past = await listUsersInUnit(database.db, 'DEMO', { page: 9, pageSize: 2 });
    expect(past).toEqual({ items: [], total: 5 });
    const viewers = await listUsersInUnit(database.db, 'DEMO', {
      page: 1,
      pageSize: 10,
      roles: ['VIEWER', 'ROOM_INSPECTOR'],
    });
    expect(viewers.total).toBe(2);
    const auditors = await listUsersInUnit(database.db, 'DEMO', {
      page: 1,
      pageSize: 10,
      roles: ['auditor', 'ADMIN'],
    });
    expect(auditors.total).toBe(3);
    const search = await listUsersInUnit(database.db, 'DEMO', {
      page: 1,
      pageSize: 10,
      search: 'usuaria3',
    });
    expect(search.items.map((user) => user.email)).toEqual(['usuaria3@teste.gov.br']);
  });
});
