/**
 * PGlite on a worker thread (pglite-worker.mjs), behind the part of PGlite's
 * interface that drizzle and db/client.ts use: `query`, `exec`,
 * `transaction`, `listen`, `close`. The statements run on the worker while
 * the main thread keeps serving requests; their order and locking are
 * PGlite's own (one statement at a time, a transaction holds the database
 * until it ends), as on the main thread.
 *
 * What crosses the boundary is structured-cloned: parameters and rows are
 * plain values; errors come back as an Error with the database's fields
 * (`code`, `constraint`, `detail`...). The one query option with functions,
 * `parsers`, is supported as drizzle uses it: types read as their raw text.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { runtimePath } from '../config/runtime-paths';
import { PLANNED_PER_CALL } from './prepared-statements';

const require = createRequire(import.meta.url);

type Request = { op: string; tx?: number } & Record<string, unknown>;
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };
type WireError = { message: string; name?: string; fields: Record<string, unknown> };
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The PGlite surface the app uses, served by the worker. */
export type ThreadedPglite = Pick<PGlite, 'query' | 'exec' | 'transaction' | 'listen' | 'close'> & {
  readonly closed: boolean;
  /** Calls sent to the worker and not yet answered (the one running and those behind it). */
  readonly pending?: number;
  /**
   * Several statements that may open and commit their own transaction; when
   * one fails, the open transaction is rolled back before anything else runs.
   */
  script?: (sql: string) => Promise<Results[]>;
  /** The data folder as a tar, taken between statements after a checkpoint (backups). */
  dump?: () => Promise<Uint8Array>;
};

function toError(wire: WireError): Error {
  const error = new Error(wire.message);
  if (wire.name) error.name = wire.name;
  return Object.assign(error, wire.fields);
}

/** The types the caller wants raw: only identity parsers can cross the thread boundary. */
function rawTypesOf(options: QueryOptions | undefined): number[] | undefined {
  const parsers = options?.parsers;
  if (!parsers) return undefined;
  const types: number[] = [];
  for (const [type, parse] of Object.entries(parsers)) {
    if (parse('0', Number(type)) !== '0') {
      throw new Error('PGlite em worker thread: só parsers que devolvem o texto são suportados');
    }
    types.push(Number(type));
  }
  return types;
}

/** Node's global `WebAssembly` (the server's type library declares its types, not the value). */
const wasmApi = (
  globalThis as unknown as {
    WebAssembly: { compile: (bytes: Uint8Array) => Promise<WebAssembly.Module> };
  }
).WebAssembly;

let engineFiles: Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

/**
 * PostgreSQL's WebAssembly, compiled once per process, and its share files
 * (the `.data` bundle), read once: every database this process opens starts
 * from them instead of compiling and reading its own (a test run opens one
 * per file).
 */
export function pgliteEngine(): Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> {
  engineFiles ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      fs.promises.readFile(path.join(dist, 'pglite.wasm')),
      fs.promises.readFile(path.join(dist, 'pglite.data')),
    ]);
    return { wasmModule: await wasmApi.compile(wasm), fsBundle: new Blob([data]) };
  })();
  return engineFiles;
}

export async function openThreadedPglite(
  dataDir: string | undefined,
  options: { preparedStatements?: boolean; loadDataDir?: Uint8Array } = {},
): Promise<ThreadedPglite> {
  const engine = await pgliteEngine();
  const worker = new Worker(runtimePath('db/pglite-worker.mjs'), {
    workerData: {
      ...engine,
      dataDir,
      prepare: options.preparedStatements !== false,
      loadDataDir: options.loadDataDir,
    },
  });
  const pending = new Map<number, Pending>();
  const notified = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let closed = false;
  let failure: Error | null = null;

  // The worker keeps the process alive only while a statement is waiting on it.
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };

  await new Promise<void>((resolve, reject) => {
    const onReady = (message: { ready?: boolean; error?: WireError }) => {
      if (message.ready === undefined) return;
      worker.off('message', onReady);
      worker.off('error', reject);
      if (message.ready) resolve();
      else reject(toError(message.error ?? { message: 'PGlite não iniciou', fields: {} }));
    };
    worker.on('message', onReady);
    worker.once('error', reject);
  });
  worker.unref();

  worker.on('message', (message: Reply | { notify: number; payload: string }) => {
    if ('notify' in message) {
      notified.get(message.notify)?.(message.payload);
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    settle();
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(toError(message.error));
  });
  const fail = (error: Error) => {
    failure = error;
    closed = true;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(failure ?? new Error('banco de dados fechado')));

  function call<T>(request: Request): Promise<T> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  function runner(tx: number | undefined) {
    return {
      query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
        call<Results<T>>({
          op: 'query',
          tx,
          sql,
          params: params ?? [],
          plannedPerCall: sql.includes(PLANNED_PER_CALL),
          rowMode: options?.rowMode,
          rawTypes: rawTypesOf(options),
        }),
      exec: (sql: string, options?: QueryOptions) =>
        call<Results[]>({ op: 'exec', tx, sql, rowMode: options?.rowMode }),
    };
  }

  let nextTransaction = 1;
  async function transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = nextTransaction++;
    await call({ op: 'begin', tx: id });
    let ended = false;
    const { query, exec } = runner(id);
    const tx = {
      query,
      exec,
      sql: () => Promise.reject(new Error('tx.sql não é suportado no PGlite em worker thread')),
      listen: () =>
        Promise.reject(new Error('tx.listen não é suportado no PGlite em worker thread')),
      rollback: async () => {
        ended = true;
        await call({ op: 'end', tx: id, commit: false });
      },
      get closed() {
        return ended;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!ended) {
        ended = true;
        await call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      }
      throw error;
    }
    if (!ended) {
      ended = true;
      await call({ op: 'end', tx: id, commit: true });
    }
    return result;
  }

  let nextListener = 1;
  const { query, exec } = runner(undefined);
  const client = {
    query,
    exec,
    script: (sql: string) => call<Results[]>({ op: 'script', sql }),
    dump: () => call<Uint8Array>({ op: 'dump' }),
    transaction,
    listen: async (channel: string, callback: (payload: string) => void) => {
      const listener = nextListener++;
      notified.set(listener, callback);
      try {
        await call({ op: 'listen', channel, listener });
      } catch (error) {
        notified.delete(listener);
        throw error;
      }
      return async () => {
        if (!notified.delete(listener) || closed) return;
        await call({ op: 'unlisten', listener });
      };
    },
    close: async () => {
      if (closed) return;
      await call({ op: 'close' });
      closed = true;
      notified.clear();
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
    get pending() {
      return pending.size;
    },
  };
  return client as unknown as ThreadedPglite;
}
