/**
 * Opens the database: PGlite (PostgreSQL compiled to WASM, files under
 * DATA_DIR) when no DATABASE_URL is set, a node-postgres pool otherwise. Both
 * speak the same SQL dialect, run the same migrations and deliver
 * LISTEN/NOTIFY (PGlite in-process; PostgreSQL across every instance).
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

/** Stops listening (the channel is left when its last listener goes). */
export type Unlisten = () => Promise<void>;

export type ListenOptions = {
  /**
   * Called after a lost listening connection is back (PostgreSQL only):
   * notifications sent meanwhile were not delivered, so the listener reads
   * what it missed from the tables.
   */
  onReconnect?: () => void;
};

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  migrate: () => Promise<void>;
  ping: () => Promise<void>;
  /** `LISTEN channel`: `onPayload` gets each notification's payload, after its transaction commits. */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    options?: ListenOptions,
  ) => Promise<Unlisten>;
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
  parts: Pick<DatabaseHandle, 'migrate' | 'listen' | 'close'>,
): DatabaseHandle {
  return {
    kind,
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
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
    which.removeAllListeners('notification');
    void which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url, keepAlive: true });
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
    return handleOf('pglite', db as unknown as Database, {
      migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
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
  });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger: loggerOf(target) });
  const listener = createPgListener(target.url);
  return handleOf('postgres', db as unknown as Database, {
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
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
