/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, files under
 * DATA_DIR) when no DATABASE_URL is set, a node-postgres pool otherwise. Both
 * speak the same SQL dialect, run the same migrations and deliver
 * LISTEN/NOTIFY (PGlite in-process; PostgreSQL across every instance).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Results } from '@electric-sql/pglite';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { changesWhenSettled, dataChanged, mayChangeData } from '../lib/read-cache';
import { openThreadedPglite, type ThreadedPglite } from './pglite-thread';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories accept either. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/** Stops listening (the channel is left when its last listener goes). */
export type Unlisten = () => Promise<void>;

export type ListenOptions = {
  /**
   * Called after a lost listening connection is back (PostgreSQL only):
   * notifications sent meanwhile were not delivered, so the listener reads
   * what it missed from the tables.
   */
  onReconnect?: () => void;
  /** Called when the listening connection is lost (PostgreSQL only), before it is opened again. */
  onLost?: () => void;
};

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
   * migrations), whose last result is answered. Its statements touch only
   * that library's own schema, so they do not count as data changes for the
   * read cache (lib/read-cache.ts), unlike everything sent through `db`.
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

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, 'migrations');

/** The advisory lock held while migrations run on PostgreSQL (any constant, the same everywhere). */
const MIGRATION_LOCK = 7_301_003;

/** Sees every statement the app sends (tests compare the work of two paths). */
export type QueryObserver = (query: string) => void;

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
  return observe ? { logQuery: (query: string) => observe(query) } : false;
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

/** Channel names go into LISTEN as identifiers: plain lower-case words only. */
function checkChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`canal inválido: ${channel}`);
}

type Listener = { onPayload: (payload: string) => void; options: ListenOptions };

const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 15_000;

/**
 * LISTEN on PostgreSQL: one dedicated connection (a pooled one would be
 * handed to other queries and lose its LISTEN), shared by every channel of
 * the handle. When it drops it is opened again with a growing delay, the
 * channels are listened to again and each listener is told to catch up.
 */
function createPgListener(url: string) {
  const listeners = new Map<string, Set<Listener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let attempt = 0;
  let closed = false;

  const forEachListener = (visit: (listener: Listener) => void) => {
    for (const set of listeners.values()) for (const listener of set) visit(listener);
  };

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    forEachListener((listener) => listener.options.onLost?.());
    which.removeAllListeners('notification');
    void which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      // Probed after 10 s idle: a dead peer is noticed (and listeners told) soon, not in hours.
      const next = new pg.Client({
        connectionString: url,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      next.on('notification', (message) => {
        for (const listener of listeners.get(message.channel) ?? []) {
          listener.onPayload(message.payload ?? '');
        }
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        for (const channel of listeners.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        await next.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        await next.end().catch(() => undefined);
        throw new Error('banco de dados fechado');
      }
      client = next;
      attempt = 0;
      return next;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  function scheduleReconnect(): void {
    if (closed || retryTimer || listeners.size === 0) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
    attempt += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().then(
        () => forEachListener((listener) => listener.options.onReconnect?.()),
        () => scheduleReconnect(),
      );
    }, delay);
    retryTimer.unref();
  }

  const listen: DatabaseHandle['listen'] = async (channel, onPayload, options = {}) => {
    checkChannel(channel);
    if (closed) throw new Error('banco de dados fechado');
    const listener: Listener = { onPayload, options };
    const fresh = !listeners.has(channel);
    const set = listeners.get(channel) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(channel, set);
    try {
      const connection = await connect();
      // A new connection listens to every channel already; an open one learns the new channel.
      if (fresh) await connection.query(`LISTEN ${channel}`);
    } catch (error) {
      set.delete(listener);
      if (set.size === 0) listeners.delete(channel);
      throw error;
    }
    return async () => {
      if (!set.delete(listener) || set.size > 0) return;
      listeners.delete(channel);
      if (listeners.size === 0) {
        const current = client;
        client = null;
        if (current) {
          current.removeAllListeners();
          current.on('error', () => undefined);
          await current.end().catch(() => undefined);
        }
      } else {
        await client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
    };
  };

  const close = async () => {
    closed = true;
    if (retryTimer) clearTimeout(retryTimer);
    listeners.clear();
    const current = client ?? (await connecting?.catch(() => null)) ?? null;
    client = null;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => undefined);
      await current.end().catch(() => undefined);
    }
  };
  return { listen, close };
}

/** Named statements a connection keeps at most; statements beyond run unnamed. */
const MAX_PREPARED_PER_CONNECTION = 256;
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    // The same text has the same name on every connection; 96 bits leave no room for collisions.
    name = `s_${createHash('sha256').update(text).digest('base64url').slice(0, 16)}`;
    if (statementNames.size >= 4 * MAX_PREPARED_PER_CONNECTION) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** Marks a query config whose statement must not count as a data change (the job queue's own). */
const UNTRACKED = Symbol('untracked');

type QueryConfigLike = { text?: unknown; name?: unknown; values?: unknown; submit?: unknown };

/**
 * A pool connection that tells the read cache (lib/read-cache.ts) when a
 * statement that may change data has finished (`dataChanged`): any statement
 * but a plain SELECT, so also each COMMIT and ROLLBACK, whether it succeeded
 * or failed.
 */
class TrackingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const config = args[0] as QueryConfigLike | string | null;
    const text = typeof config === 'string' ? config : config?.text;
    const untracked = typeof config === 'object' && config !== null && UNTRACKED in config;
    if (untracked || (typeof text === 'string' && !mayChangeData(text))) {
      return this.send(args);
    }
    if (typeof config === 'object' && config !== null && typeof config.submit === 'function') {
      // A submittable (cursor, stream) ends by its own events: counted now and at its end.
      dataChanged();
      const emitter = config as unknown as { once?: (event: string, listener: () => void) => void };
      emitter.once?.('end', dataChanged);
      emitter.once?.('error', dataChanged);
      return this.send(args);
    }
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...answer: unknown[]) => {
        dataChanged();
        (callback as (...rest: unknown[]) => void)(...answer);
      };
      return this.send(args);
    }
    const result = this.send(args) as unknown;
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      return changesWhenSettled(result as Promise<unknown>) as never;
    }
    dataChanged();
    return result as never;
  }

  protected send(args: unknown[]): never {
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}

