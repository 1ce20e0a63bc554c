// @ts-check
/**
 * The embedded database on a thread of its own (see pglite-thread.ts). PGlite
 * runs PostgreSQL compiled to WebAssembly synchronously: on the main thread
 * every statement stops the event loop for as long as it runs, and a queue of
 * waiting statements is worked off without ever yielding to it. Here the
 * statements run while the main thread keeps answering HTTP.
 *
 * Plain JavaScript, so that it loads in any worker thread with or without a
 * TypeScript loader. Messages in: `{ id, op, ... }`; each gets one answer
 * `{ id, ok, value | error }`. Notifications go out as `{ notify, payload }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

if (!parentPort) throw new Error('pglite-worker.mjs roda apenas em uma worker thread.');
const port = parentPort;

/** @type {{ dataDir?: string, prepare?: boolean, loadDataDir?: Uint8Array, wasmModule?: WebAssembly.Module, fsBundle?: Blob }} */
const options = workerData ?? {};

/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */
/** @typedef {{ tx: Transaction, finish: (commit: boolean) => void, done: Promise<unknown> }} OpenTransaction */

/** @type {Map<number, OpenTransaction>} */
const transactions = new Map();
/** @type {Map<number, () => Promise<void>>} */
const listeners = new Map();
/** @type {Map<string, Record<number, (value: string) => string>>} */
const parserSets = new Map();

/** The driver asks for some types as the raw text (drizzle: dates, intervals); only that is supported. */
function parsersFor(/** @type {number[] | undefined} */ rawTypes) {
  if (!rawTypes || rawTypes.length === 0) return undefined;
  const key = rawTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = {};
    for (const type of rawTypes) parsers[type] = (value) => value;
    parserSets.set(key, parsers);
  }
  return parsers;
}

/** What crosses the thread boundary of an error: its text and its plain fields (code, constraint...). */
function errorOf(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    const type = typeof value;
    if (value === null || type === 'string' || type === 'number' || type === 'boolean') {
      fields[key] = value;
    }
  }
  return { message: error.message, name: error.name, fields };
}

const rollbackRequested = Symbol('rollback');

/*
 * Prepared statements. PGlite's own `query` sends every statement as parse,
 * describe, bind, describe, execute and sync, six calls into the WebAssembly
 * each with its own parse and plan. A parameterised statement is parsed here
 * once as a named statement (PostgreSQL then keeps its plan, generic after a
 * few runs) and each later run sends bind, describe, execute and sync in one
 * call. The locks are PGlite's own, as `query` takes them; values are
 * serialised and rows parsed with PGlite's serialisers and parsers.
 */
const { serialize } = protocol;
/** @type {Map<string, { name: string, types: number[] }>} */
const statements = new Map();
const MAX_STATEMENTS = 256;
let statementCount = 0;

