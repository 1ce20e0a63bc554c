/** SQL of the request limits: one fixed-window counter per key (see rate-limit.ts). */
import { lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from './client';
import { rateLimits } from './schema/index';
import { selectRows } from './select-rows';

export type Hit = { key: string; windowMs: number; weight?: number };

/**
 * Counts each hit's `weight` (one by default) on its key, all in one
 * statement (an atomic upsert per key, each in a statement part of its own):
 * a window that started `windowMs` or more before `now` starts over at `now`
 * with these. Returns, in the order given, the hits of each key's current
 * window and when it started. The keys must differ.
 */
export async function countHits(
  db: Executor,
  hits: readonly Hit[],
  now: Date,
): Promise<Array<{ hits: number; windowStart: Date } | undefined>> {
  if (hits.length === 0) return [];
  // PostgreSQL refuses one statement upserting the same row twice.
  if (new Set(hits.map((hit) => hit.key)).size !== hits.length) {
    throw new Error('countHits: the same key twice');
  }
  const at = now.toISOString();
  const parts = hits.map((hit, index) => {
    const weight = hit.weight ?? 1;
    const expired = new Date(now.getTime() - hit.windowMs).toISOString();
    const stale = sql`rate_limits.window_start <= ${expired}::timestamptz`;
    return sql`${sql.raw(`hit${index}`)} as (
      insert into rate_limits (key, window_start, hits)
      values (${hit.key}, ${at}::timestamptz, ${weight}::int)
      on conflict (key) do update set
        window_start = case when ${stale} then ${at}::timestamptz else rate_limits.window_start end,
        hits = case when ${stale} then ${weight}::int else rate_limits.hits + ${weight}::int end
      returning ${index}::int as place, hits, window_start)`;
  });
  const rows = await selectRows<{ place: number; hits: number; window_start: string | Date }>(
    db,
    sql`with ${sql.join(parts, sql`, `)}
        ${sql.join(
          hits.map((_, index) => sql.raw(`select * from hit${index}`)),
          sql` union all `,
        )}`,
  );
  const counted = new Map(rows.map((row) => [Number(row.place), row]));
  return hits.map((_, index) => {
    const row = counted.get(index);
    return row ? { hits: Number(row.hits), windowStart: new Date(row.window_start) } : undefined;
  });
}

/** Retention: counters whose window started before `before`. */
export async function deleteRateLimitsBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, rateLimits, lt(rateLimits.windowStart, before));
}
