/**
 * The activity log: who did what, written in the same transaction as the
 * change it records. Each event is appended to its unit's hash chain by the
 * database itself (trigger of migration 0017), whatever code inserts it; the
 * chain is read back and checked here (`readChainSlice`, activity-chain.ts).
 */
import { createHash } from 'node:crypto';
import type { ActivityType } from '@exame/shared';
import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { selectRows, type Database, type Executor } from '../../db/client';
import { activityChainHeads, activityLog, users } from '../../db/schema/index';
import { escapeLike } from '../../db/sql-text';

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

/** The chain of a unit is named by the unit; events with no unit form the chain ''. */
export function chainOf(unit: string | null): string {
  return unit ?? '';
}

export type ChainLink = {
  id: string;
  seq: number;
  prevHash: string | null;
  hash: string;
  createdAt: Date;
  /** What the hash covers, as the database serialises it (`activity_hash_material`). */
  material: string;
};

/** The hash of an event, as the trigger computes it: SHA-256 of `prev|material`, hex. */
export function eventHash(prevHash: string | null, material: string): string {
  return createHash('sha256')
    .update(`${prevHash ?? ''}|${material}`, 'utf8')
    .digest('hex');
}

/** Up to `limit` links of `chain` after `afterSeq`, in chain order. */
export async function readChainSlice(
  db: Executor,
  chain: string,
  afterSeq: number,
  limit: number,
): Promise<ChainLink[]> {
  const rows = await selectRows<{
    id: string;
    seq: string | number;
    prev_hash: string | null;
    hash: string;
    created_at: string | Date;
    material: string;
  }>(
    db,
    sql`select a.id, a.seq, a.prev_hash, a.hash, a.created_at, activity_hash_material(a) as material
        from activity_log a
        where coalesce(a.federative_unit, '') = ${chain} and a.seq > ${afterSeq}
        order by coalesce(a.federative_unit, ''), a.seq
        limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    prevHash: row.prev_hash,
    hash: row.hash,
    createdAt: new Date(row.created_at),
    material: row.material,
  }));
}

/** The recorded head of every chain (or of one). */
export async function findChainHeads(
  db: Executor,
  chain?: string,
): Promise<Array<{ chain: string; seq: number; hash: string }>> {
  return db
    .select()
    .from(activityChainHeads)
    .where(chain === undefined ? undefined : eq(activityChainHeads.chain, chain))
    .orderBy(asc(activityChainHeads.chain));
}

/** Chains that have events but no head (a head deleted by hand). */
export async function findChainsWithoutHead(db: Executor): Promise<string[]> {
  const rows = await selectRows<{ chain: string }>(
    db,
    sql`select distinct coalesce(federative_unit, '') as chain from activity_log a
        where not exists (select 1 from activity_chain_heads h where h.chain = coalesce(a.federative_unit, ''))`,
  );
  return rows.map((row) => row.chain);
}

/* ------------------------------------------------------------------------ */
/* The web client's events                                                  */
/* ------------------------------------------------------------------------ */

/**
 * Takes the lock of `unit`'s chain head (the one each append takes) for the
 * rest of the transaction, creating the head of a new chain.
 */
export async function lockChain(db: Executor, unit: string | null): Promise<void> {
  const chain = chainOf(unit);
  await db.insert(activityChainHeads).values({ chain, seq: 0, hash: '' }).onConflictDoNothing();
  await db.execute(sql`select 1 from activity_chain_heads where chain = ${chain} for update`);
}

/** Which of `clientIds` the actor's events already have (lower-case). */
export async function findStoredClientIds(
  db: Executor,
  actorId: string,
  clientIds: string[],
): Promise<Set<string>> {
  if (clientIds.length === 0) return new Set();
  const rows = await db
    .select({ clientId: activityLog.clientId })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.actorId, actorId),
        inArray(
          activityLog.clientId,
          clientIds.map((id) => id.toLowerCase()),
        ),
      ),
    );
  return new Set(rows.map((row) => String(row.clientId).toLowerCase()));
}

export type WebEventRow = {
  clientId: string;
  type: 'page_view' | 'error' | 'stream_log';
  occurredAt: string;
  target?: string;
  details?: Record<string, unknown>;
  deviceId: string;
  appVersion: string;
};

export async function insertWebEvents(
  db: Executor,
  actor: { id: string; federativeUnit: string },
  events: WebEventRow[],
): Promise<void> {
  if (events.length === 0) return;
  await db.insert(activityLog).values(
    events.map((event) => ({
      type: event.type,
      actorId: actor.id,
      federativeUnit: actor.federativeUnit,
      payload: event.details ?? {},
      target: event.target ?? null,
      deviceId: event.deviceId,
      appVersion: event.appVersion,
      clientId: event.clientId,
      occurredAt: new Date(event.occurredAt),
    })),
  );
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

const unitChain = sql`coalesce(${activityLog.federativeUnit}, '')`;

function searchConditions(search: ActivitySearch): SQL | undefined {
  const conditions: Array<SQL | undefined> = [
    // The chain's expression: the (chain, seq) index serves the filter and the order.
    sql`${unitChain} = ${search.unit}`,
    search.types ? inArray(activityLog.type, [...search.types]) : undefined,
    search.actorId ? eq(activityLog.actorId, search.actorId) : undefined,
    search.start ? gte(activityLog.createdAt, search.start) : undefined,
    search.endExclusive ? lt(activityLog.createdAt, search.endExclusive) : undefined,
  ];
  if (search.actorText) {
    const pattern = `%${escapeLike(search.actorText)}%`;
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern.toLowerCase())));
  }
  if (search.targetText) {
    const pattern = `%${escapeLike(search.targetText)}%`;
    const byText = or(
      ilike(activityLog.target, pattern),
      ilike(sql`${activityLog.payload}::text`, pattern),
    );
    if (search.cpf) {
      // The person by CPF: events naming their pseudonym, their user account, their exams, or the CPF itself.
      const people = sql`select 'user:' || u.id::text from users u where u.cpf = ${search.cpf.digits} and u.federative_unit = ${search.unit}`;
      const ids = sql`select u.id::text from users u where u.cpf = ${search.cpf.digits} and u.federative_unit = ${search.unit}`;
      conditions.push(
        or(
          byText,
          eq(activityLog.target, search.cpf.target),
          sql`${activityLog.payload} ->> 'cpfPseudonym' = ${search.cpf.target.slice(4)}`,
          sql`${activityLog.target} in (${people})`,
          sql`${activityLog.target} in (select 'exam:' || e.scheduling_id from exams e where e.candidate_cpf = ${search.cpf.digits} and e.federative_unit = ${search.unit})`,
          sql`${activityLog.payload} -> 'userIds' ?| array(${ids})`,
          sql`${activityLog.payload} ->> 'userId' in (${ids})`,
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

/** One page, newest first (chain order: the last appended first). */
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
    .orderBy(desc(unitChain), desc(activityLog.seq))
    .limit(limit)
    .offset(offset);
}

/** The next slice of the export, newest first, before `beforeSeq`. */
export async function findActivitySlice(
  db: Executor,
  search: ActivitySearch,
  beforeSeq: number | undefined,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .select(rowColumns)
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorId))
    .where(
      and(
        searchConditions(search),
        beforeSeq === undefined ? undefined : lt(activityLog.seq, beforeSeq),
      ),
    )
    .orderBy(desc(unitChain), desc(activityLog.seq))
    .limit(limit);
}

export async function countActivity(db: Executor, search: ActivitySearch): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.actorId))
    .where(searchConditions(search));
  return row?.n ?? 0;
}
