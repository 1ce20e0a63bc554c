/** Types of mobilefacenet.mjs, which stays plain JavaScript so workers load it untransformed. */

export const MOBILEFACENET_DIR: string;
export const MOBILEFACENET_LENGTH: number;
export const MOBILEFACENET_SIZE: number;
/** Number of PReLU slope constants whose sign the repair flips (33). */
export const PRELU_SLOPES: number;
/** Number of depthwise convolutions whose fused Relu the repair takes out (16). */
export const FUSED_RELUS: number;
/** ArcFace's five reference points (eyes, nose tip, mouth corners) in the 112x112 crop. */
export const ARCFACE_POINTS: ReadonlyArray<readonly number[]>;

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
/** Repairs the shipped export in memory; throws unless exactly 33 slopes and 16 Relus were found. */
export function repairMobileFaceNet(modelJson: unknown, weightData: ArrayBuffer): RepairedModel;
/** Reads the vendored files (apps/server/models/mobilefacenet) and repairs them. */
export function readRepairedMobileFaceNet(dir?: string): RepairedModel;
/** The repaired model as a tfjs graph model. */
export function loadMobileFaceNet(tf: unknown): Promise<unknown>;
/** Least-squares similarity transform [a, b, tx, ty]: x' = a x - b y + tx, y' = b x + a y + ty. */
export function similarityTransform(
  from: ReadonlyArray<readonly number[]>,
  to: ReadonlyArray<readonly number[]>,
): [number, number, number, number];
/** Eye centres, nose tip and mouth corners from face-api's 68 landmarks. */
export function fivePoints(points: ReadonlyArray<{ x: number; y: number }>): number[][];
/** The 112x112 aligned crop: RGB, (x - 127.5) / 128, HWC. */
export function alignedCrop(
  rgb: Uint8Array,
  width: number,
  height: number,
  points: ReadonlyArray<{ x: number; y: number }>,
  gain?: number,
): Float32Array;
/** 192-d L2-normalised embeddings of aligned crops, in one batch. */
export function embedCrops(tf: unknown, model: unknown, crops: Float32Array[]): Promise<number[][]>;
/** The aligned crop mirrored left to right (same layout). */
export function mirroredCrop(crop: Float32Array): Float32Array;
/** The engine's descriptor of an aligned crop: its embedding and its mirror's, summed, L2-normalised. */
export function embedFace(tf: unknown, model: unknown, crop: Float32Array): Promise<number[]>;
