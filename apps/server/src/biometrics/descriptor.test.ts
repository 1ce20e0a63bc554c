/**
 * The fused comparison and the multi-capture rule, without fixture photos.
 */
import { describe, expect, it } from 'vitest';
import {
  compareFaces,
  compareWithEnrolment,
  cosineDistance,
  DESCRIPTOR_LENGTH,
  faceDistance,
  fusedDistance,
  FUSION,
  templateOf,
  type Descriptor,
} from './descriptor';

/** A unit vector of `length` numbers pointing mostly along axis `axis`. */
function unit(length: number, axis: number, spread = 0.1): number[] {
  const v = Array.from({ length }, (_, i) => (i === axis ? 1 : spread * Math.sin(i + axis)));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const face = (axis: number) => ({
  descriptor: unit(128, axis).map((x) => x * 0.5),
  mobileDescriptor: unit(192, axis),
});

describe('fused distance', () => {
  it('ranks pairs as the weighted sum of z-normalised distances, 1 for a typical impostor', () => {
    expect(fusedDistance(FUSION.faceApiMean, FUSION.mobileMean, FUSION)).toBeCloseTo(1, 12);
    expect(fusedDistance(0, 0, FUSION)).toBe(0);
    const z = (fa: number, mf: number) =>
      (FUSION.faceApiWeight * (fa - FUSION.faceApiMean)) / FUSION.faceApiSd +
      ((1 - FUSION.faceApiWeight) * (mf - FUSION.mobileMean)) / FUSION.mobileSd;
    const pairs: Array<[number, number]> = [
      [0.4, 0.3],
      [0.55, 0.6],
      [0.62, 0.45],
      [0.8, 0.9],
    ];
    const fused = pairs.map(([fa, mf]) => fusedDistance(fa, mf, FUSION));
    const zs = pairs.map(([fa, mf]) => z(fa, mf));
    // Affine with a positive slope: same order, same thresholds.
    const slope = (fused[1]! - fused[0]!) / (zs[1]! - zs[0]!);
    expect(slope).toBeGreaterThan(0);
    fused.forEach((f, i) => expect(f - fused[0]!).toBeCloseTo(slope * (zs[i]! - zs[0]!), 12));
  });

  it('compares an analysis with a stored entry as with the analysis itself', () => {
    const a = face(1);
    const b = face(7);
    expect(templateOf(a)).toHaveLength(DESCRIPTOR_LENGTH);
    expect(faceDistance(templateOf(a), b)).toBeCloseTo(faceDistance(a, b), 12);
    expect(faceDistance(a, a)).toBeCloseTo(0, 12);
    expect(cosineDistance(a.mobileDescriptor, b.mobileDescriptor)).toBeGreaterThan(0.3);
    expect(() => faceDistance(a.descriptor, b)).toThrow(
      expect.objectContaining({ code: 'FACE_TEMPLATE_INVALID' }),
    );
  });
});

describe('multi-capture rule', () => {
  const threshold = 0.69;
  const compare = (a: Descriptor, b: Descriptor) => compareFaces(a, b, threshold);
  // Stand-ins whose fused distance to the probe is chosen: entries whose
  // distances are given directly through a fake comparison.
  const fixed = (distances: number[]) => (_probe: Descriptor, b: Descriptor) => {
    const d = distances[Number(b[0])] ?? Number.NaN;
    return { match: d < threshold, distance: d, similarity: 1 - d, threshold };
  };
  const entries = (n: number) => Array.from({ length: n }, (_, i) => [i]);

  it('decides on the mean of the distances to every enrolled capture', () => {
    // Best of three would accept (0.5); the mean (0.73) does not.
    const one = compareWithEnrolment(fixed([0.5, 0.8, 0.9]), [0], entries(3));
    expect(one.captures).toEqual([0.5, 0.8, 0.9]);
    expect(one.distance).toBeCloseTo(0.7333, 4);
    expect(one.match).toBe(false);
    const two = compareWithEnrolment(fixed([0.6, 0.65, 0.75]), [0], entries(3));
    expect(two.distance).toBeCloseTo(0.6667, 4);
    expect(two.match).toBe(true);
    expect(two.similarity).toBeCloseTo(1 - two.distance, 12);
    expect(two.threshold).toBe(threshold);
  });

  it('is the 1:1 comparison for a single capture, and refuses an empty template', () => {
    const a = face(2);
    const b = face(3);
    const single = compareWithEnrolment(compare, templateOf(a), [templateOf(b)]);
    expect(single.distance).toBeCloseTo(compare(templateOf(a), templateOf(b)).distance, 12);
    expect(() => compareWithEnrolment(compare, templateOf(a), [])).toThrow(
      expect.objectContaining({ code: 'FACE_TEMPLATE_INVALID' }),
    );
  });
});
