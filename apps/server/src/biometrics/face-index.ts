/**
 * One-to-many face search ("Possíveis fraudes") over a unit's exam faces, in
 * the process: up to EXACT_SEARCH_UP_TO faces every face is read (a scan of
 * one contiguous block, most impostors ruled out on part of face-api's
 * numbers, so every match is found and nothing is built at start); past it,
 * an approximate nearest-neighbour graph (HNSW, nmslib's hnswlib through
 * hnswlib-node) is built from them and used, its candidates re-ranked with
 * the exact fused distance (faceDistance).
 *
 * Why in the process and not pgvector: the PostgreSQL servers we deploy on
 * do not all have the pgvector extension (this machine's PostgreSQL 15 does
 * not; PGlite ships it), so one index works on both databases. The
 * database's table stays the source of truth: this index is a cache, rebuilt
 * from it, and holds no state of its own.
 *
 * Why the scan first: measured by bench/fraud.bench.ts (synthetic exam faces
 * calibrated to the fused distance), the graph answers in a few milliseconds
 * at any size but misses matches as it grows and takes minutes to build,
 * one insertion at a time (figures in docs/benchmarks.md), while the scan
 * finds every match in tens of milliseconds at a large unit's window. A
 * unit's search never crosses units, so the largest index is the largest
 * state's window, not the country's.
 *
 * The graph works on a projection of the template (face-search-distance.ts).
 * The graph, measured (bench/fraud.bench.ts): the projection ranks well (at
 * 30 000 faces each exact top-10 under 0.69 was within the 35 nearest
 * projected points); the graph is what misses. Some faces, mostly early
 * inserted ones whose incoming links were pruned, are never reached, and a
 * larger efSearch barely helps: with the defaults (m 32, efConstruction
 * 128) it found 362 of 363 entries under the threshold at 100 000 faces; at
 * m 12 / efConstruction 40, 51 of 74 at 1 000 000.
 */
import hnswlib, { type HierarchicalNSW } from 'hnswlib-node';
import { checkedDescriptor, DESCRIPTOR_LENGTH } from './descriptor';
import {
  boundedDistance,
  faceApiLimitOf,
  hitsOf,
  mobileSquares,
  projection,
  templateDistance,
  type FaceIndexHit,
  type FaceSearchOptions,
} from './face-search-distance';

export { exactSearch, type FaceIndexHit, type FaceSearchOptions } from './face-search-distance';

export type FaceIndexOptions = {
  /** Links per node of the graph (hnswlib's M). */
  m?: number;
  /** Candidate list while inserting: a better graph, a slower build. */
  efConstruction?: number;
  /** Candidate list while searching (at least the number of candidates asked for). */
  efSearch?: number;
  /** Slots allocated up front; the index doubles them when full. */
  initialCapacity?: number;
  /** Neighbours taken from the graph for the exact re-rank (at least 4 × limit). */
  candidates?: number;
  /**
   * Up to this many faces the search reads every one (exact, with early
   * exit: see boundedDistance) and no graph is built; past it the graph is
   * built from them and used (EXACT_SEARCH_UP_TO).
   */
  exactUpTo?: number;
};

/**
 * Faces a search reads one by one before the graph takes over. Measured by
 * bench/fraud.bench.ts on this 2-core machine (loaded by a test run at the
 * time): a search at the threshold read 10 000 faces in 3.8 ms, 100 000 in
 * 41 ms and 1 000 000 in 531 ms (p50), with the same answers as the brute
 * force every time, and nothing to build; so a unit's 180-day window of
 * 300 000 exams (1 600 a day) costs about a tenth of a second per exam read.
 * The graph answers in 2-4 ms at any size but missed 1 of 363 matches at
 * 100 000 faces and 23 of 74 at 1 000 000 (with the settings that build in
 * 14 minutes there), so it takes over only where the scan would grow slow.
 */
export const EXACT_SEARCH_UP_TO = 300_000;

/** Faces a yielding scan reads between two turns of the event loop (a few milliseconds). */
const SCAN_CHUNK = 16_384;

/** A face held: its graph label and its slot in the contiguous block the scan reads. */
type Stored = { label: number; slot: number };

