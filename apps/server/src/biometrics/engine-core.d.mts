/** Types of engine-core.mjs, which stays plain JavaScript so workers load it untransformed. */

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
  /**
   * How the face is cut for the recognition net: 'chip' rotates and scales it
   * onto the 150x150 mean-face chip the net was trained on; 'box' is the
   * upright square face-api cuts from eyes and mouth (no rotation).
   */
  alignment: 'chip' | 'box';
  /** Average the descriptors of the face and of its mirror image. */
  mirrorAverage: boolean;
  /** Crops of the face box (shifted and scaled a little) whose descriptors are averaged; 1 = the box only. */
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
  /** 128-d descriptor; compare with Euclidean distance. */
  descriptor: number[];
  /** 68 points as [x0, y0, x1, y1, ...] in image pixels. */
  landmarks: number[];
  box: FaceBox;
  detectionScore: number;
  detectorInputSize: number;
  imageWidth: number;
  imageHeight: number;
  quality: FaceQuality;
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

/** Installed @vladmandic/face-api version. */
export const FACE_API_VERSION: string;
/** Loads and warms the networks once per thread; later calls return the same promise. */
export function loadFaceModels(warmInputSizes?: number[]): Promise<void>;
export function analyzeFace(bytes: Uint8Array, options: FaceCoreOptions): Promise<CoreResult>;
export function baselineDescriptor(
  bytes: Uint8Array,
  options: { inputSize: number; scoreThreshold: number },
): Promise<number[] | null>;
export function liveTensorCount(): number;
/** Similarity transform image = [a -b; b a] chip + t fitted from 68 landmarks to the mean-face chip. */
export type ChipTransform = { a: number; b: number; tx: number; ty: number };
export function chipTransform(points: { x: number; y: number }[]): ChipTransform;
export function extractChip(
  rgb: Uint8Array,
  width: number,
  height: number,
  transform: ChipTransform,
): Int32Array;
