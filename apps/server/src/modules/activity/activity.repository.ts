/**
 * The activity log: who did what, written in the same transaction as the
 * change it records. Each event is appended to its unit's hash chain by the
 * database itself (trigger of migration 0017), whatever code inserts it; the
 * chain is read back and checked here (`readChainSlice`, activity-chain.ts).
 */
import type { ActivityType } from '@exame/shared';
import { and, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { plannedPerCall, type Database, type Executor } from '../../db/client';
import { activityLog, searchable, users } from '../../db/schema/index';
import { uniqueViolation } from '../../db/errors';
import { selectRows } from '../../db/select-rows';
import { containing, escapeLike, searchForm } from '../../db/sql-text';

/** The types are the shared contract's (the web filters by them). */
export type { ActivityType };

export type ActivityEvent = {
  type: ActivityType;
  actorId: string | null;
  federativeUnit: string | null;
  payload?: Record<string, unknown>;
  /** What the event is about: `user:<id>`, `exam:<schedulingId>`, `cpf:<pseudonym>`, a route. */
  target?: string | null;
};

export async function insertActivity(db: Executor, event: ActivityEvent): Promise<void> {
  await db.insert(activityLog).values({
    type: event.type,
    actorId: event.actorId,
    federativeUnit: event.federativeUnit,
    payload: event.payload ?? {},
    target: event.target ?? null,
  });
}

/** What a change reports: its result, and the activity event that records it. */
export type RecordedChange<T> = {
  result: T;
  type: ActivityType;
  payload: Record<string, unknown>;
  target?: string | null;
};

/**
 * Runs a change of `actor` in one transaction together with its activity
 * event: both are written, or neither. The event is in the actor's unit.
 */
export async function changeWithActivity<T>(
  db: Database,
  actor: { id: string; federativeUnit: string },
  change: (tx: Executor) => Promise<RecordedChange<T>>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { result, type, payload, target } = await change(tx);
    await insertActivity(tx, {
      type,
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload,
      target,
    });
    return result;
  });
}

/* ------------------------------------------------------------------------ */
/* The web client's events                                                  */
/* ------------------------------------------------------------------------ */

export type WebEventRow = {
  clientId: string;
  type: 'page_view' | 'error' | 'stream_log';
  occurredAt: string;
  target?: string;
  details?: Record<string, unknown>;
  deviceId: string;
  appVersion: string;
};

/** Tries of appendWebEvents when another request stores one of its events at the same time. */
const APPEND_TRIES = 3;

/**
 * Appends the web client's events of `actor` that the actor's log does not
 * have yet (by client id), in the order given, in one statement with no
 * transaction around it: the trigger appends each to the unit's web chain.
 * The events must have different client ids. Returns the client ids stored.
 *
 * Two requests with the same event at once: both statements may miss the
 * other's row, and the second then breaks the unique index of actor and
 * client id (migration 0017) once the first commits; the whole statement is
 * undone (the chain's head with it, so the chain has no gap) and sent again,
 * now seeing the first one's row. Inside a caller's transaction that retry
 * cannot happen: call it on the database, not in a transaction, where two
 * senders may meet.
 */
export async function appendWebEvents(
  db: Executor,
  actor: { id: string; federativeUnit: string },
  events: readonly WebEventRow[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = JSON.stringify(
    events.map((event, place) => ({
      place,
      type: event.type,
      payload: event.details ?? {},
      target: event.target ?? null,
      device_id: event.deviceId,
      app_version: event.appVersion,
      client_id: event.clientId,
      occurred_at: new Date(event.occurredAt).toISOString(),
    })),
  );
  // The batch read once; the actor's events with its ids, by the unique index (a join with
  // the batch would read every event of the actor).
  const statement = sql`
    with batch as (
      select * from jsonb_to_recordset(${rows}::jsonb) as e(
        place int, type text, payload jsonb, target text, device_id text, app_version text,
        client_id uuid, occurred_at timestamptz)),
    stored as (
      select a.client_id from activity_log a
      where a.actor_id = ${actor.id}::uuid
        and a.client_id = any(array(select client_id from batch)))
    insert into activity_log
      (type, actor_id, federative_unit, payload, target, device_id, app_version, client_id, occurred_at)
    select e.type, ${actor.id}::uuid, ${actor.federativeUnit}, e.payload, e.target, e.device_id,
           e.app_version, e.client_id, e.occurred_at
    from batch e
    where not exists (select 1 from stored s where s.client_id = e.client_id)
    order by e.place
    returning client_id`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const stored = await selectRows<{ client_id: string }>(db, statement);
      return stored.map((row) => String(row.client_id));
    } catch (error) {
      if (attempt >= APPEND_TRIES || uniqueViolation(error) !== 'activity_log_actor_client_idx') {
        throw error;
      }
    }
  }
}

/* ------------------------------------------------------------------------ */
/* Search                                                                   */
/* ------------------------------------------------------------------------ */

export type ActivitySearch = {
  unit: string;
  types?: readonly string[];
  actorId?: string;
  /** Part of the actor's name or e-mail. */
  actorText?: string;
  /** Part of the target or of the payload. */
  targetText?: string;
  /** The person the text names by CPF: their pseudonym target and their user ids in the unit. */
  cpf?: { digits: string; target: string };
  start?: Date;
  endExclusive?: Date;
};

export type ActivityRow = {
  id: string;
  seq: number;
  type: string;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  federativeUnit: string | null;
  target: string | null;
  payload: Record<string, unknown>;
  deviceId: string | null;
  appVersion: string | null;
  occurredAt: Date;
  createdAt: Date;
  hash: string;
};

/** The actors the actor filter looks for (a name of its own: the page joins `users` too). */
const actors = alias(users, 'actors');

