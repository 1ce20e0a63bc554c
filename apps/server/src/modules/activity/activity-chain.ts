/**
 * Checks a unit's hash chain: events numbered 1, 2, 3… with no gap, each
 * naming the hash of the one before, each hash recomputed here (Node's
 * SHA-256 over what the database serialises) and equal to the stored one, and
 * the last one equal to the chain's recorded head (a deleted tail shows).
 * Reports the first broken link. Reads in slices, so a long chain is checked
 * in constant memory.
 */
import type { Executor } from '../../db/client';
import {
  chainOf,
  eventHash,
  findChainHeads,
  findChainsWithoutHead,
  readChainSlice,
} from './activity.repository';

export type BrokenLink = {
  id: string | null;
  seq: number;
  createdAt: string | null;
  reason: string;
};

export type ChainReport = { ok: boolean; checked: number; firstBroken: BrokenLink | null };

const SLICE = 2000;

export async function verifyChain(db: Executor, unit: string | null): Promise<ChainReport> {
  const chain = chainOf(unit);
  let checked = 0;
  let expectedSeq = 1;
  let prev: string | null = null;
  for (;;) {
    const links = await readChainSlice(db, chain, expectedSeq - 1, SLICE);
    for (const link of links) {
      const broken = (reason: string): ChainReport => ({
        ok: false,
        checked,
        firstBroken: {
          id: link.id,
          seq: link.seq,
          createdAt: link.createdAt.toISOString(),
          reason,
        },
      });
      if (link.seq !== expectedSeq) {
        return broken(
          `evento(s) ausente(s): esperado nº ${expectedSeq}, encontrado nº ${link.seq}`,
        );
      }
      if (link.prevHash !== prev) {
        return broken('o hash anterior registrado não é o do evento anterior');
      }
      if (eventHash(prev, link.material) !== link.hash) {
        return broken('o conteúdo do evento não confere com o hash registrado');
      }
      checked += 1;
      expectedSeq += 1;
      prev = link.hash;
    }
    if (links.length < SLICE) break;
  }
  const [head] = await findChainHeads(db, chain);
  const headSeq = head?.seq ?? 0;
  if (headSeq !== checked || (head && head.hash !== (prev ?? ''))) {
    return {
      ok: false,
      checked,
      firstBroken: {
        id: null,
        seq: checked + 1,
        createdAt: null,
        reason: `o último evento registrado da cadeia é o nº ${headSeq}, encontrado o nº ${checked}`,
      },
    };
  }
  return { ok: true, checked, firstBroken: null };
}

export type UnitChainReport = ChainReport & {
  /** The unit, or null for the events of no unit. */
  unit: string | null;
  /** The hash of the chain's last event ('' when empty): kept apart, it shows a rewritten chain. */
  headHash: string;
};

/** Every chain of the database: each unit's, and the one of events with no unit. */
export async function verifyAllChains(db: Executor): Promise<UnitChainReport[]> {
  const chains = new Set((await findChainHeads(db)).map((head) => head.chain));
  for (const chain of await findChainsWithoutHead(db)) chains.add(chain);
  const reports: UnitChainReport[] = [];
  for (const chain of [...chains].sort()) {
    const unit = chain === '' ? null : chain;
    const report = await verifyChain(db, unit);
    const [head] = await findChainHeads(db, chain);
    reports.push({ unit, headHash: head?.hash ?? '', ...report });
  }
  return reports;
}
