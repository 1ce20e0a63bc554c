/** SQL of the request limits: one fixed-window counter per key (see rate-limit.ts). */
import { lt, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../db/client';
import { rateLimits } from '../db/schema/index';

/**
 * Counts one hit of `key` in one atomic upsert: a window that started
 * `windowMs` or more before `now` starts over at `now` with this hit.
 * Returns the hits of the current window and when it started.
 */
export async function countHit(
  db: Executor,
  key: string,
  now: Date,
  windowMs: number,
): Promise<{ hits: number; windowStart: Date } | undefined> {
  const expired = new Date(now.getTime() - windowMs).toISOString();
  const stale = sql`${rateLimits.windowStart} <= ${expired}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        windowStart: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
        hits: sql`case when ${stale} then 1 else ${rateLimits.hits} + 1 end`,
      },
    })
    .returning({ hits: rateLimits.hits, windowStart: rateLimits.windowStart });
  return row;
}

/** Retention: counters whose window started before `before`. */
export async function deleteRateLimitsBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, rateLimits, lt(rateLimits.windowStart, before));
}
