/**
 * The face of who sat an exam, for the one-to-many search of possible proxy
 * test-takers (modules/fraud): one template made of the exam's captures.
 *
 * Rule (chosen on fixtures/faces/dev, research/face/fraud-study.ts): the
 * medoid capture (the one closest to all others) and every capture within
 * the 1:1 threshold of it are averaged; a capture of someone else (a helper
 * leaning in, a poor frame) is left out rather than blurring the face. The
 * average of two captures of one dev person against another such average
 * scores a fused distance of 0.39 on average, against 0.54 for two single
 * photos, while impostors stay near 0.98 (config/fraud-threshold.ts). The
 * reference photo (the picture on file) is never part of it: the point is
 * who was in front of the camera.
 */
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../config/face-threshold';
import {
  checkedDescriptor,
  FACE_API_DESCRIPTOR_LENGTH,
  faceDistance,
  type Descriptor,
} from './descriptor';

export type CaptureFace = { id: string; descriptor: Descriptor };

export type ExamFace = {
  /** A combined template (face-api's 128 numbers, then MobileFaceNet's 192, unit length). */
  descriptor: number[];
  /** The captures it was made of. */
  captureIds: string[];
};

/** The mean of templates: face-api's part as is, MobileFaceNet's part each at unit length. */
function meanTemplate(templates: Descriptor[]): number[] {
  const length = templates[0]?.length ?? 0;
  const sum = new Array<number>(length).fill(0);
  for (const template of templates) {
    let norm = 0;
    for (let i = FACE_API_DESCRIPTOR_LENGTH; i < length; i++) norm += (template[i] ?? 0) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < length; i++) {
      const value = template[i] ?? 0;
      sum[i] = (sum[i] ?? 0) + (i < FACE_API_DESCRIPTOR_LENGTH ? value : value / norm);
    }
  }
  return sum.map((value) => value / templates.length);
}

/** The exam's face from its read captures, or null when none has a face. */
export function examFaceOf(
  captures: readonly CaptureFace[],
  consistency: number = DEFAULT_FACE_MATCH_THRESHOLD,
): ExamFace | null {
  const usable = captures.filter((capture) => {
    try {
      checkedDescriptor(capture.descriptor);
      return true;
    } catch {
      return false;
    }
  });
  if (usable.length === 0) return null;
  const distances = usable.map((a) =>
    usable.map((b) => (a === b ? 0 : faceDistance(a.descriptor, b.descriptor))),
  );
  let medoid = 0;
  let best = Number.POSITIVE_INFINITY;
  distances.forEach((row, index) => {
    const total = row.reduce((sum, value) => sum + value, 0);
    if (total < best) {
      best = total;
      medoid = index;
    }
  });
  const kept = usable.filter(
    (_, index) => index === medoid || (distances[medoid]?.[index] ?? 2) < consistency,
  );
  return {
    descriptor: meanTemplate(kept.map((capture) => capture.descriptor)),
    captureIds: kept.map((capture) => capture.id),
  };
}

/** The two captures, one of each exam, most alike (what a case shows side by side). */
export function closestCaptures(
  a: readonly CaptureFace[],
  b: readonly CaptureFace[],
): { a: string; b: string; distance: number } | null {
  let closest: { a: string; b: string; distance: number } | null = null;
  for (const x of a) {
    for (const y of b) {
      const distance = faceDistance(x.descriptor, y.descriptor);
      if (!closest || distance < closest.distance) closest = { a: x.id, b: y.id, distance };
    }
  }
  return closest;
}
