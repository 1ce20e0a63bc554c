/**
 * Prepared statements: named statements kept per PostgreSQL connection
 * (PreparingClient), and the queries the repositories prepare once and
 * execute with new values (placeholders, preparedQueries,
 * preparedRawQueries).
 */
import { createHash } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import pg from 'pg';

/**
 * In a statement's text: plan it with its values on every call (sent
 * unnamed, never prepared). For a search whose best plan depends on how many
 * rows its text matches (a trigram pattern): a prepared statement's generic
 * plan cannot know that, and after five calls PostgreSQL may keep one that
 * walks the whole unit for a text only a few rows hold.
 */
export const PLANNED_PER_CALL = '/* planned per call */';

/** A condition (always true) that marks its statement PLANNED_PER_CALL. */
export function plannedPerCall(): SQL {
  return sql.raw(`${PLANNED_PER_CALL} true`);
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

/**
 * A pool connection that prepares each parameterised statement once (a
 * named statement, as node-postgres keeps them per connection) and then only
 * binds and executes it. Statements without parameters keep the simple
 * protocol, which also runs several statements at once (migrations);
 * statements marked PLANNED_PER_CALL run unnamed.
 */
export class PreparingClient extends pg.Client {
  readonly #prepared = new Set<string>();

  override query(...args: unknown[]): never {
    const [config, values] = args as [unknown, unknown];
    if (
      typeof config === 'object' &&
      config !== null &&
      typeof (config as { submit?: unknown }).submit !== 'function' &&
      typeof (config as { text?: unknown }).text === 'string' &&
      // drizzle's `.prepare('')` leaves the name empty: named here like the rest.
      !(config as { name?: unknown }).name &&
      Array.isArray(values ?? (config as { values?: unknown }).values) &&
      ((values ?? (config as { values: unknown[] }).values) as unknown[]).length > 0 &&
      !(config as { text: string }).text.includes(PLANNED_PER_CALL)
    ) {
      const name = statementName((config as { text: string }).text);
      if (this.#prepared.has(name) || this.#prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        args[0] = { ...config, name };
      }
    }
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}

/*
 * Queries built once. drizzle builds a query's SQL text anew on every call,
 * which for a wide select with a few conditions costs a few tenths of a
 * millisecond of the event loop. A hot read whose shape depends on its
 * filters (which ones are present, how many values a list has) is built with
 * placeholders once per executor and shape, prepared, and then only executed
 * with the values.
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
    // The database or a transaction (db/client's Executor).
    db: object,
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