export class FaceIndex {
  /** Built once the index holds more than exactUpTo faces; until then every face is read. */
  private graph: HierarchicalNSW | null = null;
  private readonly stored = new Map<string, Stored>();
  private readonly keys = new Map<number, string>();
  /** Every face's template one after another (slot × DESCRIPTOR_LENGTH): what the scan reads. */
  private block = new Float32Array(0);
  /** The sum of squares of each slot's MobileFaceNet part. */
  private squares = new Float64Array(0);
  private readonly slotKeys: string[] = [];
  private readonly options: Required<Omit<FaceIndexOptions, 'initialCapacity'>> & {
    initialCapacity: number;
  };
  private nextLabel = 0;
  /** Graph slots marked deleted, which the next insertions reuse. */
  private deleted = 0;

  constructor(options: FaceIndexOptions = {}) {
    this.options = {
      m: options.m ?? 32,
      efConstruction: options.efConstruction ?? 128,
      efSearch: options.efSearch ?? 256,
      candidates: options.candidates ?? 64,
      exactUpTo: options.exactUpTo ?? EXACT_SEARCH_UP_TO,
      initialCapacity: Math.max(16, options.initialCapacity ?? 1024),
    };
  }

  /** Live entries. */
  get size(): number {
    return this.slotKeys.length;
  }

  /** Slots allocated in the graph (live, deleted and free); 0 while no graph is built. */
  get capacity(): number {
    return this.graph?.getMaxElements() ?? 0;
  }

  /** Whether searches go through the graph (more than exactUpTo faces) or read every face. */
  get approximate(): boolean {
    return this.graph !== null;
  }

  private templateAt(slot: number): Float32Array {
    return this.block.subarray(slot * DESCRIPTOR_LENGTH, (slot + 1) * DESCRIPTOR_LENGTH);
  }

  /** The live entries and their stored templates. */
  *entries(): IterableIterator<readonly [string, Float32Array]> {
    for (let slot = 0; slot < this.slotKeys.length; slot++) {
      yield [this.slotKeys[slot]!, this.templateAt(slot)];
    }
  }

  has(key: string): boolean {
    return this.stored.has(key);
  }

