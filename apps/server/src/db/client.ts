/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, files under
 * DATA_DIR) when no DATABASE_URL is set, a node-postgres pool otherwise. Both
 * speak the same SQL dialect, run the same migrations and deliver
 * LISTEN/NOTIFY (PGlite in-process; PostgreSQL across every instance).
 */
import { PGlite, type Results } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { openThreadedPglite, pgliteEngine, type ThreadedPglite } from './pglite-thread';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Unlisten, type ListenOptions, checkChannel, createPgListener } from './pg-listener';
import { PreparingClient } from './prepared-statements';
import * as schema from './schema/index';
import { runtimePath } from '../config/runtime-paths';

// What repositories and the realtime hub use of the listener and of prepared statements.
export type { ListenOptions, Unlisten } from './pg-listener';
export {
  literal,
  plannedPerCall,
  placeholders,
  preparedQueries,
  preparedRawQueries,
  type Bind,
} from './prepared-statements';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  migrate: () => Promise<void>;
  ping: () => Promise<void>;
  /**
   * Refreshes the planner's statistics (ANALYZE). PostgreSQL's autovacuum
   * does it by itself; PGlite has no autovacuum, so without this its tables
   * keep the statistics of when they were empty and the planner picks bad
   * plans (the exam list's first page read every exam of the unit).
   */
  analyze: () => Promise<void>;
  /** `LISTEN channel`: `onPayload` gets each notification's payload, after its transaction commits. */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    options?: ListenOptions,
  ) => Promise<Unlisten>;
  /**
   * Connections for the metrics: PostgreSQL's pool (total, idle, callers
   * waiting for one); PGlite has one connection, its worker thread, busy
   * while a statement is on it, with the statements queued behind it waiting.
   */
  poolStats: () => PoolStats;
  /**
   * Raw SQL for a library that brings its own statements (the job queue,
   * pg-boss): with values, one statement; without, possibly several (its
   * migrations), whose last result is answered.
   */
  executeRaw: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  /**
   * The embedded database's data folder as a tar (PGlite only), taken between
   * statements after a checkpoint: what `npm run backup` keeps.
   */
  dumpDataDir?: () => Promise<Uint8Array>;
  close: () => Promise<void>;
};

export type PoolStats = { total: number; idle: number; waiting: number };

export const MIGRATIONS_DIR = runtimePath('db/migrations');

/** The advisory lock held while migrations run on PostgreSQL (any constant, the same everywhere). */
const MIGRATION_LOCK = 7_301_003;

/** Sees every statement the app sends, with its values (tests compare the work of two paths, read plans). */
export type QueryObserver = (query: string, params: unknown[]) => void;

export type DatabaseTarget = (
  | {
      kind: 'pglite';
      dataDir: string | 'memory';
      /**
       * Where PGlite runs: on a worker thread (default), so that statements
       * never hold up the event loop, or on the main thread as before (the
       * load bench compares the two).
       */
      thread?: 'worker' | 'main';
      /**
       * On the worker: parameterised statements are prepared once and reused
       * (default true), as on PostgreSQL.
       */
      preparedStatements?: boolean;
      /** A data folder (tar, from `dumpDataDir`) unpacked into the new database (restores). */
      loadDataDir?: Uint8Array;
    }
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** How long opening a connection may take (default 5000 ms). */
      connectTimeoutMs?: number;
      /**
       * Parameterised statements are prepared once per connection and reused
       * (default true): PostgreSQL parses and plans them once instead of on
       * every request. Off for a pooler that cannot keep them (PgBouncer in
       * transaction mode before 1.21).
       */
      preparedStatements?: boolean;
    }
) & { onQuery?: QueryObserver };

export function targetFromConfig(config: {
  databaseUrl: string | undefined;
  dataDir: string;
  database?: { poolSize: number; preparedStatements: boolean; connectTimeoutMs?: number };
}): DatabaseTarget {
  return config.databaseUrl
    ? {
        kind: 'postgres',
        url: config.databaseUrl,
        poolSize: config.database?.poolSize,
        connectTimeoutMs: config.database?.connectTimeoutMs,
        preparedStatements: config.database?.preparedStatements,
      }
    : {
        kind: 'pglite',
        dataDir: path.join(config.dataDir, 'pgdata'),
        preparedStatements: config.database?.preparedStatements,
      };
}

