/**
 * The totals the lists take from the day counters are the exams' own count:
 * for every filter the counters hold, after writes, only for the unit asked,
 * and never for a period whose bounds are not São Paulo day starts.
 */
import { addDays, dayInZone, zonedDayStart } from '@exame/shared';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countExams, seedExamsOfTwoUnits } from '../../../test/exam-counts';
import { createTestDatabase, type TestDatabase } from '../../../test/helper';
import { totalFromDayCounts, type CounterFilter } from './exam-day-totals.repository';

describe('exam totals from the day counters', () => {
  let database: TestDatabase;
  const today = dayInZone(new Date());
  const week = { start: zonedDayStart(addDays(today, -7)), endExclusive: zonedDayStart(today) };

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedExamsOfTwoUnits(database.db, {
      demo: 400,
      other: 50,
      otherOffset: 5000,
      daysBack: 30,
    });
  });
  afterAll(() => database.drop());

  const counted = (unit: string, where: SQL) => countExams(database.db, unit, where);

  const inWeek = sql`scheduling_date >= ${week.start.toISOString()}::timestamptz
    and scheduling_date < ${week.endExclusive.toISOString()}::timestamptz`;

  it.each<[string, CounterFilter, SQL]>([
    ['the whole unit', {}, sql`true`],
    ['a week of São Paulo days', week, inWeek],
    [
      'from a day on',
      { start: week.start },
      sql`scheduling_date >= ${week.start.toISOString()}::timestamptz`,
    ],
    ['one status', { ...week, statuses: ['done'] }, sql`${inWeek} and status = 'done'`],
    [
      'statuses and results',
      { statuses: ['done', 'absence'], results: ['approved', 'in_analysis'] },
      sql`status in ('done', 'absence') and result in ('approved', 'in_analysis')`,
    ],
    [
      'a post and its rooms',
      { posts: { identifiers: ['DEMO.POSTO01'], rule: 'room-suffix' } },
      sql`(scheduling_local = 'DEMO.POSTO01' or scheduling_local like 'DEMO.POSTO01-%')`,
    ],
    [
      'two posts by their first part',
      { ...week, posts: { identifiers: ['DEMO.POSTO02', 'DEMO.POSTO03'], rule: 'first-part' } },
      sql`${inWeek} and split_part(scheduling_local, '-', 1) in ('DEMO.POSTO02', 'DEMO.POSTO03')`,
    ],
  ])('%s: the count of the exams', async (_name, filter, where) => {
    const expected = await counted('DEMO', where);
    expect(expected).toBeGreaterThan(0);
    expect(await totalFromDayCounts(database.db, 'DEMO', filter)).toBe(expected);
  });

  it('follows the writes, and counts only the unit asked', async () => {
    const before = await totalFromDayCounts(database.db, 'DEMO', { statuses: ['cancelled'] });
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update exams set status = 'cancelled'
        where id in (select id from exams where federative_unit = 'DEMO' and status = 'scheduled' limit 3)`);
      // Inside the writing transaction the counters already agree.
      expect(await totalFromDayCounts(tx, 'DEMO', { statuses: ['cancelled'] })).toBe(
        (before ?? 0) + 3,
      );
    });
    expect(await totalFromDayCounts(database.db, 'DEMO', { statuses: ['cancelled'] })).toBe(
      await counted('DEMO', sql`status = 'cancelled'`),
    );
    expect(await totalFromDayCounts(database.db, 'SP', {})).toBe(50);
    expect(await totalFromDayCounts(database.db, 'XX', {})).toBe(0);
  });

  it('gives no total for a bound that is not a São Paulo day start', async () => {
    const utcMidnight = new Date(Date.UTC(2026, 0, 1));
    expect(await totalFromDayCounts(database.db, 'DEMO', { start: utcMidnight })).toBeNull();
    expect(
      await totalFromDayCounts(database.db, 'DEMO', {
        start: week.start,
        endExclusive: new Date(week.endExclusive.getTime() + 60_000),
      }),
    ).toBeNull();
  });
});
