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
import {
  analyzeFace,
  BOX_CROPS,
  FACE_API_VERSION,
  loadFaceModels,
  type CoreFace,
  type CoreResult,
  type FaceCoreOptions,
} from './engine-core.mjs';
import {
  compareFaces,
  DEFAULT_FACE_MATCH_THRESHOLD,
  type Descriptor,
  type FaceComparison,
} from './descriptor';
import { engineUnavailable, faceError } from './face-errors';
import { imageInvalid } from './image';

export type { FaceBox, FaceQuality } from './engine-core.mjs';

/**
 * Engine v1's threshold on face-api's Euclidean distance alone (chosen on
 * dev by tools/face/calibrate.ts for FMR <= 1%). The server no longer decides
 * on it; calibrate.ts, gate-study.ts and the benchmark's v1 column still
 * measure face-api's descriptor on this scale.
 */
export const FACE_API_ONLY_THRESHOLD = 0.57;

/**
 * Quality gates, exposure correction and detector settings, all chosen on
 * fixtures/faces/dev only by `npm run face:gate-study -w apps/server`
 * (apps/server/tools/face/gate-study.ts)
 * (numbers below are from its last run). The study degrades every dev photo
 * step by step (smaller, darker, blurrier), analyses it with the gates off,
 * and compares it at the match threshold with the full-size dev photos and
 * with the other photos degraded the same way. Refusing a capture is a
 * certain non-match for the person, so a gate sits where accepting stops
 * being the better bet: below it, either impostors start to match (FMR over
 * the 1% policy, allowing one pair that dev cannot resolve) or a genuine
 * person is more often refused than matched (FNMR >= 50%). A stricter rule,
 * fixed first ("as good as full size": FNMR within 5 points of full size,
 * FMR <= 1%), would have refused faces under 40 px and every
 * under-exposed capture; the study prints both verdicts.
 * Full-size dev photos, for scale: FNMR 2.9% (68 genuine), FMR 0.7% (274
 * impostor ordered pairs) at 0.57; p01/p02 measure size >= 50, luminance
 * >= 125, sharpness >= 374, and pass every gate. Last run with the 3-crop
 * descriptor at 0.57; it moved the size gate from 24 to 28 and left the
 * others where they were. (All of this with the v1 engine, face-api alone
 * at 0.57; engine v2 keeps these gates: fusion-study.ts counts what they
 * refuse as failures to acquire.)
 */
