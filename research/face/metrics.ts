/**
 * Error rates of a verifier from genuine and impostor distances (match when
 * distance < threshold). A failure to acquire a face is passed in as
 * Infinity: a non-match for a genuine pair, a correct rejection for an
 * impostor pair, as the benchmark's rules ask.
 */

export type Rates = { threshold: number; fnmr: number; fmr: number };

export function ratesAt(genuine: number[], impostor: number[], threshold: number): Rates {
  const fnmr = genuine.filter((d) => !(d < threshold)).length / Math.max(1, genuine.length);
  const fmr = impostor.filter((d) => d < threshold).length / Math.max(1, impostor.length);
  return { threshold, fnmr, fmr };
}

/** Thresholds worth testing: midway between neighbouring observed distances. */
function candidateThresholds(genuine: number[], impostor: number[]): number[] {
  const values = [...new Set([...genuine, ...impostor].filter(Number.isFinite))].sort(
    (x, y) => x - y,
  );
  if (values.length === 0) return [0];
  const first = values[0] ?? 0;
  const candidates = [first - 1e-6];
  for (let i = 0; i < values.length; i++) {
    const here = values[i] ?? 0;
    const next = values[i + 1];
    candidates.push(next === undefined ? here + 1e-6 : (here + next) / 2);
  }
  return candidates;
}

/**
 * Equal-error rate: where the FNMR and FMR curves cross; with few pairs they
 * jump in steps, so the value is the mean of the two at the closest point.
 */
export function equalErrorRate(genuine: number[], impostor: number[]): Rates & { eer: number } {
  let best: (Rates & { eer: number }) | null = null;
  for (const t of candidateThresholds(genuine, impostor)) {
    const r = ratesAt(genuine, impostor, t);
    const gap = Math.abs(r.fnmr - r.fmr);
    const eer = (r.fnmr + r.fmr) / 2;
    if (
      !best ||
      gap < Math.abs(best.fnmr - best.fmr) - 1e-12 ||
      (Math.abs(gap - Math.abs(best.fnmr - best.fmr)) <= 1e-12 && eer < best.eer)
    ) {
      best = { ...r, eer };
    }
  }
  return best ?? { threshold: 0, fnmr: 1, fmr: 0, eer: 0.5 };
}

/**
 * The largest threshold whose FMR stays at or below `targetFmr`: the
 * (k+1)-th smallest impostor distance, where k false matches are allowed.
 */
export function thresholdForFmr(impostor: number[], targetFmr: number): number {
  const sorted = impostor.filter(Number.isFinite).sort((x, y) => x - y);
  const allowed = Math.floor(targetFmr * impostor.length);
  return sorted[allowed] ?? Number.POSITIVE_INFINITY;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (b - a) * (rank - lo);
}
