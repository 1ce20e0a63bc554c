// @ts-check
/**
 * The descriptor variants the studies compare, which the server never runs
 * (descriptor-study.ts; the benchmark's baseline): the face rotated and
 * scaled onto the 150x150 mean-face chip dlib trained the recognition net
 * on, the mirror-image average, means over more crops of the face box than
 * the engine uses, and the plain face-api pipeline. Each variant plugs into
 * the production pipeline (engine-core.mjs) through analyzeFace's
 * `describe` argument, so detection, landmarks and quality gates are the
 * server's own.
 */
import { createRequire } from 'node:module';
import { cutBoxCrops, describeChips } from '../../apps/server/src/biometrics/engine-core.mjs';
import {
  addBilinear,
  similarityTransform,
} from '../../apps/server/src/biometrics/mobilefacenet.mjs';
import { faceapi, loadFaceModels, tf } from '../../apps/server/src/biometrics/face-runtime.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('sharp').default} */
const sharp = require('sharp');

/** @typedef {import('../../apps/server/src/biometrics/engine-types').DescribeContext} DescribeContext */
/** @typedef {import('../../apps/server/src/biometrics/engine-types').Describe} Describe */
/** @typedef {{ alignment: 'box' | 'chip'; crops: number; mirror: boolean }} DescriptorVariant */

/**
 * Mean face of the recognition net's training chips: positions of 68-point
 * landmarks 17..67 in a unit square, as dlib's get_face_chip_details defines
 * them (dlib, Boost Software License). The 128-d network in face-api is
 * dlib's ResNet, trained on 150x150 chips aligned to these points with 25%
 * padding, so feeding it the same alignment (rotation included) matters.
 */
const MEAN_FACE_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991,
  0.98004, 0.490127, 0.490127, 0.490127, 0.490127, 0.36688, 0.426036, 0.490127, 0.554217, 0.613373,
  0.121737, 0.187122, 0.265825, 0.334606, 0.260918, 0.182743, 0.645647, 0.714428, 0.793132,
  0.858516, 0.79751, 0.719335, 0.254149, 0.340985, 0.428858, 0.490127, 0.551395, 0.639268, 0.726104,
  0.642159, 0.556721, 0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127, 0.552157,
  0.689874, 0.553364, 0.490127, 0.42689,
];
const MEAN_FACE_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915,
  0.106454, 0.203352, 0.307009, 0.409805, 0.515625, 0.587326, 0.609345, 0.628106, 0.609345,
  0.587326, 0.216423, 0.178758, 0.179852, 0.231733, 0.245099, 0.244077, 0.231733, 0.179852,
  0.178758, 0.216423, 0.244077, 0.245099, 0.780233, 0.745405, 0.727388, 0.742578, 0.727388,
  0.745405, 0.780233, 0.864805, 0.902192, 0.909281, 0.902192, 0.864805, 0.784792, 0.778746,
  0.785343, 0.778746, 0.784792, 0.824182, 0.831803, 0.824182,
];
/** Side of the chip the recognition net takes, and the padding it was trained with. */
const CHIP_SIZE = 150;
const CHIP_PADDING = 0.25;

/**
 * Landmarks used to place the chip: nose, eyes and upper lip (17..67 without
 * the eyebrows and the lower lip, which move with expression), as in dlib.
 * @param {number} i
 */
function usedForAlignment(i) {
  return i >= 27 && !(i >= 55 && i <= 59) && !(i >= 65 && i <= 67);
}

/**
 * Least-squares similarity transform (rotation, uniform scale, translation;
 * no reflection) taking chip coordinates to image coordinates, fitted on the
 * landmarks against the mean face.
 * @param {{ x: number; y: number }[]} points 68 landmarks in image pixels
 * @returns {{ a: number; b: number; tx: number; ty: number }} image = [a -b; b a] chip + t
 */
