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

export { FACE_API_VERSION, loadFaceModels } from './face-runtime.mjs';
export const FRAME_THUMBNAIL_SIDE: number;
/** [shift x, shift y, scale] of each crop of the face box the shipped descriptor averages. */
export const BOX_CROPS: ReadonlyArray<readonly [number, number, number]>;
/**
 * Decode, detect, one face, landmarks, quality gates, descriptor (the
 * shipped box crops unless `describe` is given) and frame thumbnail.
 */
export function analyzeFace(
  bytes: Uint8Array,
  options: FaceCoreOptions,
  describe?: Describe,
): Promise<CoreResult>;
/** The given crops of the face box as tensors the caller owns; null when one falls outside the frame. */
export function cutBoxCrops(
  face: DescribeContext,
  crops: ReadonlyArray<readonly [number, number, number]>,
): unknown[] | null;
/** Mean descriptor of face chips (tensors), brightened as the options say; disposes them. */
export function describeChips(chips: unknown[], face: DescribeContext): Promise<number[]>;
/** The 192-d MobileFaceNet embedding of the 5-point aligned face and its mirror (L2-normalised). */
export function describeMobile(face: DescribeContext): Promise<number[]>;
/** MobileFaceNet's input: the 112x112 ArcFace crop of the face, brightened like the chips. */
export function mobileCrop(face: DescribeContext): Float32Array;
/** face-api's descriptor as the engine computes it (analyzeFace's default `describe`). */
export const describeShipped: Describe;
/** Integer box clipped to the image; null when nothing of it lies inside. */
export function clipBox(box: FaceBox, width: number, height: number): FaceBox | null;
/** Adds `weight` times the bilinear RGB sample at (px, py), clamped to the image, to acc[0..2]. */
export function addBilinear(
  rgb: Uint8Array,
  width: number,
  height: number,
  px: number,
  py: number,
  weight: number,
  acc: number[],
): void;
