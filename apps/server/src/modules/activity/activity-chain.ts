/**
 * Checks a hash chain: events numbered 1, 2, 3… with no gap (from the one
 * after the last that retention dropped, for the browser's chains), each
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
  findEventHash,
  findChainsWithoutHead,
  readChainSlice,
  unitOfChain,
  webChainOf,
} from './activity-chain.repository';

export type BrokenLink = {
  id: string | null;
  seq: number;
  createdAt: string | null;
  reason: string;
};

export type ChainReport = { ok: boolean; checked: number; firstBroken: BrokenLink | null };

const SLICE = 2000;

/** Checks one chain, named by its unit (its server events) or by its full name. */
export async function verifyChain(db: Executor, unitOrChain: string | null): Promise<ChainReport> {
  const chain = chainOf(unitOrChain);
  const [start] = await findChainHeads(db, chain);
  const base = start?.baseSeq ?? 0;
  let checked = 0;
  let expectedSeq = base + 1;
  let prev: string | null = base > 0 ? start!.baseHash : null;
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
  const lastSeq = expectedSeq - 1;
  if (headSeq !== lastSeq || (head && head.hash !== (prev ?? ''))) {
    return {
      ok: false,
      checked,
      firstBroken: {
        id: null,
        seq: lastSeq + 1,
        createdAt: null,
        reason: `o último evento registrado da cadeia é o nº ${headSeq}, encontrado o nº ${lastSeq}`,
      },
    };
  }
  return { ok: true, checked, firstBroken: null };
}

/** A unit's two chains, its server events' and its browser events', as one report. */
export async function verifyUnitChains(db: Executor, unit: string): Promise<ChainReport> {
  const server = await verifyChain(db, chainOf(unit));
  if (!server.ok) return server;
  const web = await verifyChain(db, webChainOf(unit));
  return { ...web, checked: server.checked + web.checked };
}

export type UnitChainReport = ChainReport & {
  /** The chain: the unit, '' for the events of no unit, `<unit>/web` for its browser events. */
  chain: string;
  /** The unit, or null for the events of no unit. */
  unit: string | null;
  /** The hash of the chain's last event ('' when empty): kept apart, it shows a rewritten chain. */
  headHash: string;
};

/**
 * A chain's head as someone kept it outside the database (the log's and
 * /metrics' anchors): the chain must still hold that event with that hash.
 */
export type ChainAnchor = { chain: string; seq: number; hash: string };

/** `<chain>:<seq>:<hash>`, as `npm run activity:verify -- --anchor` takes it. */
export function parseAnchor(text: string): ChainAnchor | null {
  const match = /^(.*):(\d{1,15}):([0-9a-f]{64})$/i.exec(text.trim());
  if (!match) return null;
  return { chain: match[1]!, seq: Number(match[2]), hash: match[3]!.toLowerCase() };
}

/** Why the chain no longer matches the anchor, or null when it does. */
async function anchorMismatch(db: Executor, anchor: ChainAnchor): Promise<string | null> {
  const [head] = await findChainHeads(db, anchor.chain);
  if (!head || head.seq < anchor.seq) {
    return `a âncora guardada nomeia o evento nº ${anchor.seq}, mas a cadeia termina no nº ${head?.seq ?? 0}`;
  }
  // Dropped by the browser events' retention: only the last one dropped is still known.
  if (anchor.seq < head.baseSeq) return null;
  const hash =
    anchor.seq === head.baseSeq ? head.baseHash : await findEventHash(db, anchor.chain, anchor.seq);
  return hash === anchor.hash
    ? null
    : `o evento nº ${anchor.seq} não tem mais o hash da âncora guardada (a cadeia foi reescrita)`;
}

/**
 * Every chain of the database: each unit's, its browser events', and the one
 * of events with no unit; each checked also against the anchors given.
 */
export async function verifyAllChains(
  db: Executor,
  anchors: readonly ChainAnchor[] = [],
): Promise<UnitChainReport[]> {
  const chains = new Set((await findChainHeads(db)).map((head) => head.chain));
  for (const chain of await findChainsWithoutHead(db)) chains.add(chain);
  for (const anchor of anchors) chains.add(anchor.chain);
  const reports: UnitChainReport[] = [];
  for (const chain of [...chains].sort()) {
    let report = await verifyChain(db, chain);
    for (const anchor of anchors.filter((candidate) => candidate.chain === chain)) {
      const reason = report.ok ? await anchorMismatch(db, anchor) : null;
      if (reason) {
        report = {
          ok: false,
          checked: report.checked,
          firstBroken: { id: null, seq: anchor.seq, createdAt: null, reason },
        };
      }
    }
    const [head] = await findChainHeads(db, chain);
    reports.push({ chain, unit: unitOfChain(chain), headHash: head?.hash ?? '', ...report });
  }
  return reports;
}
