/**
 * SQL of realtime events: the row written with each change, the NOTIFY that
 * announces it at commit, and the reads of a unit's events after an id.
 */
import type { RealtimeEvent, RealtimeKind } from '@exame/shared';
import { and, eq, gt, lt, max, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
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
  const [id] = await publishRealtimeAll(tx, [event]);
  if (id === undefined) throw new Error('insert returned no row');
  return id;
}

/** Rows written per statement by publishRealtimeAll. */
const INSERT_BATCH = 500;

/**
 * Writes many events at once (an import), under the same rules: the rows in
 * a few statements and one notification per unit, naming its last event
 * (a listener reads every event after the last one it saw). Returns the ids
 * in the order given.
 */
export async function publishRealtimeAll(
  tx: Executor,
  events: RealtimeEventInput[],
): Promise<number[]> {
  if (events.length === 0) return [];
  const units = [...new Set(events.map((event) => event.federativeUnit))].sort();
  if (units.length === 1 && events.length <= INSERT_BATCH) {
    return publishUnitEvents(tx, units[0]!, events);
  }
  // In a fixed order, so that two transactions locking the same units cannot wait on each other.
  for (const unit of units) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey(unit)}))`);
  }
  const ids: number[] = [];
  for (let start = 0; start < events.length; start += INSERT_BATCH) {
    const rows = await tx
      .insert(realtimeEvents)
      .values(
        events.slice(start, start + INSERT_BATCH).map((event) => ({
          federativeUnit: event.federativeUnit,
          schedulingLocal: event.schedulingLocal,
          kind: event.kind,
          payload: event.payload,
        })),
      )
      .returning({ id: realtimeEvents.id });
    ids.push(...rows.map((row) => row.id));
  }
  for (const unit of units) {
    const last = events.findLastIndex((event) => event.federativeUnit === unit);
    const notice: RealtimeNotice = {
      id: ids.reduce(
        (top, id, index) => (events[index]!.federativeUnit === unit ? Math.max(top, id) : top),
        0,
      ),
      unit,
      local: events[last]!.schedulingLocal,
    };
    await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${JSON.stringify(notice)})`);
  }
  return ids;
}

const lockKey = (unit: string) => `realtime:${unit}`;

/**
 * The events of one unit (every change but a large import) in one
 * statement: the unit's lock, the rows, and the notification naming the
 * last of them. The rows read the lock's result, so it is taken before any
 * id is drawn.
 */
async function publishUnitEvents(
  tx: Executor,
  unit: string,
  events: RealtimeEventInput[],
): Promise<number[]> {
  const rows = JSON.stringify(
    events.map((event, place) => ({
      place,
      scheduling_local: event.schedulingLocal,
      kind: event.kind,
      payload: event.payload,
    })),
  );
  const [row] = await selectRows<{ ids: Array<string | number> }>(
    tx,
    sql`with locked as (select pg_advisory_xact_lock(hashtext(${lockKey(unit)})) as done),
        written as (
          insert into realtime_events (federative_unit, scheduling_local, kind, payload)
          select ${unit}, e.scheduling_local, e.kind, e.payload
          from locked, jsonb_to_recordset(${rows}::jsonb)
            as e(place int, scheduling_local text, kind text, payload jsonb)
          order by e.place
          returning id, scheduling_local)
        select array_agg(id order by id) as ids,
               pg_notify(${REALTIME_CHANNEL}, json_build_object(
                 'id', max(id),
                 'unit', ${unit}::text,
                 'local', (array_agg(scheduling_local order by id desc))[1])::text) as notified
        from written`,
  );
  return (row?.ids ?? []).map(Number);
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