/** @param {Uint8Array[]} parts */
function joined(parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * @param {PGlite} db
 * @param {string} text
 */
async function statementFor(db, text) {
  let statement = statements.get(text);
  if (statement) return statement;
  if (statements.size >= MAX_STATEMENTS) {
    const [oldText, oldest] = statements.entries().next().value ?? [];
    if (oldText !== undefined && oldest) {
      statements.delete(oldText);
      await db.execProtocolStream(
        joined([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]),
        { syncToFs: false },
      );
    }
  }
  const name = `s${++statementCount}`;
  /** @type {import('@electric-sql/pglite').BackendMessage[]} */
  let described = [];
  try {
    await db.execProtocolStream(serialize.parse({ name, text }), { syncToFs: false });
    described = await db.execProtocolStream(serialize.describe({ type: 'S', name }), {
      syncToFs: false,
    });
  } finally {
    await db.execProtocolStream(serialize.sync(), { syncToFs: false });
  }
  statement = { name, types: parse.parseDescribeStatementResults(described) };
  statements.set(text, statement);
  return statement;
}

/**
 * `query` with a named statement; inside an open transaction (`inTransaction`)
 * only the statement lock is taken, outside it the transaction lock too.
 * @param {PGlite} db
 * @param {string} text
 * @param {unknown[]} params
 * @param {import('@electric-sql/pglite').QueryOptions} queryOptions
 * @param {boolean} inTransaction
 */
function preparedQuery(db, text, params, queryOptions, inTransaction) {
  const run = async () => {
    const statement = await statementFor(db, text);
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = statement.types[index];
      const serializer = type === undefined ? undefined : db.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await db.execProtocolStream(
      joined([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (!db.isInTransaction()) await db.syncToFs();
    return parse.parseResults(messages, db.parsers, queryOptions)[0];
  };
  return inTransaction
    ? db._runExclusiveQuery(run)
    : db._runExclusiveTransaction(() => db._runExclusiveQuery(run));
}

/** @param {any} message */
async function handle(message, /** @type {PGlite} */ db) {
  switch (message.op) {
    case 'query': {
      const target = message.tx ? transactions.get(message.tx)?.tx : db;
      if (!target) throw new Error('transação encerrada');
      const queryOptions = { rowMode: message.rowMode, parsers: parsersFor(message.rawTypes) };
      // A statement marked PLANNED_PER_CALL (prepared-statements.ts) runs unnamed.
      if (options.prepare && message.params.length > 0 && !message.plannedPerCall) {
        return preparedQuery(db, message.sql, message.params, queryOptions, Boolean(message.tx));
      }
      return target.query(message.sql, message.params, queryOptions);
    }
    case 'exec': {
      const target = message.tx ? transactions.get(message.tx)?.tx : db;
      if (!target) throw new Error('transação encerrada');
      return target.exec(message.sql, { rowMode: message.rowMode });
    }
    case 'script': {
      // Several statements with their own BEGIN ... COMMIT (the job queue's
      // migrations). One failing leaves the transaction open and aborted on
      // the one session PGlite has (a server would drop the connection): it is
      // rolled back here, before any other statement runs.
      return db._runExclusiveTransaction(() =>
        db._runExclusiveQuery(async () => {
          try {
            const messages = await db.execProtocolStream(serialize.query(message.sql), {
              syncToFs: false,
            });
            return parse.parseResults(messages, db.parsers, { rowMode: message.rowMode });
          } catch (error) {
            if (db.isInTransaction()) {
              await db.execProtocolStream(serialize.query('ROLLBACK'), { syncToFs: false });
            }
            throw error;
          } finally {
            if (!db.isInTransaction()) await db.syncToFs();
          }
        }),
      );
    }
    case 'dump': {
      // A copy of the data folder (tar) for the backup: taken between
      // statements (no transaction open), after a checkpoint, so it opens
      // like the database at this moment.
      return db._runExclusiveTransaction(() =>
        db._runExclusiveQuery(async () => {
          await db.execProtocolStream(serialize.query('CHECKPOINT'), { syncToFs: false });
          await db.syncToFs();
          const file = await db.dumpDataDir('none');
          return new Uint8Array(await file.arrayBuffer());
        }),
      );
    }
    case 'begin': {
      // Resolves once BEGIN ran; the transaction stays open until `end`.
      return new Promise((resolve, reject) => {
        let begun = false;
        const done = db.transaction(async (tx) => {
          /** @type {(commit: boolean) => void} */
          let finish = () => undefined;
          const decided = new Promise((decide, refuse) => {
            finish = (commit) => (commit ? decide(undefined) : refuse(rollbackRequested));
          });
          transactions.set(message.tx, { tx, finish, done });
          begun = true;
          resolve(undefined);
          await decided;
        });
        done.catch((error) => {
          if (!begun) reject(error);
        });
      });
    }
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) throw new Error('transação encerrada');
      open.finish(message.commit);
      try {
        await open.done;
      } catch (error) {
        if (error !== rollbackRequested) throw error;
      } finally {
        transactions.delete(message.tx);
      }
      return undefined;
    }
    case 'listen': {
      const unlisten = await db.listen(message.channel, (payload) => {
        port.postMessage({ notify: message.listener, payload });
      });
      listeners.set(message.listener, unlisten);
      return undefined;
    }
    case 'unlisten': {
      const unlisten = listeners.get(message.listener);
      listeners.delete(message.listener);
      if (unlisten && !db.closed) await unlisten();
      return undefined;
    }
    case 'close': {
      if (!db.closed) await db.close();
      return undefined;
    }
    default:
      throw new Error(`operação desconhecida: ${String(message.op)}`);
  }
}

try {
  // A data folder from a backup (a tar) is unpacked into the new database first.
  const load = options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {};
  // The extensions the migrations create (the search indexes of the lists).
  const extensions = { pg_trgm, btree_gin };
  // PostgreSQL's WebAssembly and its share files, compiled and read once per process (pglite-thread.ts).
  const { wasmModule, fsBundle } = options;
  const db = new PGlite({ dataDir: options.dataDir, extensions, ...load, wasmModule, fsBundle });
  await db.waitReady;
  port.on('message', (message) => {
    handle(message, db).then(
      (value) => port.postMessage({ id: message.id, ok: true, value }),
      (error) => port.postMessage({ id: message.id, ok: false, error: errorOf(error) }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: errorOf(error) });
}
