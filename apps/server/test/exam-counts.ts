/**
 * Exams of two units for the tests of the lists and their totals: the
 * reference data, the DEMO posts, `demo` exams of DEMO and `other` of SP
 * (numbered from `otherOffset`, after DEMO's) spread from `daysBack` days
 * ago to five days ahead; and the count of a unit's exams by plain SQL, the
 * answer the lists and counters are checked against.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../src/db/client';
import { selectRows } from '../src/db/select-rows';
import { seedDemoExams, seedDemoLocals } from '../src/db/seed/demo-exams';
import { ensureReferenceData } from '../src/db/seed/reference-data';

const DAY = 86_400_000;

export async function seedExamsOfTwoUnits(
  db: Database,
  options: { demo: number; other: number; otherOffset: number; daysBack: number },
): Promise<void> {
  const from = new Date(Date.now() - options.daysBack * DAY);
  const to = new Date(Date.now() + 5 * DAY);
  await ensureReferenceData(db);
  await seedDemoLocals(db, 'DEMO');
  await seedDemoExams(db, { unit: 'DEMO', exams: options.demo, from, to });
  await seedDemoExams(db, {
    unit: 'SP',
    exams: options.other,
    offset: options.otherOffset,
    from,
    to,
  });
}

/** How many exams of `unit` match `where`, counted by plain SQL. */
export async function countExams(db: Executor, unit: string, where: SQL): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from exams where federative_unit = ${unit} and ${where}`,
  );
  return row?.n ?? 0;
}
