/**
 * The burst check the product used BEFORE the face challenge,
 * kept here only as the "before" column of liveness.bench.ts (and the old
 * path of face-verify.bench.ts); no server code imports it. It asked a
 * short burst of frames (2 to 5, the verified picture first) for a little
 * landmark motion and pixel difference, which any rigid motion of one still
 * photo provides: three copies of a photo shifted by a few pixels passed it.
 *
 * It was a liveness SIGNAL, never proof of liveness: a video replayed on a
 * screen, or a printed photo moved by hand, passed too. What it caught was
 * one still image sent several times, frames of different people, and
 * frames stitched from unrelated shots.
 */
import type { CoreFace } from '../apps/server/src/biometrics/engine-types';
import { faceDistance } from '../apps/server/src/biometrics/descriptor';

/** The burst's size bounds of before (the product now takes 4 or 5 pictures per challenge). */
const LEGACY_MIN_FRAMES = 2;
const LEGACY_MAX_FRAMES = 5;

/** A burst the check cannot read (too few or too many frames, thumbnails missing or of different sizes). */
export class BurstInvalidError extends Error {
  readonly code = 'FACE_BURST_INVALID';
  constructor() {
    super(`Envie de ${LEGACY_MIN_FRAMES} a ${LEGACY_MAX_FRAMES} fotos tiradas em sequência.`);
  }
}

export type BurstOptions = {
  minFrames: number;
  maxFrames: number;
  /**
   * Mean landmark displacement between consecutive frames, in eye distances,
   * that counts as movement. On dev photos, re-encoding or adding sensor-like
   * noise to one still frame moved the landmarks by 0.002-0.035; a real head
   * between frames of a burst moves a few pixels (0.03-0.15).
   */
  minMotion: number;
  /** Larger displacements between two consecutive frames are a cut, not a motion. */
  maxMotion: number;
  /**
   * Mean absolute grey difference (0..255) between consecutive 64x64
   * thumbnails under which two frames are copies. A copy scores 0, a
   * re-encoded copy about 0.3, a head moving a pixel or two 2-10.
   */
  minPixelDifference: number;
};

export const DEFAULT_BURST_OPTIONS: Readonly<BurstOptions> = Object.freeze({
  minFrames: LEGACY_MIN_FRAMES,
  maxFrames: LEGACY_MAX_FRAMES,
  minMotion: 0.02,
  maxMotion: 0.5,
  minPixelDifference: 0.25,
});

export type BurstResult = {
  passed: boolean;
  checks: { sameFace: boolean; naturalMotion: boolean; notIdentical: boolean };
  details: {
    frames: number;
    /** Largest fused distance (faceDistance) over all pairs of frames. */
    maxDistance: number;
    threshold: number;
    /** Per consecutive pair: mean landmark displacement in eye distances. */
    motion: number[];
    /** Per consecutive pair: mean absolute grey difference of 64x64 thumbnails. */
    pixelDifference: number[];
    limits: BurstOptions;
  };
};

/**
 * What the burst check reads of each frame's analysis: the descriptor, the
 * landmarks and the frame's thumbnail, all made by the one analysis of the
 * frame (the check itself decodes nothing).
 */
export type BurstFace = Pick<
  CoreFace,
  'descriptor' | 'mobileDescriptor' | 'landmarks' | 'imageWidth' | 'imageHeight' | 'thumbnail'
>;

function centre(landmarks: number[], from: number, to: number): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let i = from; i < to; i++) {
    x += landmarks[2 * i] ?? 0;
    y += landmarks[2 * i + 1] ?? 0;
  }
  return { x: x / (to - from), y: y / (to - from) };
}

/** Landmark motion from a to b, with b mapped into a's pixel grid if sizes differ. */
function landmarkMotion(a: BurstFace, b: BurstFace): number {
  const sx = a.imageWidth / b.imageWidth;
  const sy = a.imageHeight / b.imageHeight;
  let sum = 0;
  const points = a.landmarks.length / 2;
  for (let i = 0; i < points; i++) {
    const dx = (a.landmarks[2 * i] ?? 0) - (b.landmarks[2 * i] ?? 0) * sx;
    const dy = (a.landmarks[2 * i + 1] ?? 0) - (b.landmarks[2 * i + 1] ?? 0) * sy;
    sum += Math.hypot(dx, dy);
  }
  const left = centre(a.landmarks, 36, 42);
  const right = centre(a.landmarks, 42, 48);
  const eyeDistance = Math.max(1, Math.hypot(right.x - left.x, right.y - left.y));
  return sum / points / eyeDistance;
}

function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

/**
 * Combines the three checks over the analyses of the frames, in capture
 * order (consecutive frames are compared for motion and copies).
 */
export function evaluateBurst(
  faces: readonly BurstFace[],
  threshold: number,
  options: Partial<BurstOptions> = {},
): BurstResult {
  const limits: BurstOptions = { ...DEFAULT_BURST_OPTIONS, ...options };
  if (
    !Array.isArray(faces) ||
    faces.length < limits.minFrames ||
    faces.length > limits.maxFrames ||
    faces.some(
      (face) => face.thumbnail.length === 0 || face.thumbnail.length !== faces[0]?.thumbnail.length,
    )
  ) {
    throw new BurstInvalidError();
  }

  let maxDistance = 0;
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i];
      const b = faces[j];
      if (a && b) maxDistance = Math.max(maxDistance, faceDistance(a, b));
    }
  }

  const motion: number[] = [];
  const pixelDifference: number[] = [];
  for (let i = 1; i < faces.length; i++) {
    const previous = faces[i - 1];
    const current = faces[i];
    if (!previous || !current) continue;
    motion.push(landmarkMotion(previous, current));
    pixelDifference.push(meanAbsoluteDifference(previous.thumbnail, current.thumbnail));
  }

  const sameFace = maxDistance < threshold;
  // Someone may hold still between two frames, so movement is required
  // somewhere in the burst, while a cut anywhere breaks it.
  const naturalMotion =
    Math.max(...motion) >= limits.minMotion && Math.max(...motion) <= limits.maxMotion;
  const notIdentical = Math.min(...pixelDifference) >= limits.minPixelDifference;

  return {
    passed: sameFace && naturalMotion && notIdentical,
    checks: { sameFace, naturalMotion, notIdentical },
    details: { frames: faces.length, maxDistance, threshold, motion, pixelDifference, limits },
  };
}
