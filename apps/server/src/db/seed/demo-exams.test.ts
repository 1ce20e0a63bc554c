import { dayInZone, zonedDayStart } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { selectRows } from '../select-rows';
import { DEMO_LOCALS, DEMO_TODAY_PER_POST, seedDemoOnEmpty } from './demo-exams';

describe('start-up demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemoOnEmpty(t.database.db, t.app.files);
  });
  afterAll(() => t.close());

  it('gives every demo post of DEMO and DF exams today (São Paulo), whatever the hour', async () => {
    const start = zonedDayStart(dayInZone(new Date()));
    const end = new Date(start.getTime() + 86_400_000);
    const rows = await selectRows<{ unit: string; local: string; n: number }>(
      t.database.db,
      sql`select federative_unit as unit, split_part(scheduling_local, '-', 1) as local, count(*)::int as n
          from exams
          where scheduling_date >= ${start.toISOString()}::timestamptz
            and scheduling_date < ${end.toISOString()}::timestamptz
          group by 1, 2`,
    );
    for (const unit of ['DEMO', 'DF']) {
      for (const local of DEMO_LOCALS) {
        const identifier = local.identifier.replace(/^DEMO\./, `${unit}.`);
        const found = rows.find((row) => row.unit === unit && row.local === identifier);
        expect(found?.n ?? 0, identifier).toBeGreaterThanOrEqual(DEMO_TODAY_PER_POST);
      }
    }
  });

  it('seeds once: a second start adds nothing', async () => {
    const count = async () =>
      (
        await selectRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from exams`)
      )[0]!.n;
    const before = await count();
    await seedDemoOnEmpty(t.database.db, t.app.files);
    expect(await count()).toBe(before);
  });
});