export function chipTransform(points) {
  /** @type {Array<[number, number]>} */
  const chip = [];
  /** @type {Array<[number, number]>} */
  const image = [];
  for (let i = 17; i < 68; i++) {
    if (!usedForAlignment(i)) continue;
    const p = points[i];
    const mx = MEAN_FACE_X[i - 17];
    const my = MEAN_FACE_Y[i - 17];
    if (!p || mx === undefined || my === undefined) continue;
    chip.push([
      ((CHIP_PADDING + mx) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
      ((CHIP_PADDING + my) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
    ]);
    image.push([p.x, p.y]);
  }
  // The engine's own least-squares fit (Umeyama), chip coordinates onto image pixels.
  const [a, b, tx, ty] = similarityTransform(chip, image);
  return { a, b, tx, ty };
}

/**
 * The 150x150 RGB chip the recognition net expects, sampled from the image
 * through `chipTransform`. When a chip pixel covers several image pixels
 * (faces larger than the chip) several bilinear taps are averaged so the
 * chip is not aliased; outside the image the nearest edge pixel is used.
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {{ a: number; b: number; tx: number; ty: number }} t
 * @returns {Int32Array}
 */
export function extractChip(rgb, width, height, t) {
  const out = new Int32Array(CHIP_SIZE * CHIP_SIZE * 3);
  const scale = Math.hypot(t.a, t.b);
  const taps = Math.max(1, Math.min(8, Math.ceil(scale)));
  const weight = 1 / (taps * taps);
  const acc = [0, 0, 0];
  for (let v = 0; v < CHIP_SIZE; v++) {
    for (let u = 0; u < CHIP_SIZE; u++) {
      acc[0] = 0;
      acc[1] = 0;
      acc[2] = 0;
      for (let j = 0; j < taps; j++) {
        const cy = v + (j + 0.5) / taps - 0.5;
        for (let i = 0; i < taps; i++) {
          const cx = u + (i + 0.5) / taps - 0.5;
          addBilinear(
            rgb,
            width,
            height,
            t.a * cx - t.b * cy + t.tx,
            t.b * cx + t.a * cy + t.ty,
            weight,
            acc,
          );
        }
      }
      const o = (v * CHIP_SIZE + u) * 3;
      out[o] = Math.round(acc[0] ?? 0);
      out[o + 1] = Math.round(acc[1] ?? 0);
      out[o + 2] = Math.round(acc[2] ?? 0);
    }
  }
  return out;
}

/**
 * Crops of the face box whose descriptors are averaged (`jitterCrops` of
 * them, in this order): [shift x, shift y, scale], shifts as fractions of the
 * box. The first three are the engine's BOX_CROPS; the study compares means
 * over 1, 3, 5 and 7 of them.
 * @type {Array<[number, number, number]>}
 */
export const STUDY_CROPS = [
  [0, 0, 1],
  [0, 0, 0.95],
  [0, 0, 1.05],
  [0.03, 0, 1],
  [-0.03, 0, 1],
  [0, 0.03, 1],
  [0, -0.03, 1],
];

/**
 * A study variant of the descriptor: `alignment` 'box' (the upright box
 * face-api cuts, `crops` of STUDY_CROPS averaged) or 'chip' (the rotated
 * dlib chip), with or without the mirror images averaged in.
 * @param {DescriptorVariant} variant
 * @returns {Describe}
 */
export function describeVariant(variant) {
  return async (face) => {
    /** @type {any[] | null} */
    let chips;
    if (variant.alignment === 'box') {
      chips = cutBoxCrops(face, STUDY_CROPS.slice(0, Math.max(1, variant.crops)));
    } else {
      chips = [
        tf.tensor3d(
          extractChip(face.rgb, face.width, face.height, chipTransform(face.points)),
          [CHIP_SIZE, CHIP_SIZE, 3],
          'int32',
        ),
      ];
    }
    if (!chips) return null;
    if (variant.mirror) {
      try {
        chips = [...chips, ...chips.map((chip) => tf.reverse(chip, 1))];
      } catch (error) {
        for (const chip of chips) chip.dispose();
        throw error;
      }
    }
    return describeChips(chips, face);
  };
}

/**
 * The plain pipeline as the library documents it (tiny face detector,
 * 68 landmarks, recognition net; highest-scoring face; no quality gates).
 * Here so that the studies and the benchmark measure the baseline with the
 * same decoder, backend and model files as our engine.
 * @param {Uint8Array} bytes
 * @param {{ inputSize: number; scoreThreshold: number }} options
 * @returns {Promise<number[] | null>}
 */
export async function baselineDescriptor(bytes, options) {
  await loadFaceModels();
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = tf.tensor3d(data, [info.height, info.width, 3], 'int32');
  try {
    const result = await faceapi
      .detectSingleFace(input, new faceapi.TinyFaceDetectorOptions(options))
      .withFaceLandmarks()
      .withFaceDescriptor();
    return result ? Array.from(/** @type {Float32Array} */ (result.descriptor)) : null;
  } finally {
    input.dispose();
  }
}