/**
 * A pool connection that prepares each parameterised statement once (a
 * named statement, as node-postgres keeps them per connection) and then only
 * binds and executes it. Statements without parameters keep the simple
 * protocol, which also runs several statements at once (migrations).
 */
class PreparingClient extends TrackingClient {
  readonly #prepared = new Set<string>();

  protected override send(args: unknown[]): never {
    const [config, values] = args as [unknown, unknown];
    if (
      typeof config === 'object' &&
      config !== null &&
      typeof (config as { submit?: unknown }).submit !== 'function' &&
      typeof (config as { text?: unknown }).text === 'string' &&
      // drizzle's `.prepare('')` leaves the name empty: named here like the rest.
      !(config as { name?: unknown }).name &&
      Array.isArray(values ?? (config as { values?: unknown }).values) &&
      ((values ?? (config as { values: unknown[] }).values) as unknown[]).length > 0
    ) {
      const name = statementName((config as { text: string }).text);
      if (this.#prepared.has(name) || this.#prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        args[0] = { ...config, name };
      }
    }
    return super.send(args);
  }
}

/**
 * PGlite's calls, counted for the read cache like TrackingClient's: a
 * statement that may change data, a script, and the end of every
 * transaction. The untouched calls stay for `executeRaw`.
 */
function trackWrites(client: ThreadedPglite): ThreadedPglite {
  const original = {
    query: client.query.bind(client),
    exec: client.exec.bind(client),
    transaction: client.transaction.bind(client),
  };
  const tracked = client as unknown as {
    query: typeof original.query;
    exec: typeof original.exec;
    transaction: typeof original.transaction;
  };
  tracked.query = ((text: string, ...rest: unknown[]) => {
    const pending = (original.query as (...all: unknown[]) => Promise<unknown>)(text, ...rest);
    return mayChangeData(text) ? changesWhenSettled(pending) : pending;
  }) as typeof original.query;
  tracked.exec = ((...all: unknown[]) =>
    changesWhenSettled(
      (original.exec as (...rest: unknown[]) => Promise<unknown>)(...all),
    )) as typeof original.exec;
  tracked.transaction = ((...all: unknown[]) =>
    changesWhenSettled(
      (original.transaction as (...rest: unknown[]) => Promise<unknown>)(...all),
    )) as typeof original.transaction;
  return client;
}

