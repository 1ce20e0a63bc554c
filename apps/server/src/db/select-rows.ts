/**
 * Raw SQL that returns rows, for the repositories (and seeds and tests) that
 * need a query Drizzle's builders cannot say. A file of its own so that the
 * layer rules (.dependency-cruiser.cjs, sql-only-in-repositories) see who
 * imports it: like drizzle-orm and db/schema, only the files that may run SQL.
 */
import type { SQL } from 'drizzle-orm';
import type { Executor } from './client';

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
