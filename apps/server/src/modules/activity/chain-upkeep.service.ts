/**
 * Upkeep of the activity log's chains, run by the scheduled jobs:
 * - the browser's events (page views, errors, stream logs) are kept for a
 *   period of their own (ACTIVITY_WEB_RETENTION_DAYS), then dropped from the
 *   start of their chains (`<unit>/web`), which still check out from where
 *   they now begin; the server's events are never dropped;
 * - every chain's head (number and hash of its last event) is written to the
 *   server log now and then: kept apart from the database (log collector,
 *   Prometheus through /metrics), it shows a chain that was rewritten or cut
 *   short since, even when the rewrite went round the database's guards.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { ChainAnchor } from './activity-chain';
import { insertActivity } from './activity.repository';
import { dropWebEventsBefore, findChainHeads, unitOfChain } from './activity-chain.repository';

const DAY_MS = 86_400_000;

/** Drops the browser events recorded more than `days` ago; returns how many per unit. */
export async function purgeBrowserEvents(
  deps: { db: Database },
  days: number,
  now: Date = new Date(),
): Promise<Record<string, number>> {
  const before = new Date(now.getTime() - days * DAY_MS);
  return deps.db.transaction(async (tx) => {
    const dropped = await dropWebEventsBefore(tx, before);
    const byUnit: Record<string, number> = {};
    for (const [chain, count] of Object.entries(dropped)) {
      const unit = unitOfChain(chain);
      byUnit[unit ?? ''] = count;
      // Recorded in the unit's server chain: the drop itself is evidence too.
      await insertActivity(tx, {
        type: 'retention_purge',
        actorId: null,
        federativeUnit: unit,
        payload: { browserEvents: count, retentionDays: days },
      });
    }
    return byUnit;
  });
}

/** Every chain's head: its name, the number of its last event and that event's hash. */
export async function chainAnchors(db: Database): Promise<ChainAnchor[]> {
  return (await findChainHeads(db)).map(({ chain, seq, hash }) => ({ chain, seq, hash }));
}

/** Every chain's head, written to the log as an anchor; returns them. */
export async function logChainAnchors(deps: {
  db: Database;
  log: FastifyBaseLogger;
}): Promise<ChainAnchor[]> {
  const anchors = await chainAnchors(deps.db);
  for (const anchor of anchors) {
    deps.log.info({ activityChainAnchor: anchor }, 'âncora da cadeia de atividades');
  }
  return anchors;
}
