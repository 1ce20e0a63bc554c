/**
 * The embedded face engine: one capture in, exactly one usable face out (or
 * a specific pt-BR error), and 1:1 comparison of faces on the fused distance
 * of face-api's 128-d descriptor and MobileFaceNet's 192-d embedding
 * (descriptor.ts). Nothing here touches the network, the database or the
 * disk beyond the model files shipped in node_modules.
 *
 * Descriptors are biometric templates (LGPD Art. 5 II, Art. 11): callers
 * encrypt them at rest and never log them.
 */
import { DEFAULT_FACE_MATCH_THRESHOLD } from './descriptor';
import { BOX_CROPS, FACE_API_VERSION } from './engine-constants.mjs';
import type { CoreResult, FaceAnalysis, FaceCoreOptions } from './engine-types';
import { faceError } from './face-errors';
import { imageInvalid } from './image';

export type {
  FaceAnalysis,
  FaceAnalysisObserver,
  FaceBox,
  FaceQuality,
  FaceService,
} from './engine-types';

/**
 * Engine v1's threshold on face-api's Euclidean distance alone (FMR <= 1% on
 * dev); the server no longer decides on it, the studies and the benchmark's
 * v1 column still measure on this scale (research/README.md).
 */
export const FACE_API_ONLY_THRESHOLD = 0.57;

/**
 * Quality gates, exposure correction and detector settings, chosen on
 * fixtures/faces/dev only by research/face/gate-study.ts and
 * descriptor-study.ts; the measurements behind each number are in
 * research/README.md.
 */
export const DEFAULT_FACE_CORE_OPTIONS: Readonly<FaceCoreOptions> = Object.freeze({
  detectorInputSizes: [416, 512, 320],
  minDetectionScore: 0.5,
  secondaryFaceMinRatio: 1 / 3,
  minFaceSizePx: 28,
  minLuminance: 30,
  brightenFacesTo: 100,
  minSharpness: 100,
  maxInputPixels: 16_000_000,
  jitterCrops: 3,
});

export type FaceEngineOptions = Partial<FaceCoreOptions> & {
  /** Fused distance under which two faces are the same person (FACE_MATCH_THRESHOLD). */
  matchThreshold?: number;
  /**
   * A stricter threshold for some units (FACE_MATCH_THRESHOLD_BY_UNIT), by
   * unit code: each above 0 and at most matchThreshold.
   */
  matchThresholdByUnit?: Readonly<Record<string, number>>;
};

export type { Descriptor, EnrolmentComparison, FaceComparison } from './descriptor';
export {
  compareFaces,
  compareWithEnrolment,
  DEFAULT_FACE_MATCH_THRESHOLD,
  descriptorDistance,
  DESCRIPTOR_LENGTH,
  faceDistance,
  templateOf,
} from './descriptor';

/**
 * MobileFaceNet's part of the descriptor version: the vendored export, its
 * repair at load, the 5-point ArcFace alignment and the mirror average
 * (mobilefacenet.mjs, embedFace).
 */
export const MOBILEFACENET_VERSION = 'mobilefacenet-hm3.0.4-repaired;align5=arcface112;mirror=1';

/**
 * Names everything that shapes a stored descriptor (models, crop,
 * averaging, exposure correction, alignment). Descriptors are only
 * comparable within one version: stored templates carry theirs, and one
 * made by another version is recomputed from its enrolment captures before
 * it is used (face-templates.service.ts). The fusion weights are not part of
 * it: they apply at comparison, to the stored raw descriptors.
 */
export function descriptorVersionOf(
  core: Pick<FaceCoreOptions, 'jitterCrops' | 'brightenFacesTo'>,
  library: string = FACE_API_VERSION,
): string {
  return `${faceApiDescriptorVersionOf(core, library)};${MOBILEFACENET_VERSION}`;
}

/**
 * The version of the face-api part alone: the whole version of the engine
 * before MobileFaceNet (v1: 128-d face-api descriptors only).
 */
