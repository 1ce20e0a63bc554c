/**
 * Raw SQL that returns rows, for the repositories (and seeds and tests) that
 * need a query Drizzle's builders cannot say. A file of its own so that the
 * layer rules (.dependency-cruiser.cjs, sql-only-in-repositories) see who
 * imports it: like drizzle-orm and db/schema, only the files that may run SQL.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client';

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * How many rows the planner expects `query` to return (EXPLAIN, no
 * execution): what a list shows as "cerca de N" when counting would cost
 * more than the page. As good as the table's statistics (autovacuum on
 * PostgreSQL; the ANALYZE at start-up on PGlite).
 */
export async function estimatedRows(db: Executor, query: SQL): Promise<number> {
  const [row] = await selectRows<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const value = row ? Object.values(row)[0] : undefined;
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as
    Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined;
  return Math.max(0, Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0));
}
