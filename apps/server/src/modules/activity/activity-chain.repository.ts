/**
 * SQL of the activity log's hash chains. Each event is appended to its chain
 * by the database itself (triggers of migrations 0017 and 0021), whatever code
 * inserts it: a unit's server events form the chain named by the unit ('' for
 * events with no unit), the browser's events the chain `<unit>/web`. Chains
 * are read back and checked in activity-chain.ts; the browser chains lose
 * their oldest events to retention here.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, like, lt, lte, max, sql } from 'drizzle-orm';
import { deleteRows, type Executor } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { activityChainHeads, activityLog } from '../../db/schema/index';

const WEB_SUFFIX = '/web';

/** The chain of a unit's server events is named by the unit; events with no unit form the chain ''. */
export function chainOf(unit: string | null): string {
  return unit ?? '';
}

/** The chain of a unit's browser events. */
export function webChainOf(unit: string | null): string {
  return `${chainOf(unit)}${WEB_SUFFIX}`;
}

/** The unit a chain belongs to (null for the events of no unit). */
export function unitOfChain(chain: string): string | null {
  const unit = chain.endsWith(WEB_SUFFIX) ? chain.slice(0, -WEB_SUFFIX.length) : chain;
  return unit === '' ? null : unit;
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
        where a.chain = ${chain} and a.seq > ${afterSeq}
        order by a.chain, a.seq
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

export type ChainHead = {
  chain: string;
  seq: number;
  hash: string;
  /** The last event retention dropped from the chain's start (0 and '' when none). */
  baseSeq: number;
  baseHash: string;
};

/** The recorded head of every chain (or of one). */
export async function findChainHeads(db: Executor, chain?: string): Promise<ChainHead[]> {
  return db
    .select()
    .from(activityChainHeads)
    .where(chain === undefined ? undefined : eq(activityChainHeads.chain, chain))
    .orderBy(asc(activityChainHeads.chain));
}

/** The hash of event `seq` of `chain`, if the chain has it. */
export async function findEventHash(
  db: Executor,
  chain: string,
  seq: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ hash: activityLog.hash })
    .from(activityLog)
    .where(and(eq(activityLog.chain, chain), eq(activityLog.seq, seq)));
  return row?.hash;
}

/** Chains that have events but no head (a head deleted by hand). */
export async function findChainsWithoutHead(db: Executor): Promise<string[]> {
  const rows = await selectRows<{ chain: string }>(
    db,
    sql`select distinct a.chain from activity_log a
        where not exists (select 1 from activity_chain_heads h where h.chain = a.chain)`,
  );
  return rows.map((row) => row.chain);
}

/**
 * Takes the lock of `chain`'s head (the one each append takes) for the rest
 * of the transaction, creating the head of a new chain. A chain's head is
 * there from its first event on: one statement locks it; only a new chain
 * adds it first (and waits, through ON CONFLICT, for another transaction
 * adding the same).
 */
export async function lockChain(db: Executor, chain: string): Promise<void> {
  const lock = sql`select 1 as locked from activity_chain_heads where chain = ${chain} for update`;
  if ((await selectRows(db, lock)).length > 0) return;
  await db.insert(activityChainHeads).values({ chain, seq: 0, hash: '' }).onConflictDoNothing();
  await db.execute(lock);
}

/**
 * Retention of browser events: in each browser chain, the events up to the
 * last one recorded before `before` are deleted, and the chain's head records
 * the last of them as its new start (the guard of migration 0021 deletes only
 * what the head already counts as dropped). Returns how many were deleted
 * per chain (chains with none left out).
 */
export async function dropWebEventsBefore(
  db: Executor,
  before: Date,
): Promise<Record<string, number>> {
  const ends = await db
    .select({ chain: activityLog.chain, seq: max(activityLog.seq) })
    .from(activityLog)
    .where(and(like(activityLog.chain, `%${WEB_SUFFIX}`), lt(activityLog.createdAt, before)))
    .groupBy(activityLog.chain);
  const dropped: Record<string, number> = {};
  for (const end of ends) {
    if (end.seq === null) continue;
    const seq = Number(end.seq);
    await lockChain(db, end.chain);
    const hash = await findEventHash(db, end.chain, seq);
    if (hash === undefined) continue;
    await db
      .update(activityChainHeads)
      .set({ baseSeq: seq, baseHash: hash })
      .where(and(eq(activityChainHeads.chain, end.chain), lt(activityChainHeads.baseSeq, seq)));
    const count = await deleteRows(
      db,
      activityLog,
      and(eq(activityLog.chain, end.chain), lte(activityLog.seq, seq)),
    );
    if (count > 0) dropped[end.chain] = count;
  }
  return dropped;
}