export function faceApiDescriptorVersionOf(
  core: Pick<FaceCoreOptions, 'jitterCrops' | 'brightenFacesTo'>,
  library: string = FACE_API_VERSION,
): string {
  // `align=box` and `mirror=0` stay in the name: stored templates carry it,
  // from when the engine also had the studies' rotated chip and mirror average.
  return [
    `face-api-${library}`,
    'align=box',
    `crops=${core.jitterCrops}`,
    'mirror=0',
    `bright=${core.brightenFacesTo}`,
  ].join(';');
}

/**
 * The version of templates enrolled before versions were recorded: face-api
 * 1.7.15, one crop, no mirror, brightening to 100.
 */
export const LEGACY_DESCRIPTOR_VERSION = faceApiDescriptorVersionOf(
  { jitterCrops: 1, brightenFacesTo: 100 },
  '1.7.15',
);

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`Opção inválida do motor facial: ${name}=${value}`);
  }
  return value;
}

/** A unit's own threshold (FACE_MATCH_THRESHOLD_BY_UNIT), or the default. */
export function thresholdOfUnit(
  threshold: number,
  byUnit: Readonly<Record<string, number>>,
  federativeUnit: string,
): number {
  return Object.hasOwn(byUnit, federativeUnit) ? (byUnit[federativeUnit] ?? threshold) : threshold;
}

/** Fills defaults and refuses nonsense early, at start-up rather than per request. */
export function resolveFaceOptions(options: FaceEngineOptions = {}): {
  core: FaceCoreOptions;
  matchThreshold: number;
  matchThresholdByUnit: Readonly<Record<string, number>>;
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
    brightenFacesTo: options.brightenFacesTo ?? DEFAULT_FACE_CORE_OPTIONS.brightenFacesTo,
    maxInputPixels: options.maxInputPixels ?? DEFAULT_FACE_CORE_OPTIONS.maxInputPixels,
    jitterCrops: options.jitterCrops ?? DEFAULT_FACE_CORE_OPTIONS.jitterCrops,
  };
  if (
    !Number.isInteger(core.jitterCrops) ||
    core.jitterCrops < 1 ||
    core.jitterCrops > BOX_CROPS.length
  ) {
    throw new TypeError(
      `Opção inválida do motor facial: jitterCrops=${core.jitterCrops} (1 a ${BOX_CROPS.length})`,
    );
  }
  if (
    core.detectorInputSizes.length === 0 ||
    core.detectorInputSizes.some((s) => !Number.isInteger(s) || s < 128 || s % 32 !== 0)
  ) {
    throw new TypeError('detectorInputSizes: múltiplos de 32, a partir de 128.');
  }
  positive('minDetectionScore', core.minDetectionScore);
  positive('secondaryFaceMinRatio', core.secondaryFaceMinRatio);
  positive('maxInputPixels', core.maxInputPixels);
  for (const key of ['minFaceSizePx', 'minLuminance', 'minSharpness', 'brightenFacesTo'] as const) {
    if (!Number.isFinite(core[key]) || core[key] < 0) {
      throw new TypeError(`Opção inválida do motor facial: ${key}=${core[key]}`);
    }
  }
  const matchThreshold = positive(
    'matchThreshold',
    options.matchThreshold ?? DEFAULT_FACE_MATCH_THRESHOLD,
  );
  const matchThresholdByUnit: Record<string, number> = {};
  for (const [unit, value] of Object.entries(options.matchThresholdByUnit ?? {})) {
    // A unit may only be stricter (lower) than the default, never looser.
    if (positive(`matchThresholdByUnit.${unit}`, value) > matchThreshold) {
      throw new TypeError(
        `Opção inválida do motor facial: matchThresholdByUnit.${unit}=${value} acima de matchThreshold=${matchThreshold}`,
      );
    }
    matchThresholdByUnit[unit] = value;
  }
  return {
    core,
    matchThreshold,
    matchThresholdByUnit: Object.freeze(matchThresholdByUnit),
  };
}

/** Maps the core's plain result to a face or the AppError the person sees. */
export function unwrapCoreResult(result: CoreResult): FaceAnalysis {
  if (result.ok) return result.face;
  if (result.code === 'IMAGE_INVALID') throw imageInvalid();
  throw faceError(result.code);
}
