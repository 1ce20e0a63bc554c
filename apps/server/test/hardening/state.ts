/**
 * What a rejected request must leave untouched: the row count of every table
 * and the files of the storage folder, taken as one comparable snapshot; and
 * the shape of an error answer (a pt-BR `Error` and a stable `code`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { selectRows } from '../../src/db/select-rows';
import type { TestApp } from '../helper';

/**
 * Tables that count refused attempts on purpose (sign-in throttle, rate
 * limits): a rejected request is expected to write there.
 */
export const ATTEMPT_TABLES = new Set(['login_throttle', 'rate_limits']);

export type Snapshot = { rows: Record<string, number>; files: string[] };

export function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(`${path.relative(root, full)}:${fs.statSync(full).size}`);
    }
  };
  walk(root);
  return found.sort();
}

/** One query that counts the rows of every table of the schema. */
export async function snapshotter(t: TestApp, filesRoot: string): Promise<() => Promise<Snapshot>> {
  const tables = (
    await selectRows<{ table_name: string }>(
      t.database.db,
      sql`select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  )
    .map((row) => row.table_name)
    .filter((name) => !ATTEMPT_TABLES.has(name));
  const query = sql.raw(
    tables
      .map((name) => `select '${name}' as name, count(*)::int as count from "${name}"`)
      .join(' union all '),
  );
  return async () => {
    const counted = await selectRows<{ name: string; count: number }>(t.database.db, query);
    const rows = Object.fromEntries(counted.map((row) => [row.name, Number(row.count)]));
    return { rows, files: listFiles(filesRoot) };
  };
}

/** The tables and files that differ between two snapshots, as readable text. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  for (const [table, count] of Object.entries(after.rows)) {
    if (before.rows[table] !== count) changes.push(`${table}: ${before.rows[table]} -> ${count}`);
  }
  const previous = new Set(before.files);
  const next = new Set(after.files);
  for (const file of after.files) if (!previous.has(file)) changes.push(`+ arquivo ${file}`);
  for (const file of before.files) if (!next.has(file)) changes.push(`- arquivo ${file}`);
  return changes;
}

/**
 * What is wrong with an answer, if anything: a 5xx (other than the
 * documented 503 SERVER_BUSY), or a 4xx without a JSON body carrying a
 * non-empty `Error` and `code`.
 */
export function answerProblem(response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  if (status < 400) return undefined;
  let body: { Error?: unknown; code?: unknown } = {};
  try {
    body = JSON.parse(response.body) as typeof body;
  } catch {
    return `${status} sem corpo JSON: ${response.body.slice(0, 200)}`;
  }
  if (status >= 500 && !(status === 503 && body.code === 'SERVER_BUSY'))
    return `${status} ${response.body.slice(0, 300)}`;
  if (typeof body.Error !== 'string' || body.Error.length === 0)
    return `${status} sem Error: ${response.body.slice(0, 200)}`;
  if (typeof body.code !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]+$/.test(body.code))
    return `${status} sem code estável: ${response.body.slice(0, 200)}`;
  return undefined;
}
