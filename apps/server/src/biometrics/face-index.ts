/**
 * One-to-many face search ("Possíveis fraudes"): an in-process approximate
 * nearest-neighbour index (HNSW, nmslib's hnswlib through hnswlib-node) over
 * exam faces, re-ranked with the exact fused distance (faceDistance).
 *
 * Why HNSW in the process and not pgvector: the PostgreSQL servers we deploy
 * on do not all have the pgvector extension (this machine's PostgreSQL 15
 * does not; PGlite ships it), so one index works on both databases. The
 * database's table stays the source of truth: this index is a cache, rebuilt
 * from it, and holds no state of its own.
 *
 * The fused distance is (wa·‖Δfaceapi‖₂ + wm·(1 − cos(mobile)))/K (FUSION in
 * descriptor.ts), which no vector space reproduces exactly. The graph works
 * on a projection in hnswlib's 'l2' space, p = [α·faceapi, β·mobile/‖mobile‖]
 * with α = wa/K and β = √(T₀·wm/(2K)), T₀ = FRAUD_MATCH_THRESHOLD. With
 * x = wa·‖Δfaceapi‖/K and y = wm·(1 − cos)/K (so faceDistance = x + y) the
 * squared projected distance is x² + T₀·y: near the threshold both parts
 * weigh as in the fusion, and every pair at a fused distance T ≥ T₀ lies
 * within a projected distance T (below T₀, within √(T₀·T)). Neighbours in
 * the projection are thus neighbours in faceDistance, though not in the same
 * order: the search takes `candidates` neighbours from the graph (more while
 * the farthest of them is still a hit) and keeps those whose exact
 * faceDistance, on the stored templates, is under the threshold.
 *
 * Measured by bench/fraud.bench.ts (synthetic exam faces calibrated to the
 * fused distance; a shared 2-core machine, so times vary): the projection
 * ranks well (at 30 000 faces each exact top-10 under 0.69 was within the 35
 * nearest projected points); the graph is what misses. Some faces, mostly
 * early-inserted ones whose incoming links were pruned, are never reached,
 * and a larger efSearch barely helps. Entries under the threshold found:
 * m 16 / efConstruction 64, 328/340 at 100 000 faces (threshold 0.40); the
 * defaults m 32 / efConstruction 128, 359/359 at 10 000 and 362/363 at
 * 100 000 (0.43), at about three times the build time; m 12 /
 * efConstruction 40, only 51/74 at 1 000 000. A query took 2.3-4 ms at every
 * size; exactSearch 20, 82 and 827 ms at 10 000, 100 000 and 1 000 000.
 */
import hnswlib, { type HierarchicalNSW } from 'hnswlib-node';
import { FRAUD_MATCH_THRESHOLD } from '../config/fraud-threshold';
import {
  checkedDescriptor,
  FACE_API_DESCRIPTOR_LENGTH,
  DESCRIPTOR_LENGTH,
  FUSION,
  fusedDistance,
} from './descriptor';

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
};

export type FaceIndexHit = { key: string; distance: number };

export type FaceSearchOptions = {
  maxDistance: number;
  limit?: number;
  exclude?: (key: string) => boolean;
};

const WA = FUSION.faceApiWeight / FUSION.faceApiSd;
const WM = (1 - FUSION.faceApiWeight) / FUSION.mobileSd;
const K = WA * FUSION.faceApiMean + WM * FUSION.mobileMean;
const ALPHA = WA / K;
const BETA = Math.sqrt((FRAUD_MATCH_THRESHOLD * WM) / (2 * K));

/**
 * faceDistance of two checked combined templates, without its copies: the
 * same sums in the same order, so the same number (the index's hot loop).
 */
function templateDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < FACE_API_DESCRIPTOR_LENGTH; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = FACE_API_DESCRIPTOR_LENGTH; i < DESCRIPTOR_LENGTH; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return fusedDistance(Math.sqrt(sum), 1 - dot / Math.sqrt(Math.max(na * nb, 1e-24)), FUSION);
}

/** The point of a template in the graph's 'l2' space (see the header). */
function projection(template: ArrayLike<number>): number[] {
  const point = new Array<number>(DESCRIPTOR_LENGTH);
  let norm = 0;
  for (let i = FACE_API_DESCRIPTOR_LENGTH; i < DESCRIPTOR_LENGTH; i++) {
    norm += (template[i] ?? 0) ** 2;
  }
  const scale = norm > 0 ? BETA / Math.sqrt(norm) : 0;
  for (let i = 0; i < DESCRIPTOR_LENGTH; i++) {
    point[i] = (template[i] ?? 0) * (i < FACE_API_DESCRIPTOR_LENGTH ? ALPHA : scale);
  }
  return point;
}

