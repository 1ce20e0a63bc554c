/**
 * The face engine's types, declared once. The pipeline itself stays plain
 * JavaScript (engine-core.mjs, face-runtime.mjs, mobilefacenet.mjs,
 * face-worker.mjs) so that worker threads load it without a TypeScript
 * loader; those files type themselves in JSDoc against this file, and
 * TypeScript reads them with allowJs/checkJs (tsconfig.json).
 */
import type { Descriptor, FaceComparison } from './descriptor';

export type FaceBox = { x: number; y: number; width: number; height: number };

export type FaceCoreOptions = {
  /** Tiny face detector input sizes, tried in order until one finds a face. */
  detectorInputSizes: number[];
  minDetectionScore: number;
  /** Another face counts only if at least this fraction of the main face's width. */
  secondaryFaceMinRatio: number;
  /** Minimum face scale in pixels (see FaceQuality.faceSizePx). */
  minFaceSizePx: number;
  /** Minimum mean luminance (0..255) of the face region. */
  minLuminance: number;
  /** Minimum sharpness (FaceQuality.sharpness) of the face region. */
  minSharpness: number;
  /**
   * Faces darker than this (FaceQuality.luminance) are brightened to it
   * before the descriptor is computed; 0 turns it off.
   */
  brightenFacesTo: number;
  /** Pixel cap handed to sharp before decoding. */
  maxInputPixels: number;
  /** Crops of the face box (BOX_CROPS, in order) whose descriptors are averaged; 1 = the box only. */
  jitterCrops: number;
};

export type FaceQuality = {
  /**
   * The larger of the eye distance and 1.25x the eye-to-mouth distance, in
   * pixels (about 1.2x the eye distance on a frontal face).
   */
  faceSizePx: number;
  /** Mean grey level (0..255) of the landmark region. */
  luminance: number;
  /** Variance of the Laplacian of the landmark region at 64x64, brightness-normalised to mean 128. */
  sharpness: number;
};

export type CoreFace = {
  /** 128-d face-api descriptor; compare with Euclidean distance. */
  descriptor: number[];
  /** 192-d MobileFaceNet embedding, L2-normalised; compare by cosine. */
  mobileDescriptor: number[];
  /** 68 points as [x0, y0, x1, y1, ...] in image pixels. */
  landmarks: number[];
  box: FaceBox;
  detectionScore: number;
  detectorInputSize: number;
  imageWidth: number;
  imageHeight: number;
  quality: FaceQuality;
  /**
   * Grey thumbnail of the whole frame (FRAME_THUMBNAIL_SIDE squared bytes,
   * row by row), for the burst check's copy test.
   */
  thumbnail: Uint8Array;
  elapsedMs: number;
};

export type CoreFailureCode =
  | 'IMAGE_INVALID'
  | 'FACE_NOT_FOUND'
  | 'FACE_MULTIPLE'
  | 'FACE_TOO_SMALL'
  | 'FACE_TOO_DARK'
  | 'FACE_BLURRED';

export type CoreResult =
  | { ok: true; face: CoreFace }
  | { ok: false; code: CoreFailureCode; quality?: FaceQuality; faces?: number };

/**
 * What a descriptor is computed from, once the face has passed the gates:
 * the decoded frame (as a tensor and as RGB bytes), face-api's landmarks
 * object and its points, the face's luminance and the options.
 */
export type DescribeContext = {
  /** int32 [height, width, 3] tensor of the frame; owned by analyzeFace. */
  input: unknown;
  rgb: Uint8Array;
  width: number;
  height: number;
  /** face-api's FaceLandmarks68 of the face, in frame pixels. */
  landmarks: { align(box: null, options: { useDlibAlignment: boolean }): FaceBox };
  points: { x: number; y: number }[];
  luminance: number;
  options: FaceCoreOptions;
};
/** Computes the 128-d descriptor of a face, or null when it cannot (counted as no face). */
export type Describe = (face: DescribeContext) => Promise<number[] | null>;

/** One analysed face: what the pipeline returns for a capture with exactly one usable face. */
export type FaceAnalysis = CoreFace;

/** The face engine as the server uses it (face-pool.ts: FacePool). */
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
  /** Tells `observer` of every analysis from now on (metrics); returns the way to stop. */
  observe?(observer: FaceAnalysisObserver): () => void;
  close(): Promise<void>;
}

/**
 * How an analysis ended: `rejected` is a picture without a usable face (an
 * answer, status < 500), `error` an engine failure.
 */
export type FaceAnalysisOutcome = 'ok' | 'rejected' | 'error';

export type FaceAnalysisObserver = {
  started(): void;
  finished(outcome: FaceAnalysisOutcome, seconds: number): void;
};

/** Types of mobilefacenet.mjs. */
export type WeightSpec = {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
};
export type RepairedModel = {
  modelTopology: { node: Array<{ name: string; op: string; input?: string[]; attr?: unknown }> };
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
  /** PReLU slopes flipped. */
  slopes: number;
  /** Depthwise Relus unfused. */
  relus: number;
};
