/** SQL of the request limits: one fixed-window counter per key (see rate-limit.ts). */
import { lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from './client';
import { rateLimits } from './schema/index';

/**
 * Counts `weight` hits of `key` (one by default) in one atomic upsert: a
 * window that started `windowMs` or more before `now` starts over at `now`
 * with these. Returns the hits of the current window and when it started.
 */
export async function countHit(
  db: Executor,
  key: string,
  now: Date,
  windowMs: number,
  weight = 1,
): Promise<{ hits: number; windowStart: Date } | undefined> {
  const expired = new Date(now.getTime() - windowMs).toISOString();
  const stale = sql`${rateLimits.windowStart} <= ${expired}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, hits: weight })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        windowStart: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
        hits: sql`case when ${stale} then ${weight}::int else ${rateLimits.hits} + ${weight}::int end`,
      },
    })
    .returning({ hits: rateLimits.hits, windowStart: rateLimits.windowStart });
  return row;
}

/** Retention: counters whose window started before `before`. */
export async function deleteRateLimitsBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, rateLimits, lt(rateLimits.windowStart, before));
}
