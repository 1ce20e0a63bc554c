/**
 * SQL of realtime events: the row written with each change, the NOTIFY that
 * announces it at commit, and the reads of a unit's events after an id.
 */
import type { RealtimeEvent, RealtimeKind } from '@exame/shared';
import { and, eq, gt, lt, max, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { realtimeEvents } from '../../db/schema/index';

/** The channel every instance listens to; the payload names the event (id, unit, local). */
export const REALTIME_CHANNEL = 'exam_events';

export type RealtimeNotice = { id: number; unit: string; local: string | null };

export type RealtimeEventInput = {
  federativeUnit: string;
  schedulingLocal: string | null;
  kind: RealtimeKind;
  payload: Record<string, unknown>;
};

/**
 * Writes the event in the caller's transaction and announces it; PostgreSQL
 * delivers the notification when the transaction commits, and not at all if
 * it rolls back. Returns the event's id.
 *
 * The unit's events are written one transaction at a time (a lock held from
 * here to the commit), so that ids commit in increasing order: a client that
 * saw id N has seen every earlier id of its unit, and resuming "after N"
 * misses nothing. Call it after the transaction's last row lock.
 */
export async function publishRealtime(tx: Executor, event: RealtimeEventInput): Promise<number> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`realtime:${event.federativeUnit}`}))`,
  );
  const [row] = await tx
    .insert(realtimeEvents)
    .values({
      federativeUnit: event.federativeUnit,
      schedulingLocal: event.schedulingLocal,
      kind: event.kind,
      payload: event.payload,
    })
    .returning({ id: realtimeEvents.id });
  if (!row) throw new Error('insert returned no row');
  const notice: RealtimeNotice = {
    id: row.id,
    unit: event.federativeUnit,
    local: event.schedulingLocal,
  };
  await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify(notice)})`);
  return row.id;
}

function toEvent(row: typeof realtimeEvents.$inferSelect): RealtimeEvent {
  return {
    id: row.id,
    kind: row.kind,
    federativeUnit: row.federativeUnit,
    schedulingLocal: row.schedulingLocal,
    payload: row.payload,
    at: row.createdAt.toISOString(),
  } as RealtimeEvent;
}

/** The unit's events after `afterId`, oldest first; only those of `local` when given. */
export async function listRealtimeEventsAfter(
  db: Executor,
  unit: string,
  options: { afterId: number; local?: string | null; limit: number },
): Promise<RealtimeEvent[]> {
  const rows = await db
    .select()
    .from(realtimeEvents)
    .where(
      and(
        eq(realtimeEvents.federativeUnit, unit),
        gt(realtimeEvents.id, options.afterId),
        options.local ? eq(realtimeEvents.schedulingLocal, options.local) : undefined,
      ),
    )
    .orderBy(realtimeEvents.id)
    .limit(options.limit);
  return rows.map(toEvent);
}

/** The id of the unit's newest event (0 when it has none). */
export async function lastRealtimeEventId(db: Executor, unit: string): Promise<number> {
  const [row] = await db
    .select({ id: max(realtimeEvents.id) })
    .from(realtimeEvents)
    .where(eq(realtimeEvents.federativeUnit, unit));
  return row?.id ? Number(row.id) : 0;
}

/** Removes events written before `before`; returns how many. */
export async function deleteRealtimeEventsBefore(db: Executor, before: Date): Promise<number> {
  return deleteRows(db, realtimeEvents, lt(realtimeEvents.createdAt, before));
}
