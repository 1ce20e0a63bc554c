/**
 * The distances of the one-to-many face search (face-index.ts): the fused
 * distance of two stored templates without copies, its early-exit form for
 * the scan, the graph's projection, and the brute force every search is
 * checked against.
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
 */
import { FRAUD_MATCH_THRESHOLD } from '../config/fraud-threshold';
import {
  checkedDescriptor,
  DESCRIPTOR_LENGTH,
  FACE_API_DESCRIPTOR_LENGTH,
  FUSION,
  fusedDistance,
} from './descriptor';

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

/** The squared face-api distance at which its part alone reaches `maxDistance` on the fused scale. */
export function faceApiLimitOf(maxDistance: number): number {
  return ((maxDistance * K) / WA) ** 2;
}

/**
 * faceDistance of two checked combined templates, without its copies: the
 * same sums in the same order, so the same number (the index's hot loop).
 */
export function templateDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
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

export function mobileSquares(template: ArrayLike<number>): number {
  let squares = 0;
  for (let i = FACE_API_DESCRIPTOR_LENGTH; i < DESCRIPTOR_LENGTH; i++) {
    const x = template[i] ?? 0;
    squares += x * x;
  }
  return squares;
}

/**
 * templateDistance of the query and the face at `offset` of `block` when it
 * is under `bound`, else Infinity: the face-api sum only grows, so once its
 * part alone reaches the bound the rest is not read (an impostor's face-api
 * part alone is about 0.57 on the fused scale, above any one-to-many
 * threshold). The sums run in templateDistance's order: a distance returned
 * is the same number.
 */
export function boundedDistance(
  query: Float32Array,
  querySquares: number,
  block: Float32Array,
  offset: number,
  storedSquares: number,
  faceApiLimit: number,
): number {
  let sum = 0;
  for (let start = 0; start < FACE_API_DESCRIPTOR_LENGTH; start += 32) {
    for (let i = start; i < start + 32; i++) {
      const d = query[i]! - block[offset + i]!;
      sum += d * d;
    }
    if (sum >= faceApiLimit) return Number.POSITIVE_INFINITY;
  }
  let dot = 0;
  for (let i = FACE_API_DESCRIPTOR_LENGTH; i < DESCRIPTOR_LENGTH; i++) {
    dot += query[i]! * block[offset + i]!;
  }
  const cosine = 1 - dot / Math.sqrt(Math.max(querySquares * storedSquares, 1e-24));
  return fusedDistance(Math.sqrt(sum), cosine, FUSION);
}

/** The point of a template in the graph's 'l2' space (see the header). */
export function projection(template: ArrayLike<number>): number[] {
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
export function hitsOf(
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