/** Hits among `candidates` (closest first, at most `limit`). */
function hitsOf(
  candidates: Iterable<readonly [string, ArrayLike<number>]>,
  template: ArrayLike<number>,
  options: FaceSearchOptions,
): FaceIndexHit[] {
  const hits: FaceIndexHit[] = [];
  for (const [key, stored] of candidates) {
    const distance = templateDistance(template, stored);
    if (distance < options.maxDistance && !options.exclude?.(key)) hits.push({ key, distance });
  }
  hits.sort((a, b) => a.distance - b.distance || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return hits.slice(0, options.limit ?? 20);
}

/** The same answer as FaceIndex.search by brute force (the benchmark's and the tests' reference). */
export function exactSearch(
  entries: Iterable<readonly [string, ArrayLike<number>]>,
  template: ArrayLike<number>,
  options: FaceSearchOptions,
): FaceIndexHit[] {
  return hitsOf(entries, checkedDescriptor(template), options);
}

export class FaceIndex {
  private readonly graph: HierarchicalNSW;
  private readonly templates = new Map<string, { label: number; template: Float32Array }>();
  private readonly keys = new Map<number, string>();
  private readonly efSearch: number;
  private readonly candidates: number;
  private nextLabel = 0;
  /** Slots marked deleted, which the next insertions reuse. */
  private deleted = 0;

  constructor(options: FaceIndexOptions = {}) {
    this.efSearch = options.efSearch ?? 256;
    this.candidates = options.candidates ?? 64;
    this.graph = new hnswlib.HierarchicalNSW('l2', DESCRIPTOR_LENGTH);
    this.graph.initIndex({
      maxElements: Math.max(16, options.initialCapacity ?? 1024),
      m: options.m ?? 32,
      efConstruction: options.efConstruction ?? 128,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
    this.graph.setEf(this.efSearch);
  }

  /** Live entries. */
  get size(): number {
    return this.templates.size;
  }

  /** Slots allocated in the graph (live, deleted and free). */
  get capacity(): number {
    return this.graph.getMaxElements();
  }

  /** The live entries and their stored templates. */
  *entries(): IterableIterator<readonly [string, Float32Array]> {
    for (const [key, entry] of this.templates) yield [key, entry.template];
  }

  has(key: string): boolean {
    return this.templates.has(key);
  }

  /** Adds or replaces the face of `key` (a DESCRIPTOR_LENGTH combined template, checked with checkedDescriptor). */
  upsert(key: string, template: ArrayLike<number>): void {
    const stored = Float32Array.from(checkedDescriptor(template));
    const point = projection(stored);
    const existing = this.templates.get(key);
    if (existing) {
      this.graph.addPoint(point, existing.label);
      existing.template = stored;
      return;
    }
    const label = this.nextLabel++;
    if (this.deleted > 0) {
      this.graph.addPoint(point, label, true);
      this.deleted -= 1;
    } else {
      const max = this.graph.getMaxElements();
      if (this.graph.getCurrentCount() >= max) this.graph.resizeIndex(max * 2);
      this.graph.addPoint(point, label);
    }
    this.templates.set(key, { label, template: stored });
    this.keys.set(label, key);
  }

  remove(key: string): boolean {
    const entry = this.templates.get(key);
    if (!entry) return false;
    this.graph.markDelete(entry.label);
    this.templates.delete(key);
    this.keys.delete(entry.label);
    this.deleted += 1;
    return true;
  }

  /**
   * Entries whose faceDistance to `template` is below `maxDistance`, closest
   * first, at most `limit` (default 20); `exclude` drops keys (e.g. the
   * query's own exam) before the limit. Candidates come from the HNSW graph
   * on a projection of the template, then are re-ranked with the exact
   * faceDistance on the stored templates.
   */
  search(template: ArrayLike<number>, options: FaceSearchOptions): FaceIndexHit[] {
    const query = Float32Array.from(checkedDescriptor(template));
    if (this.templates.size === 0) return [];
    const point = projection(query);
    const limit = options.limit ?? 20;
    let k = Math.min(this.templates.size, Math.max(this.candidates, 4 * limit));
    for (;;) {
      this.graph.setEf(Math.max(this.efSearch, k));
      const { neighbors } = this.graph.searchKnn(point, k);
      const found: Array<readonly [string, Float32Array]> = [];
      for (const label of neighbors) {
        const key = this.keys.get(label);
        const entry = key === undefined ? undefined : this.templates.get(key);
        if (key !== undefined && entry) found.push([key, entry.template]);
      }
      const hits = hitsOf(found, query, { ...options, limit });
      // While the farthest candidate is still closer than the hits kept, the
      // graph may hold more beyond it: ask for four times as many.
      const last = found.at(-1);
      const bound = hits.length >= limit ? (hits.at(-1)?.distance ?? 0) : options.maxDistance;
      if (
        !last ||
        neighbors.length < k ||
        k >= this.templates.size ||
        templateDistance(query, last[1]) >= bound
      ) {
        return hits;
      }
      k = Math.min(this.templates.size, k * 4);
    }
  }
}
