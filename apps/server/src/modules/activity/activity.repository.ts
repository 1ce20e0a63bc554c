/**
 * The activity log: who did what, written in the same transaction as the
 * change it records. Each event is appended to its unit's hash chain by the
 * database itself (trigger of migration 0017), whatever code inserts it; the
 * chain is read back and checked here (`readChainSlice`, activity-chain.ts).
 */
import { createHash } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { selectRows, type Database, type Executor } from '../../db/client';
import { activityChainHeads, activityLog } from '../../db/schema/index';

export type ActivityType =
  | 'user_add'
  | 'user_enable'
  | 'user_disable'
  | 'user_role_change'
  | 'password_set'
  | 'local_add'
  | 'local_update'
  | 'local_deactivate'
  | 'reason_add'
  | 'reason_update'
  | 'reason_deactivate'
  | 'api_key_create'
  | 'api_key_revoke'
  | 'exam_import'
  | 'photo_view'
  | 'biometric_enrol'
  | 'biometric_template_upgrade'
  | 'face_image_view'
  | 'cpf_view'
  | 'retention_purge'
  | 'checkin_open'
  | 'checkin_update'
  | 'checkin_close'
  | 'checkin_force_close'
  | 'room_add'
  | 'room_update'
  | 'room_action'
  | 'room_occurrence'
  | 'load_audit'
  | 'release_audit'
  | 'reopen_audit'
  | 'photo_mark'
  | 'certificate_issue'
  | 'certificate_revoke'
  | 'demo_candidate_add'
  | 'demo_consent'
  | 'demo_wipe'
  | 'load_exam'
  | 'stream_log'
  | 'page_view'
  | 'error'
  | 'examiner_transfered'
  | 'send_result';

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