  /** The graph of every face held, built when the index outgrows exactUpTo. */
  private buildGraph(): HierarchicalNSW {
    const graph = new hnswlib.HierarchicalNSW('l2', DESCRIPTOR_LENGTH);
    graph.initIndex({
      maxElements: Math.max(this.options.initialCapacity, this.size * 2),
      m: this.options.m,
      efConstruction: this.options.efConstruction,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
    graph.setEf(this.options.efSearch);
    for (const entry of this.stored.values()) {
      graph.addPoint(projection(this.templateAt(entry.slot)), entry.label);
    }
    this.deleted = 0;
    return graph;
  }

  /** Writes a template into a slot of the block, growing the block when full. */
  private place(slot: number, template: Float32Array): void {
    if ((slot + 1) * DESCRIPTOR_LENGTH > this.block.length) {
      const slots = Math.max(this.options.initialCapacity, slot * 2);
      const block = new Float32Array(slots * DESCRIPTOR_LENGTH);
      block.set(this.block);
      const squares = new Float64Array(slots);
      squares.set(this.squares);
      this.block = block;
      this.squares = squares;
    }
    this.block.set(template, slot * DESCRIPTOR_LENGTH);
    this.squares[slot] = mobileSquares(template);
  }

  /** Adds or replaces the face of `key` (a DESCRIPTOR_LENGTH combined template, checked with checkedDescriptor). */
  upsert(key: string, template: ArrayLike<number>): void {
    const checked = Float32Array.from(checkedDescriptor(template));
    const existing = this.stored.get(key);
    const entry: Stored = existing ?? {
      label: this.nextLabel++,
      slot: this.slotKeys.length,
    };
    this.place(entry.slot, checked);
    if (!existing) {
      this.stored.set(key, entry);
      this.keys.set(entry.label, key);
      this.slotKeys.push(key);
    }
    if (!this.graph) {
      if (this.size > this.options.exactUpTo) this.graph = this.buildGraph();
      return;
    }
    const point = projection(checked);
    if (existing) {
      this.graph.addPoint(point, entry.label);
    } else if (this.deleted > 0) {
      this.graph.addPoint(point, entry.label, true);
      this.deleted -= 1;
    } else {
      const max = this.graph.getMaxElements();
      if (this.graph.getCurrentCount() >= max) this.graph.resizeIndex(max * 2);
      this.graph.addPoint(point, entry.label);
    }
  }

  remove(key: string): boolean {
    const entry = this.stored.get(key);
    if (!entry) return false;
    if (this.graph) {
      this.graph.markDelete(entry.label);
      this.deleted += 1;
    }
    // The last slot moves into the freed one: the block stays without holes.
    const last = this.slotKeys.length - 1;
    const movedKey = this.slotKeys[last]!;
    if (entry.slot !== last) {
      this.place(entry.slot, this.templateAt(last).slice());
      this.slotKeys[entry.slot] = movedKey;
      this.stored.get(movedKey)!.slot = entry.slot;
    }
    this.slotKeys.pop();
    this.stored.delete(key);
    this.keys.delete(entry.label);
    return true;
  }

  /**
   * Entries whose faceDistance to `template` is below `maxDistance`, closest
   * first, at most `limit` (default 20); `exclude` drops keys (e.g. the
   * query's own exam) before the limit. Up to exactUpTo faces, every one is
   * read (boundedDistance); past it, candidates come from the HNSW graph on
   * a projection of the template and are re-ranked with the exact distance.
   */
  search(template: ArrayLike<number>, options: FaceSearchOptions): FaceIndexHit[] {
    const query = Float32Array.from(checkedDescriptor(template));
    if (this.size === 0) return [];
    return this.graph ? this.graphSearch(this.graph, query, options) : this.scan(query, options);
  }

  /**
   * search() that gives the event loop a turn every SCAN_CHUNK faces while
   * it reads them all (a large unit's scan takes tens of milliseconds; the
   * API's requests of this process go on meanwhile). The caller keeps the
   * index unchanged until it ends (UnitFaceIndexes runs it in the unit's queue).
   */
  async searchYielding(
    template: ArrayLike<number>,
    options: FaceSearchOptions,
  ): Promise<FaceIndexHit[]> {
    const query = Float32Array.from(checkedDescriptor(template));
    if (this.graph || this.size <= SCAN_CHUNK) return this.search(query, options);
    const scan = this.scanning(query, options);
    for (let from = 0; from < this.size; from += SCAN_CHUNK) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      scan.read(from, Math.min(this.size, from + SCAN_CHUNK));
    }
    return scan.hits();
  }

  /** Every face read, most ruled out early; the same hits as exactSearch. */
  private scan(query: Float32Array, options: FaceSearchOptions): FaceIndexHit[] {
    const scan = this.scanning(query, options);
    scan.read(0, this.size);
    return scan.hits();
  }

  /** A scan in steps: `read` a range of slots, then the `hits`, closest first. */
  private scanning(query: Float32Array, options: FaceSearchOptions) {
    const querySquares = mobileSquares(query);
    // The squared face-api distance at which its part alone reaches maxDistance.
    const faceApiLimit = faceApiLimitOf(options.maxDistance);
    const found: FaceIndexHit[] = [];
    return {
      read: (from: number, to: number) => {
        const { block, squares, slotKeys } = this;
        for (let slot = from; slot < to; slot++) {
          const distance = boundedDistance(
            query,
            querySquares,
            block,
            slot * DESCRIPTOR_LENGTH,
            squares[slot]!,
            faceApiLimit,
          );
          if (distance >= options.maxDistance) continue;
          const key = slotKeys[slot]!;
          if (!options.exclude?.(key)) found.push({ key, distance });
        }
      },
      hits: () => {
        found.sort(
          (a, b) => a.distance - b.distance || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
        );
        return found.slice(0, options.limit ?? 20);
      },
    };
  }

  private graphSearch(
    graph: HierarchicalNSW,
    query: Float32Array,
    options: FaceSearchOptions,
  ): FaceIndexHit[] {
    const point = projection(query);
    const limit = options.limit ?? 20;
    let k = Math.min(this.size, Math.max(this.options.candidates, 4 * limit));
    for (;;) {
      graph.setEf(Math.max(this.options.efSearch, k));
      const { neighbors } = graph.searchKnn(point, k);
      const found: Array<readonly [string, Float32Array]> = [];
      for (const label of neighbors) {
        const key = this.keys.get(label);
        const entry = key === undefined ? undefined : this.stored.get(key);
        if (key !== undefined && entry) found.push([key, this.templateAt(entry.slot)]);
      }
      const hits = hitsOf(found, query, { ...options, limit });
      // While the farthest candidate is still closer than the hits kept, the
      // graph may hold more beyond it: ask for four times as many.
      const last = found.at(-1);
      const bound = hits.length >= limit ? (hits.at(-1)?.distance ?? 0) : options.maxDistance;
      if (
        !last ||
        neighbors.length < k ||
        k >= this.size ||
        templateDistance(query, last[1]) >= bound
      ) {
        return hits;
      }
      k = Math.min(this.size, k * 4);
    }
  }
}