/**
 * The targets that hold `text` (in the searchable form). A text with a colon,
 * as a key (`exam:<id>`), shares its trigrams with every key of its kind: it
 * is found by what follows its colon instead (migration 0033). It lies either
 * across the target's first colon (the target's part after that colon starts
 * with the text's part after its own, the part before ends with the text's),
 * or wholly after that colon, in a target with a second one.
 */
function targetCondition(text: string): SQL {
  const target = searchable(activityLog.target);
  const form = searchForm(text);
  const colon = form.indexOf(':');
  if (colon < 0 || colon === form.length - 1) return like(target, containing(text));
  const before = form.slice(0, colon);
  const across = and(
    like(sql`substring(${target} from '^[^:]*:(.*)$')`, `${escapeLike(form.slice(colon + 1))}%`),
    before ? like(sql`split_part(${target}, ':', 1)`, `%${escapeLike(before)}`) : undefined,
  );
  const within = and(sql`${activityLog.target} like '%:%:%'`, like(target, containing(text)));
  return or(across, within)!;
}

/*
 * Each filter has an index in the search's order (migration 0029): the unit's
 * events, by type, by actor, and the trigram index of the target and details
 * for a text. Every branch of the CPF's alternatives reads an index too (the
 * lists of the person's ids as arrays), so the alternatives combine as a
 * bitmap instead of a walk through the unit's events.
 */
function searchConditions(search: ActivitySearch): SQL | undefined {
  const conditions: Array<SQL | undefined> = [
    eq(activityLog.federativeUnit, search.unit),
    search.types ? inArray(activityLog.type, [...search.types]) : undefined,
    search.actorId ? eq(activityLog.actorId, search.actorId) : undefined,
    search.start ? gte(activityLog.createdAt, search.start) : undefined,
    search.endExclusive ? lt(activityLog.createdAt, search.endExclusive) : undefined,
  ];
  // A text's plan depends on how many rows it matches: planned with the text on every call.
  if (search.actorText || search.targetText) conditions.push(plannedPerCall());
  if (search.actorText) {
    const pattern = containing(search.actorText);
    conditions.push(
      sql`${activityLog.actorId} in (select ${actors.id} from ${users} ${sql.identifier('actors')} where ${like(actors.searchText, pattern)})`,
    );
  }
  if (search.targetText) {
    const pattern = containing(search.targetText);
    const byText = or(
      targetCondition(search.targetText),
      like(searchable(sql`${activityLog.payload}::text`), pattern),
    );
    if (search.cpf) {
      // The person by CPF: events naming their pseudonym, their user account, their exams, or the CPF itself.
      const people = sql`select 'user:' || u.id::text from users u where u.cpf = ${search.cpf.digits} and u.federative_unit = ${search.unit}`;
      const ids = sql`select u.id::text from users u where u.cpf = ${search.cpf.digits} and u.federative_unit = ${search.unit}`;
      conditions.push(
        or(
          byText,
          eq(activityLog.target, search.cpf.target),
          sql`(${activityLog.payload} ->> 'cpfPseudonym') = ${search.cpf.target.slice(4)}`,
          sql`${activityLog.target} = any(array(${people}))`,
          sql`${activityLog.target} = any(array(select 'exam:' || e.scheduling_id from exams e where e.candidate_cpf = ${search.cpf.digits} and e.federative_unit = ${search.unit}))`,
          sql`(${activityLog.payload} -> 'userIds') ?| array(${ids})`,
          sql`(${activityLog.payload} ->> 'userId') = any(array(${ids}))`,
        ),
      );
    } else {
      conditions.push(byText);
    }
  }
  return and(...conditions);
}

const rowColumns = {
  id: activityLog.id,
  seq: activityLog.seq,
  type: activityLog.type,
  actorId: activityLog.actorId,
  actorName: users.name,
  actorEmail: users.email,
  federativeUnit: activityLog.federativeUnit,
  target: activityLog.target,
  payload: activityLog.payload,
  deviceId: activityLog.deviceId,
  appVersion: activityLog.appVersion,
  occurredAt: activityLog.occurredAt,
  createdAt: activityLog.createdAt,
  hash: activityLog.hash,
};

/**
 * Newest first: by the time the server recorded it, then in chain order (the
 * events of one transaction share its time). Unique, so pages and the
 * export's slices never skip nor repeat an event.
 */
const newestFirst = [
  desc(activityLog.createdAt),
  desc(activityLog.chain),
  desc(activityLog.seq),
] as const;

/** One page, newest first. */
export async function findActivityPage(
  db: Executor,
  search: ActivitySearch,
  limit: number,
  offset: number,
): Promise<ActivityRow[]> {
  return db
    .select(rowColumns)
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorId))
    .where(searchConditions(search))
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
}

/** The next slice of the export, newest first, after the event `afterId` (the previous slice's last). */
export async function findActivitySlice(
  db: Executor,
  search: ActivitySearch,
  afterId: string | undefined,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .select(rowColumns)
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorId))
    .where(
      and(
        searchConditions(search),
        afterId === undefined
          ? undefined
          : sql`(${activityLog.createdAt}, ${activityLog.chain}, ${activityLog.seq}) <
                (select p.created_at, p.chain, p.seq from activity_log p where p.id = ${afterId})`,
      ),
    )
    .orderBy(...newestFirst)
    .limit(limit);
}

/**
 * How many events the search finds, counting no further than `upTo`: the
 * count reads at most that many index entries, however long the log.
 */
export async function countActivity(
  db: Executor,
  search: ActivitySearch,
  upTo: number,
): Promise<number> {
  const found = db
    .select({ one: sql`1`.as('one') })
    .from(activityLog)
    .where(searchConditions(search))
    .limit(upTo)
    .as('found');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(found);
  return row?.n ?? 0;
}