function loggerOf(target: DatabaseTarget) {
  const observe = target.onQuery;
  return observe
    ? { logQuery: (query: string, params: unknown[]) => observe(query, params) }
    : false;
}

/** The handle of an opened database: the same shape for both drivers. */
function handleOf(
  kind: DatabaseHandle['kind'],
  db: Database,
  parts: Pick<
    DatabaseHandle,
    'migrate' | 'listen' | 'close' | 'poolStats' | 'executeRaw' | 'dumpDataDir'
  >,
): DatabaseHandle {
  return {
    kind,
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    analyze: async () => {
      await db.execute(sql`analyze`);
    },
    ...parts,
  };
}

/**
 * Statements with their own transaction control on PGlite's one session: a
 * failure must not leave an aborted transaction open for the next caller.
 */
async function runScript(client: ThreadedPglite, text: string): Promise<Results[]> {
  if (client.script) return client.script(text);
  // PGlite on the main thread (benchmarks): roll back after the failure.
  const direct = client as unknown as PGlite;
  try {
    return await client.exec(text);
  } catch (error) {
    if (direct.isInTransaction()) await client.exec('ROLLBACK');
    throw error;
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'pglite') {
    let location: string | undefined;
    if (target.dataDir !== 'memory') {
      fs.mkdirSync(target.dataDir, { recursive: true });
      location = target.dataDir;
    }
    let client: ThreadedPglite;
    if (target.thread === 'main') {
      const load = target.loadDataDir
        ? { loadDataDir: new Blob([target.loadDataDir as Uint8Array<ArrayBuffer>]) }
        : {};
      const inThread = new PGlite({
        dataDir: location,
        extensions: { pg_trgm, btree_gin },
        ...load,
        ...(await pgliteEngine()),
      });
      await inThread.waitReady;
      client = inThread;
    } else {
      client = await openThreadedPglite(location, {
        preparedStatements: target.preparedStatements,
        loadDataDir: target.loadDataDir,
      });
    }
    const db = drizzlePglite({
      client: client as PGlite,
      schema,
      casing: 'snake_case',
      logger: loggerOf(target),
    });
    return handleOf('pglite', db as unknown as Database, {
      migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
      poolStats: () => {
        const pending = (client as { pending?: number }).pending ?? 0;
        return { total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) };
      },
      executeRaw: async (text, values) => {
        if (values && values.length > 0) return client.query(text, values);
        const results = await runScript(client, text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      dumpDataDir: async () => {
        if (client.dump) return client.dump();
        // PGlite on the main thread: nothing else runs while this does.
        const direct = client as unknown as PGlite;
        await direct.exec('CHECKPOINT');
        return new Uint8Array(await (await direct.dumpDataDir('none')).arrayBuffer());
      },
      // One process holds the database: notifications are delivered in-process, never lost.
      listen: async (channel, onPayload) => {
        checkChannel(channel);
        const unlisten = await client.listen(channel, onPayload);
        return async () => {
          if (!client.closed) await unlisten();
        };
      },
      close: () => client.close(),
    });
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    // A connection idle for a minute closes (the driver's default is 10 s). People pause
    // between actions, so with the default a pool under steady use kept closing connections
    // and opening new ones on the next burst: a new backend starts, warms its caches and
    // plans its statements anew (bench:day, 100 users: 11 connections opened in 30 s; the
    // database's CPU per request 9-18 % lower without them).
    idleTimeoutMillis: 60_000,
    // A database that does not answer fails the request (503) instead of holding it.
    connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
    Client: target.preparedStatements === false ? pg.Client : PreparingClient,
  });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger: loggerOf(target) });
  const listener = createPgListener(target.url);
  return handleOf('postgres', db as unknown as Database, {
    // Instances starting together: one applies the migrations, the others wait and find them applied.
    // (The lock is held on a connection of its own: the pool may have just one.)
    migrate: async () => {
      const holder = new pg.Client({ connectionString: target.url });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await holder.end().catch(() => undefined);
      }
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    executeRaw: async (text, values) => {
      const result = await pool.query({ text, values });
      // Several statements at once answer one result each: the last one counts.
      const last = Array.isArray(result) ? (result.at(-1) as pg.QueryResult) : result;
      return { rows: last?.rows ?? [] };
    },
    listen: listener.listen,
    close: async () => {
      await listener.close();
      await pool.end();
    },
  });
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
