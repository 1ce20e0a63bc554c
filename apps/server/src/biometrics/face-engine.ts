/**
 * The embedded face engine: one capture in, exactly one usable face out (or
 * a specific pt-BR error), and 1:1 comparison of 128-d descriptors by
 * Euclidean distance. Nothing here touches the network, the database or the
 * disk beyond the model files shipped in node_modules.
 *
 * Descriptors are biometric templates (LGPD Art. 5 II, Art. 11): callers
 * encrypt them at rest and never log them.
 */
import {
  analyzeFace,
  loadFaceModels,
  type CoreFace,
  type CoreResult,
  type FaceCoreOptions,
} from './engine-core.mjs';
import { compareFaces, type Descriptor, type FaceComparison } from './descriptor';
import { faceError } from './face-errors';
import { imageInvalid } from './image';
import { evaluateBurst, type BurstOptions, type BurstResult } from './liveness';

export type { FaceBox, FaceQuality } from './engine-core.mjs';

/**
 * Default decision threshold on the Euclidean distance (match when
 * distance < threshold). Chosen by `npx tsx apps/server/src/biometrics/calibrate.ts`
 * on fixtures/faces/dev only, with this engine and its quality gates: it is
 * the threshold that keeps the false-match rate at or below 1% of the dev
 * impostor pairs (the largest one that does, rounded down to two decimals),
 * preferred to the equal-error threshold because a false match lets someone
 * sit an exam in another person's name while a false non-match costs a retry.
 * Last run: 34 genuine and 137 impostor dev pairs (p09 has no usable face),
 * threshold for FMR <= 1% 0.5866, EER 2.6% at 0.599; at 0.58 FNMR 5.9% and
 * FMR 0.7% on dev. With so few pairs the value is coarse: re-run the script
 * when the engine or its gates change. Deployments set FACE_MATCH_THRESHOLD;
 * holdout/ only measures it (bench/face.bench.ts).
 */
export const DEFAULT_FACE_MATCH_THRESHOLD = 0.58;

/**
 * Quality gates and detector settings. The gate values come from
 * measurements on fixtures/faces/dev (calibrate.ts prints them): every
 * capture of p01 and p02 passes with a wide margin (face size >= 50 px,
 * luminance >= 125, sharpness >= 374), and each gate sits where the dev
 * photos, artificially degraded, started to drift from their own sharp
 * originals by more than about half the match threshold.
 */
export const DEFAULT_FACE_CORE_OPTIONS: Readonly<FaceCoreOptions> = Object.freeze({
  // 416 is the library's documented size; the others only run when it finds
  // nothing (on dev they recover a face that 416 scores under 0.5).
  detectorInputSizes: [416, 512, 320],
  minDetectionScore: 0.5,
  secondaryFaceMinRatio: 1 / 3,
  // Dev faces scaled down to a size of 25-30 (FaceQuality.faceSizePx) drifted
  // 0.26-0.38 from their originals, about half the threshold; and when p09, a
  // full-body shot whose face only a 608 detector pass finds, was let in, it
  // made the closest dev impostor pair (0.50). A small face is refused rather
  // than matched.
  minFaceSizePx: 32,
  // Dev faces darkened to a quarter of their light (mean 26..43) still matched;
  // 40 asks for light only when the picture is really underexposed, and stays
  // far from the levels of well-lit darker skin.
  minLuminance: 40,
  // Gaussian blur of sigma 2-3 px on dev photos brought sharpness under 50 and
  // drift from the sharp original to 0.3-0.5.
  minSharpness: 50,
  maxInputPixels: 16_000_000,
});

export type FaceEngineOptions = Partial<FaceCoreOptions> & {
  /** Distance under which two descriptors are the same person (FACE_MATCH_THRESHOLD). */
  matchThreshold?: number;
  burst?: Partial<BurstOptions>;
};

export type FaceAnalysis = CoreFace;

export type { Descriptor, FaceComparison } from './descriptor';
export { compareFaces, descriptorDistance, DESCRIPTOR_LENGTH } from './descriptor';

