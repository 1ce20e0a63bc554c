/** Types of study-engine.mjs (plain JavaScript, like the engine it plugs into). */
import type { Describe } from '../../src/biometrics/engine-core.mjs';

/** Similarity transform image = [a -b; b a] chip + t fitted from 68 landmarks to the mean-face chip. */
export type ChipTransform = { a: number; b: number; tx: number; ty: number };
export function chipTransform(points: { x: number; y: number }[]): ChipTransform;
export function extractChip(
  rgb: Uint8Array,
  width: number,
  height: number,
  transform: ChipTransform,
): Int32Array;
/** [shift x, shift y, scale] of the crops of the face box the study averages (the engine's 3 first). */
export const STUDY_CROPS: Array<[number, number, number]>;
export type DescriptorVariant = { alignment: 'box' | 'chip'; crops: number; mirror: boolean };
/** The descriptor of a study variant, for analyzeFace's `describe` argument. */
export function describeVariant(variant: DescriptorVariant): Describe;
/** The plain face-api pipeline (detector, landmarks, recognition net; no gates); null without a face. */
export function baselineDescriptor(
  bytes: Uint8Array,
  options: { inputSize: number; scoreThreshold: number },
): Promise<number[] | null>;