export const DEFAULT_FACE_CORE_OPTIONS: Readonly<FaceCoreOptions> = Object.freeze({
  // 416 is the library's documented size; the others run only when it finds
  // nothing. On dev, where 416 found nothing, 512 found 13 true faces (3 over
  // the size gate: p03-1 at full size, p10-1 at 32 px, p02-4 scaled up to
  // 96 px) and 320 one that both missed (p08-1 scaled up to 96 px); neither
  // found anything that was not the face. The study's one spurious box (6 px,
  // at 416) is refused as too small.
  detectorInputSizes: [416, 512, 320],
  minDetectionScore: 0.5,
  secondaryFaceMinRatio: 1 / 3,
  // Dev faces scaled to s px on a 640x480 frame, against full-size photos:
  // s=40 FNMR 7.4%, 32 17.6%, 28 20.6% (FMR <= 1.1%, and 0% between two
  // faces of that size); at 24 FNMR 26.5% and two 24 px faces of different
  // people matched (FMR 3.4%, 4 of 119); s=20 FNMR 64.7% with only 10 of 19
  // faces found at all. Caveat: p09, a full-body shot whose 31 px face only a
  // 608 detector pass finds (so it stays "not found" here), would match p08
  // if found; one real small-face false match on dev.
  minFaceSizePx: 28,
  // Dev photos darkened (pixels x k) drift towards other people: without
  // exposure correction, FMR at k=0.4 (luminance ~54) was 1.1% against
  // full-size photos and 2.9% between two dark captures, 24.1% at k=0.12.
  // Brightening dark faces to 100 before the descriptor (100: just under the
  // darkest well-exposed dev face, 103, so no dev photo is touched) brought
  // that to 0.4-1.3% and 0-3.4% down to k=0.12, with FNMR <= 8.8%. Binned by
  // measured luminance, 30-40 still matched like full size (FNMR 3.9%, FMR
  // 0.3%), 20-30 did not (FMR 1.3% vs full, 2.9% between two dark captures);
  // 10-20 passed again, so this boundary is coarse. Under ~15 the detector
  // finds no face.
  minLuminance: 30,
  brightenFacesTo: 100,
  // Dev photos blurred (sigma = r x face size), binned by measured sharpness:
  // 100-150 FNMR 5.0%, 75-100 39.5% with two blurred captures of different
  // people matching (2 of 22), 35-50 56.4%, and blurred faces match each
  // other more and more below (r=0.04, median sharpness 39: FMR 8.0%).
  minSharpness: 100,
  maxInputPixels: 16_000_000,
  // descriptor-study.ts (apps/server/tools/face) on dev: the mean descriptor
  // of the face box at 100%, 95% and 105% ranks genuine and impostor pairs
  // better than the box alone (pooled AUC 0.9982 vs 0.9974, EER 1.8% vs
  // 2.1%), for ~40 ms per capture; the dlib-style rotated chip and the
  // mirror average did worse and are left to the study.
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

export type FaceAnalysis = CoreFace;

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

/** What both the in-process engine and the worker pool offer. */
export interface FaceService {
  /** The default match threshold (FACE_MATCH_THRESHOLD). */
  readonly threshold: number;
  /** The threshold that decides for a unit: its own stricter one, or the default. */
  thresholdFor(federativeUnit: string): number;
  /** descriptorVersionOf() the options this service computes descriptors with. */
  readonly descriptorVersion: string;
  ready(): Promise<void>;
  analyze(image: Uint8Array): Promise<FaceAnalysis>;
  /** Decides at `threshold` (a unit's: thresholdFor), the default threshold without it. */
  compare(
    a: Descriptor | FaceAnalysis,
    b: Descriptor | FaceAnalysis,
    threshold?: number,
  ): FaceComparison;
  /** Analyses waiting for a free worker (the pool's queue; 0 where there is none). */
  queueSize?(): number;
  close(): Promise<void>;
}

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

/**
 * What both modes share: the resolved options, the readiness of the models,
 * and the comparison, which reads analyses only. A mode
 * loads the models (`loading`), runs the core on a capture (`runCore`) and
 * stops.
 */
export abstract class FaceServiceBase implements FaceService {
  readonly threshold: number;
  readonly descriptorVersion: string;
  private readonly thresholdByUnit: Readonly<Record<string, number>>;
  protected closed = false;
  /** The models loaded (and warmed) by the mode; a failure is FACE_ENGINE_UNAVAILABLE. */
  protected abstract readonly loading: Promise<void>;

  protected constructor(resolved: ReturnType<typeof resolveFaceOptions>) {
    this.threshold = resolved.matchThreshold;
    this.thresholdByUnit = resolved.matchThresholdByUnit;
    this.descriptorVersion = descriptorVersionOf(resolved.core);
  }

  async ready(): Promise<void> {
    try {
      await this.loading;
    } catch (error) {
      throw engineUnavailable(error);
    }
  }

  async analyze(image: Uint8Array): Promise<FaceAnalysis> {
    if (this.closed) throw faceError('FACE_ENGINE_UNAVAILABLE');
    await this.ready();
    return unwrapCoreResult(await this.runCore(image));
  }

  protected abstract runCore(image: Uint8Array): Promise<CoreResult>;

  thresholdFor(federativeUnit: string): number {
    return thresholdOfUnit(this.threshold, this.thresholdByUnit, federativeUnit);
  }

  compare(
    a: Descriptor | FaceAnalysis,
    b: Descriptor | FaceAnalysis,
    threshold: number = this.threshold,
  ): FaceComparison {
    return compareFaces(a, b, threshold);
  }

  abstract close(): Promise<void>;
}

/**
 * The engine on the calling thread. Inference blocks the event loop for
 * ~150 ms per capture, so a server uses FacePool; this mode exists for
 * scripts, tests and the benchmark's comparison.
 */
export class FaceEngine extends FaceServiceBase {
  private readonly core: FaceCoreOptions;
  protected readonly loading: Promise<void>;

  constructor(options: FaceEngineOptions = {}) {
    const resolved = resolveFaceOptions(options);
    super(resolved);
    this.core = resolved.core;
    this.loading = loadFaceModels(this.core.detectorInputSizes);
    // A failed load surfaces in ready()/analyze(); do not crash on an unobserved rejection.
    this.loading.catch(() => undefined);
  }

  protected runCore(image: Uint8Array): Promise<CoreResult> {
    return analyzeFace(image, this.core);
  }

  async close(): Promise<void> {
    // The networks stay loaded: tfjs keeps one backend per thread and another
    // engine in this thread would reuse them.
    this.closed = true;
  }
}
