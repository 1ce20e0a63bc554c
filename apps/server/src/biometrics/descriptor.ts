/**
 * 1:1 comparison of faces (engine v2). Kept apart from the engine
 * so that the burst check and the engine share it without importing each
 * other.
 *
 * A face is described twice: face-api's 128-d descriptor (Euclidean
 * distance) and MobileFaceNet's 192-d embedding (cosine distance). A stored
 * template holds one combined vector per enrolled capture: the 128 numbers
 * of face-api followed by the 192 of MobileFaceNet (templateOf). The
 * decision is on the fused distance of the two (fusedDistance, FUSION),
 * chosen on dev by research/face/fusion-study.ts.
 */
import { faceError } from './face-errors';

/** Length of face-api's descriptor. */
export const FACE_API_DESCRIPTOR_LENGTH = 128;
/** Length of MobileFaceNet's embedding (mobilefacenet.mjs). */
export const MOBILE_DESCRIPTOR_LENGTH = 192;
/** Length of a stored template entry: face-api's descriptor, then MobileFaceNet's. */
export const DESCRIPTOR_LENGTH = FACE_API_DESCRIPTOR_LENGTH + MOBILE_DESCRIPTOR_LENGTH;

export type Descriptor = ArrayLike<number>;

/** What an analysis carries: both descriptors of one face. */
export type FaceDescriptors = { descriptor: Descriptor; mobileDescriptor: Descriptor };

/** Euclidean distance. */
export function descriptorDistance(a: Descriptor, b: Descriptor): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/** 1 - cosine similarity: 0 for the same direction, 1 for orthogonal, 2 for opposite. */
export function cosineDistance(a: Descriptor, b: Descriptor): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return 1 - dot / Math.sqrt(Math.max(na * nb, 1e-24));
}

export type FusionParameters = {
  /** Mean and standard deviation of face-api's Euclidean distance over dev impostor pairs. */
  faceApiMean: number;
  faceApiSd: number;
  /** Mean and standard deviation of MobileFaceNet's cosine distance over dev impostor pairs. */
  mobileMean: number;
  mobileSd: number;
  /** Weight of face-api's z-score; MobileFaceNet's is 1 - faceApiWeight. */
  faceApiWeight: number;
};

/**
 * Fused distance of two faces from face-api's Euclidean distance and
 * MobileFaceNet's cosine distance. It ranks pairs exactly as the weighted
 * sum of the two distances z-normalised on the dev impostor pairs
 * (w z_faceapi + (1 - w) z_mobile), rescaled so that it stays a positive,
 * distance-like number: a typical dev impostor pair scores 1, identical
 * faces 0. (The sum of z-scores is affine in this value, so thresholds,
 * EER and every rate are the same on either scale.) Lower = more alike.
 */
export function fusedDistance(faceApi: number, mobile: number, p: FusionParameters): number {
  const wa = p.faceApiWeight / p.faceApiSd;
  const wm = (1 - p.faceApiWeight) / p.mobileSd;
  return (wa * faceApi + wm * mobile) / (wa * p.faceApiMean + wm * p.mobileMean);
}

/**
 * The fusion in use: z-normalisation on the 137 dev as-is impostor pairs and
 * face-api's weight 0.45, the weight with the highest AUC on the pooled dev
 * pairs (as is and degraded: 291 genuine, 978 impostor), from
 * `npm run face:fusion-study -w research` (research/face/fusion-study.ts;
 * its last run is quoted there and in DEFAULT_FACE_MATCH_THRESHOLD). The
 * MobileFaceNet distance is that of the mirror-averaged embedding
 * (mobilefacenet.mjs, embedFace).
 */
export const FUSION: Readonly<FusionParameters> = Object.freeze({
  faceApiMean: 0.7246,
  faceApiSd: 0.066,
  mobileMean: 0.8719,
  mobileSd: 0.1289,
  faceApiWeight: 0.45,
});

/**
 * Default decision threshold on the fused distance; chosen and explained in
 * config/face-threshold.ts, where the configuration reads it.
 */
export { DEFAULT_FACE_MATCH_THRESHOLD } from '../config/face-threshold';

/** A stored template entry of a face: face-api's 128 numbers, then MobileFaceNet's 192. */
export function templateOf(face: FaceDescriptors): number[] {
  return [...Array.from(face.descriptor), ...Array.from(face.mobileDescriptor)];
}