/**
 * Statements with their own transaction control on PGlite's one session: a
 * failure must not leave an aborted transaction open for the next caller.
 */
async function runScript(
  client: ThreadedPglite,
  text: string,
  exec: ThreadedPglite['exec'],
): Promise<Results[]> {
  if (client.script) return client.script(text);
  // PGlite on the main thread (benchmarks): roll back after the failure.
  const direct = client as unknown as PGlite;
  try {
    return await exec(text);
  } catch (error) {
    if (direct.isInTransaction()) await exec('ROLLBACK');
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
      const inThread = new PGlite({ dataDir: location, ...load });
      await inThread.waitReady;
      client = inThread;
    } else {
      client = await openThreadedPglite(location, {
        preparedStatements: target.preparedStatements,
        loadDataDir: target.loadDataDir,
      });
    }
    // The job queue's raw statements go around the tracking (see `executeRaw`).
    const rawQuery = client.query.bind(client);
    const rawExec = client.exec.bind(client);
    trackWrites(client);
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
        if (values && values.length > 0) return rawQuery(text, values);
        const results = await runScript(client, text, rawExec);
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
    // A database that does not answer fails the request (503) instead of holding it.
    connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
    Client: target.preparedStatements === false ? TrackingClient : PreparingClient,
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
      const result = await pool.query({ text, values, [UNTRACKED]: true } as pg.QueryConfig);
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

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function selectRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/*
 * Queries built once. drizzle builds a query's SQL text anew on every call,
 * which for a wide select with a few conditions costs a few tenths of a
 * millisecond of the event loop, more than the rest of a cached read. A hot
 * read whose shape depends on its filters (which ones are present, how many
 * values a list has) is built with placeholders once per executor and shape,
 * prepared, and then only executed with the values.
 *
 * Conditions are written once for both uses with a `Bind`: `literal` puts the
 * value in the query, a binder from `placeholders()` puts a named placeholder
 * and records the value for the execution.
 */
export type Bind = <T>(name: string, value: T) => T | Placeholder;

/** The value itself, in the query (a query built for one use). */
export const literal: Bind = (_name, value) => value;

/** Placeholders for a prepared query, and the values to execute it with. */
export function placeholders(): { bind: Bind; values: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  return {
    values,
    bind: (name, value) => {
      values[name] = value;
      return sql.placeholder(name);
    },
  };
}

/**
 * Prepared queries per executor (the database, or a transaction while it
 * lasts) and shape key. A few dozen shapes are kept per executor; past that
 * the cache starts over (the shapes in use are built again on their next call).
 */
export function preparedQueries<Q>(limit = 64) {
  const byExecutor = new WeakMap<object, Map<string, Q>>();
  return (executor: object, key: string, build: () => Q): Q => {
    let shapes = byExecutor.get(executor);
    if (!shapes) {
      shapes = new Map();
      byExecutor.set(executor, shapes);
    }
    let query = shapes.get(key);
    if (query === undefined) {
      if (shapes.size >= limit) shapes.clear();
      query = build();
      shapes.set(key, query);
    }
    return query;
  };
}

type RawPrepared = { execute: (values: Record<string, unknown>) => Promise<unknown> };

/**
 * `preparedQueries` for a raw statement (a `sql` template, e.g. with CTEs the
 * query builder does not express): its text is built once per executor and
 * shape, with `placeholders()` for the values that vary, and each call only
 * executes it. Rows come back as the driver gives them (snake_case names).
 */
export function preparedRawQueries(limit = 64) {
  const cache = preparedQueries<RawPrepared>(limit);
  return async <T>(
    db: Executor,
    key: string,
    build: () => SQL,
    values: Record<string, unknown>,
  ): Promise<T[]> => {
    const prepared = cache(db, key, () => {
      // drizzle's own path for `db.execute`, kept instead of rebuilt on every call.
      const internal = db as unknown as {
        dialect: { sqlToQuery: (query: SQL) => unknown };
        _: {
          session: {
            prepareQuery: (
              query: unknown,
              fields: undefined,
              name: undefined,
              arrayMode: boolean,
            ) => RawPrepared;
          };
        };
      };
      return internal._.session.prepareQuery(
        internal.dialect.sqlToQuery(build()),
        undefined,
        undefined,
        false,
      );
    });
    const result = (await prepared.execute(values)) as { rows: T[] };
    return result.rows;
  };
}
