/**
 * 1:1 comparison of 128-d face descriptors. Kept apart from the engine so
 * that the burst check and the engine share it without importing each other.
 */
import { faceError } from './face-errors';

export const DESCRIPTOR_LENGTH = 128;

export type Descriptor = ArrayLike<number>;

export type FaceComparison = {
  match: boolean;
  /** Euclidean distance between the two descriptors; lower is more alike. */
  distance: number;
  /**
   * max(0, 1 - distance): a display score in [0, 1], monotonic in the
   * distance. Decisions use distance and threshold only.
   */
  similarity: number;
  threshold: number;
};

function descriptorOf(value: Descriptor | { descriptor: Descriptor }): Descriptor {
  return 'descriptor' in value ? value.descriptor : value;
}

/** A stored template that is not 128 finite numbers is corrupt, not a non-match. */
export function checkedDescriptor(value: Descriptor | { descriptor: Descriptor }): Descriptor {
  const descriptor = descriptorOf(value);
  if (descriptor.length !== DESCRIPTOR_LENGTH) throw faceError('FACE_TEMPLATE_INVALID');
  for (let i = 0; i < descriptor.length; i++) {
    if (!Number.isFinite(descriptor[i])) throw faceError('FACE_TEMPLATE_INVALID');
  }
  return descriptor;
}

export function descriptorDistance(a: Descriptor, b: Descriptor): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/** Throws FACE_TEMPLATE_INVALID for a malformed descriptor. */
export function compareFaces(
  a: Descriptor | { descriptor: Descriptor },
  b: Descriptor | { descriptor: Descriptor },
  threshold: number,
): FaceComparison {
  const distance = descriptorDistance(checkedDescriptor(a), checkedDescriptor(b));
  return {
    match: distance < threshold,
    distance,
    similarity: Math.max(0, 1 - distance),
    threshold,
  };
}