/** Both descriptors of a stored template entry or an analysis, checked. */
function split(value: Descriptor | FaceDescriptors): { faceApi: Descriptor; mobile: Descriptor } {
  if ('mobileDescriptor' in value) {
    const faceApi = value.descriptor;
    const mobile = value.mobileDescriptor;
    if (
      faceApi.length !== FACE_API_DESCRIPTOR_LENGTH ||
      mobile.length !== MOBILE_DESCRIPTOR_LENGTH
    ) {
      throw faceError('FACE_TEMPLATE_INVALID');
    }
    checkFinite(faceApi);
    checkFinite(mobile);
    return { faceApi, mobile };
  }
  const combined = checkedDescriptor(value);
  const all = Array.from(combined);
  return {
    faceApi: all.slice(0, FACE_API_DESCRIPTOR_LENGTH),
    mobile: all.slice(FACE_API_DESCRIPTOR_LENGTH),
  };
}

function checkFinite(descriptor: Descriptor): void {
  for (let i = 0; i < descriptor.length; i++) {
    if (!Number.isFinite(descriptor[i])) throw faceError('FACE_TEMPLATE_INVALID');
  }
}

/** The fused distance (FUSION) between two faces, each an analysis or a stored template entry. */
export function faceDistance(
  a: Descriptor | FaceDescriptors,
  b: Descriptor | FaceDescriptors,
): number {
  const x = split(a);
  const y = split(b);
  return fusedDistance(
    descriptorDistance(x.faceApi, y.faceApi),
    cosineDistance(x.mobile, y.mobile),
    FUSION,
  );
}

export type FaceComparison = {
  match: boolean;
  /** Fused distance (faceDistance) between the two faces; lower is more alike. */
  distance: number;
  /**
   * max(0, 1 - distance): a display score in [0, 1], monotonic in the
   * distance. Decisions use distance and threshold only.
   */
  similarity: number;
  threshold: number;
};

/** A stored template entry that is not DESCRIPTOR_LENGTH finite numbers is corrupt, not a non-match. */
export function checkedDescriptor(descriptor: Descriptor): Descriptor {
  if (descriptor.length !== DESCRIPTOR_LENGTH) throw faceError('FACE_TEMPLATE_INVALID');
  checkFinite(descriptor);
  return descriptor;
}

/** Throws FACE_TEMPLATE_INVALID for a malformed descriptor. */
export function compareFaces(
  a: Descriptor | FaceDescriptors,
  b: Descriptor | FaceDescriptors,
  threshold: number,
): FaceComparison {
  const distance = faceDistance(a, b);
  return {
    match: distance < threshold,
    distance,
    similarity: Math.max(0, 1 - distance),
    threshold,
  };
}

/** The verification of a probe against every enrolled capture (compareWithEnrolment). */
export type EnrolmentComparison = FaceComparison & {
  /** Fused distance to each enrolled capture, in enrolment order. */
  captures: number[];
};

/**
 * Multi-capture rule: the probe is compared with each enrolled capture and
 * the decision is on the MEAN of the fused distances (one capture: that
 * distance). Chosen on dev by research/face/fusion-study.ts over every 3-capture
 * enrolment of p01 and p02 (60 templates; probes as is and degraded; 1415
 * genuine, 2500 impostor): the mean ranked best (EER 0.1%, FNMR 0.2% at
 * FMR 0) against "best of 3" (0.3%, 0.7%), "best two of three" (0.3%, 0.9%)
 * and "all three" (0.0%, 0.0% but FNMR 28.3% at the threshold); at the
 * configured threshold 0.69 it gave FNMR 1.8% and FMR 0 with its closest
 * impostor at 0.748, where "best of 3" gave FNMR 1.1% but its closest
 * impostor sat at 0.704, just over the threshold: every extra capture is
 * one more chance for an impostor under the best-of rule, and none under
 * the mean. `compare` is the service's 1:1 comparison.
 */
export function compareWithEnrolment<P extends Descriptor | FaceDescriptors>(
  compare: (a: P, b: Descriptor) => FaceComparison,
  probe: P,
  enrolled: readonly Descriptor[],
): EnrolmentComparison {
  if (enrolled.length === 0) throw faceError('FACE_TEMPLATE_INVALID');
  const each = enrolled.map((capture) => compare(probe, capture));
  return decideOnMean(
    each,
    each.map((c) => c.distance),
  );
}

/**
 * The decision on the MEAN distance of `each` comparison, against the
 * threshold they were made with (the first one's); `captures` is the
 * fused distance to each enrolled capture behind them.
 */
export function decideOnMean(
  each: readonly FaceComparison[],
  captures: number[],
): EnrolmentComparison {
  const threshold = each[0]?.threshold ?? Number.NaN;
  const distance = each.reduce((sum, c) => sum + c.distance, 0) / each.length;
  return {
    match: distance < threshold,
    distance,
    similarity: Math.max(0, 1 - distance),
    threshold,
    captures,
  };
}