/** What both the in-process engine and the worker pool offer. */
export interface FaceService {
  readonly threshold: number;
  ready(): Promise<void>;
  analyze(image: Uint8Array): Promise<FaceAnalysis>;
  compare(a: Descriptor | FaceAnalysis, b: Descriptor | FaceAnalysis): FaceComparison;
  checkBurst(frames: Uint8Array[]): Promise<BurstResult>;
  close(): Promise<void>;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Opção inválida do motor facial: ${name}=${value}`);
  }
  return value;
}

/** Fills defaults and refuses nonsense early, at start-up rather than per request. */
export function resolveFaceOptions(options: FaceEngineOptions = {}): {
  core: FaceCoreOptions;
  matchThreshold: number;
  burst: Partial<BurstOptions>;
} {
  const core: FaceCoreOptions = {
    detectorInputSizes: [
      ...(options.detectorInputSizes ?? DEFAULT_FACE_CORE_OPTIONS.detectorInputSizes),
    ],
    minDetectionScore: options.minDetectionScore ?? DEFAULT_FACE_CORE_OPTIONS.minDetectionScore,
    secondaryFaceMinRatio:
      options.secondaryFaceMinRatio ?? DEFAULT_FACE_CORE_OPTIONS.secondaryFaceMinRatio,
    minFaceSizePx: options.minFaceSizePx ?? DEFAULT_FACE_CORE_OPTIONS.minFaceSizePx,
    minLuminance: options.minLuminance ?? DEFAULT_FACE_CORE_OPTIONS.minLuminance,
    minSharpness: options.minSharpness ?? DEFAULT_FACE_CORE_OPTIONS.minSharpness,
    maxInputPixels: options.maxInputPixels ?? DEFAULT_FACE_CORE_OPTIONS.maxInputPixels,
  };
  if (
    core.detectorInputSizes.length === 0 ||
    core.detectorInputSizes.some((s) => !Number.isInteger(s) || s < 128 || s % 32 !== 0)
  ) {
    throw new TypeError('detectorInputSizes: múltiplos de 32, a partir de 128.');
  }
  positive('minDetectionScore', core.minDetectionScore);
  positive('secondaryFaceMinRatio', core.secondaryFaceMinRatio);
  positive('maxInputPixels', core.maxInputPixels);
  for (const key of ['minFaceSizePx', 'minLuminance', 'minSharpness'] as const) {
    if (!Number.isFinite(core[key]) || core[key] < 0) {
      throw new TypeError(`Opção inválida do motor facial: ${key}=${core[key]}`);
    }
  }
  const matchThreshold = positive(
    'matchThreshold',
    options.matchThreshold ?? DEFAULT_FACE_MATCH_THRESHOLD,
  );
  return { core, matchThreshold, burst: options.burst ?? {} };
}

/** Maps the core's plain result to a face or the AppError the person sees. */
export function unwrapCoreResult(result: CoreResult): FaceAnalysis {
  if (result.ok) return result.face;
  if (result.code === 'IMAGE_INVALID') throw imageInvalid();
  throw faceError(result.code);
}

/**
 * The engine on the calling thread. Inference blocks the event loop for
 * ~150 ms per capture, so a server uses FacePool; this mode exists for
 * scripts, tests and the benchmark's comparison.
 */
export class FaceEngine implements FaceService {
  readonly threshold: number;
  private readonly core: FaceCoreOptions;
  private readonly burst: Partial<BurstOptions>;
  private readonly loading: Promise<void>;
  private closed = false;

  constructor(options: FaceEngineOptions = {}) {
    const resolved = resolveFaceOptions(options);
    this.core = resolved.core;
    this.threshold = resolved.matchThreshold;
    this.burst = resolved.burst;
    this.loading = loadFaceModels(this.core.detectorInputSizes);
    // A failed load surfaces in ready()/analyze(); do not crash on an unobserved rejection.
    this.loading.catch(() => undefined);
  }

  async ready(): Promise<void> {
    try {
      await this.loading;
    } catch (error) {
      const unavailable = faceError('FACE_ENGINE_UNAVAILABLE');
      unavailable.cause = error;
      throw unavailable;
    }
  }

  async analyze(image: Uint8Array): Promise<FaceAnalysis> {
    if (this.closed) throw faceError('FACE_ENGINE_UNAVAILABLE');
    await this.ready();
    return unwrapCoreResult(await analyzeFace(image, this.core));
  }

  compare(a: Descriptor | FaceAnalysis, b: Descriptor | FaceAnalysis): FaceComparison {
    return compareFaces(a, b, this.threshold);
  }

  checkBurst(frames: Uint8Array[]): Promise<BurstResult> {
    return evaluateBurst(frames, (frame) => this.analyze(frame), this.threshold, this.burst);
  }

  async close(): Promise<void> {
    // The networks stay loaded: tfjs keeps one backend per thread and another
    // engine in this thread would reuse them.
    this.closed = true;
  }
}
