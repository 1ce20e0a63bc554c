/**
 * A liveness SIGNAL from a short burst of frames (2 to 5) taken by the
 * capture screen. It is never proof of liveness and claims no conformance to
 * ISO/IEC 30107-3 (presentation attack detection) or any iBeta level: a
 * video replayed on a screen, or a printed photo moved by hand, shows the
 * same face moving a little between frames and passes. What it does catch is
 * the cheapest attacks: one still image sent several times, frames of
 * different people, and frames stitched from unrelated shots. Use it as one
 * input among others (a proctor's review, the exam's own monitoring), never
 * as the sole reason to accept a person.
 */
import sharp from 'sharp';
import { AppError } from '../lib/app-error';
import type { CoreFace } from './engine-core.mjs';
import { descriptorDistance } from './descriptor';
import { faceError } from './face-errors';
import { imageInvalid } from './image';

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
  minFrames: 2,
  maxFrames: 5,
  minMotion: 0.02,
  maxMotion: 0.5,
  minPixelDifference: 0.25,
});

export type BurstResult = {
  passed: boolean;
  checks: { sameFace: boolean; naturalMotion: boolean; notIdentical: boolean };
  details: {
    frames: number;
    /** Largest descriptor distance over all pairs of frames. */
    maxDistance: number;
    threshold: number;
    /** Per consecutive pair: mean landmark displacement in eye distances. */
    motion: number[];
    /** Per consecutive pair: mean absolute grey difference of 64x64 thumbnails. */
    pixelDifference: number[];
    limits: BurstOptions;
  };
};

const THUMB = 64;

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
function landmarkMotion(a: CoreFace, b: CoreFace): number {
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

async function thumbnail(frame: Uint8Array, index: number): Promise<Buffer> {
  try {
    return await sharp(frame, { failOn: 'warning' })
      .autoOrient()
      .resize(THUMB, THUMB, { fit: 'fill' })
      .greyscale()
      .raw()
      .toBuffer();
  } catch {
    throw withFrame(imageInvalid(), index);
  }
}

function meanAbsoluteDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

function withFrame(error: AppError, index: number): AppError {
  return new AppError(error.code, error.message, error.status, [
    { path: `frames.${index}`, message: error.message },
  ]);
}

/**
 * Analyses every frame (in parallel when `analyze` is the worker pool) and
 * combines the three checks. A frame without one usable face fails the whole
 * burst with that frame's error, so the person learns what to fix.
 */
export async function evaluateBurst(
  frames: Uint8Array[],
  analyze: (frame: Uint8Array) => Promise<CoreFace>,
  threshold: number,
  options: Partial<BurstOptions> = {},
): Promise<BurstResult> {
  const limits: BurstOptions = { ...DEFAULT_BURST_OPTIONS, ...options };
  if (
    !Array.isArray(frames) ||
    frames.length < limits.minFrames ||
    frames.length > limits.maxFrames ||
    frames.some((f) => !(f instanceof Uint8Array) || f.length === 0)
  ) {
    throw faceError('FACE_BURST_INVALID');
  }

  const settled = await Promise.allSettled(frames.map((frame) => analyze(frame)));
  const faces: CoreFace[] = [];
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === 'rejected') {
      throw outcome.reason instanceof AppError && outcome.reason.status < 500
        ? withFrame(outcome.reason, index)
        : outcome.reason;
    }
    faces.push(outcome.value);
  }
  const thumbs = await Promise.all(frames.map((frame, index) => thumbnail(frame, index)));

  let maxDistance = 0;
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) {
      const a = faces[i];
      const b = faces[j];
      if (a && b)
        maxDistance = Math.max(maxDistance, descriptorDistance(a.descriptor, b.descriptor));
    }
  }

  const motion: number[] = [];
  const pixelDifference: number[] = [];
  for (let i = 1; i < faces.length; i++) {
    const previous = faces[i - 1];
    const current = faces[i];
    const previousThumb = thumbs[i - 1];
    const currentThumb = thumbs[i];
    if (!previous || !current || !previousThumb || !currentThumb) continue;
    motion.push(landmarkMotion(previous, current));
    pixelDifference.push(meanAbsoluteDifference(previousThumb, currentThumb));
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
    details: { frames: frames.length, maxDistance, threshold, motion, pixelDifference, limits },
  };
}
