/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, files under
 * DATA_DIR) when no DATABASE_URL is set, a node-postgres pool otherwise. Both
 * speak the same SQL dialect and run the same migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  migrate: () => Promise<void>;
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations');

/** Sees every statement the app sends (tests compare the work of two paths). */
export type QueryObserver = (query: string) => void;

export type DatabaseTarget = (
  | { kind: 'pglite'; dataDir: string | 'memory' }
  | { kind: 'postgres'; url: string; poolSize?: number }
) & { onQuery?: QueryObserver };

export function targetFromConfig(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') };
}

function loggerOf(target: DatabaseTarget) {
  const observe = target.onQuery;
  return observe ? { logQuery: (query: string) => observe(query) } : false;
}

/** The handle of an opened database: the same shape for both drivers. */
function handleOf(
  kind: DatabaseHandle['kind'],
  db: Database,
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): DatabaseHandle {
  return {
    kind,
    db,
    migrate,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close,
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'pglite') {
    let location: string | undefined;
    if (target.dataDir !== 'memory') {
      fs.mkdirSync(target.dataDir, { recursive: true });
      location = target.dataDir;
    }
    const client = location ? new PGlite(location) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite({ client, schema, casing: 'snake_case', logger: loggerOf(target) });
    return handleOf(
      'pglite',
      db as unknown as Database,
      () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
      () => client.close(),
    );
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
  });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger: loggerOf(target) });
  return handleOf(
    'postgres',
    db as unknown as Database,
    () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
    () => pool.end(),
  );
}

/** Deletes the rows of `table` that `where` selects; returns how many (the drivers count apart). */
export async function deleteRows(
  db: Executor,
  table: PgTable,
  where: SQL | undefined,
): Promise<number> {
  const removed = await db
    .delete(table)
    .where(where)
    .returning({ one: sql`1` });
  return removed.length;
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
