// @ts-check
/**
 * The face pipeline itself, in plain JavaScript on purpose: the same file runs
 * on the main thread (through face-engine.ts) and inside piscina workers,
 * where no TypeScript loader is present (vitest's workers and plain
 * worker_threads load it as is). Types for TypeScript callers live in
 * engine-core.d.mts; keep the two in step.
 *
 * It never throws for a bad capture: it returns a stable code that the
 * TypeScript side turns into an AppError with a pt-BR message, because
 * Error objects do not survive the trip back from a worker intact.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** @typedef {import('./engine-core.d.mts').FaceCoreOptions} FaceCoreOptions */
/** @typedef {import('./engine-core.d.mts').CoreResult} CoreResult */
/** @typedef {import('./engine-core.d.mts').FaceBox} FaceBox */

/**
 * Directory of an installed package. Some packages' `exports` maps hide
 * their package.json or the builds we need, so fall back to walking up from
 * the resolved entry point.
 * @param {string} name
 * @returns {string}
 */
function packageDir(name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    let dir = path.dirname(require.resolve(name));
    while (!fs.existsSync(path.join(dir, 'package.json'))) {
      const parent = path.dirname(dir);
      if (parent === dir) throw new Error(`package.json de ${name} não encontrado`);
      dir = parent;
    }
    return dir;
  }
}

const FACE_API_DIR = packageDir('@vladmandic/face-api');
const MODEL_DIR = path.join(FACE_API_DIR, 'model');
/** Installed face-api version: part of every descriptor version (face-engine.ts). */
export const FACE_API_VERSION = /** @type {string} */ (
  JSON.parse(fs.readFileSync(path.join(FACE_API_DIR, 'package.json'), 'utf8')).version
);
// The package's exports do not expose the node-wasm build by subpath.
/** @type {any} */
const faceapi = require(path.join(FACE_API_DIR, 'dist', 'face-api.node-wasm.js'));
/** @type {any} */
const tf = faceapi.tf;
/** @type {typeof import('sharp').default} */
const sharp = require('sharp');

/** Side of the largest image the detector is given; matches the upload normaliser. */
const MAX_ANALYSIS_SIDE = 1280;
/**
 * Side of the grey patch the quality gates look at: small enough that the
 * face is downsampled in almost every capture, so sharpness compares faces
 * of different sizes on one scale.
 */
const QUALITY_PATCH = 64;

/** @type {Promise<void> | null} */
let modelsLoading = null;

/**
 * Loads one network from the weights shipped in the package. Loading by
 * file:// URL fails under the wasm build, so manifest and shards are read
 * with fs and decoded here.
 * @param {any} net
 * @param {string} manifestName
 */
function loadNet(net, manifestName) {
  /** @type {Array<{ paths: string[]; weights: unknown[] }>} */
  const manifest = JSON.parse(
    fs.readFileSync(path.join(MODEL_DIR, `${manifestName}-weights_manifest.json`), 'utf8'),
  );
  const specs = [];
  const shards = [];
  for (const group of manifest) {
    specs.push(...group.weights);
    for (const shard of group.paths) shards.push(fs.readFileSync(path.join(MODEL_DIR, shard)));
  }
  const all = Buffer.concat(shards);
  const weights = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  net.loadFromWeightMap(tf.io.decodeWeights(weights, specs));
}

/**
 * Runs every network twice on blank inputs of capture-like sizes. The first
 * inferences grow the wasm heap and leave V8 to optimise the JavaScript
 * around the kernels; measured here without it, the first real capture
 * took about twice the steady ~150 ms.
 * @param {number[]} detectorInputSizes
 */
async function warmUp(detectorInputSizes) {
  const frame = tf.zeros([400, 640, 3], 'int32');
  const crop = tf.zeros([240, 240, 3], 'int32');
  const chip = tf.zeros([CHIP_SIZE, CHIP_SIZE, 3], 'int32');
  try {
    for (let round = 0; round < 2; round++) {
      for (const inputSize of detectorInputSizes) {
        await faceapi.nets.tinyFaceDetector.locateFaces(
          frame,
          new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: 0.5 }),
        );
      }
      await faceapi.nets.faceLandmark68Net.detectLandmarks(crop);
      await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(crop);
      await faceapi.nets.faceRecognitionNet.computeFaceDescriptor([chip, chip]);
    }
  } finally {
    frame.dispose();
    crop.dispose();
    chip.dispose();
  }
}

/**
 * Initialises the wasm backend and the three networks once per thread; tfjs
 * keeps one global backend per thread, so this is a per-thread singleton.
 * @param {number[]} [warmInputSizes] detector sizes to warm (those the engine will use)
 * @returns {Promise<void>}
 */
export function loadFaceModels(warmInputSizes = [416]) {
  modelsLoading ??= (async () => {
    // A plain directory path ending in '/': a file:// URL with a host fails here.
    tf.setWasmPaths(path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep);
    const ok = await tf.setBackend('wasm');
    if (!ok) throw new Error('O backend wasm do TensorFlow.js não pôde ser iniciado.');
    await tf.ready();
    loadNet(faceapi.nets.tinyFaceDetector, 'tiny_face_detector_model');
    loadNet(faceapi.nets.faceLandmark68Net, 'face_landmark_68_model');
    loadNet(faceapi.nets.faceRecognitionNet, 'face_recognition_model');
    await warmUp(warmInputSizes);
  })();
  modelsLoading.catch(() => {
    modelsLoading = null;
  });
  return modelsLoading;
}

/**
 * Integer box clipped to the image, as tf.slice needs; null when nothing of
 * it lies inside the image.
 * @param {{ x: number; y: number; width: number; height: number }} box
 * @param {number} width
 * @param {number} height
 * @returns {FaceBox | null}
 */
function clipBox(box, width, height) {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const right = Math.min(width, Math.floor(box.x + box.width));
  const bottom = Math.min(height, Math.floor(box.y + box.height));
  if (right - x < 2 || bottom - y < 2) return null;
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * Adds `weight` times the bilinear sample of an RGB image at (x, y), clamped
 * to the image, to acc[0..2].
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {number} px
 * @param {number} py
 * @param {number} weight
 * @param {number[]} acc
 */
function addBilinear(rgb, width, height, px, py, weight, acc) {
  const x = Math.min(Math.max(px, 0), width - 1);
  const y = Math.min(Math.max(py, 0), height - 1);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, width - 1);
  const y1 = Math.min(y0 + 1, height - 1);
  const fx = x - x0;
  const fy = y - y0;
  const o00 = (y0 * width + x0) * 3;
  const o01 = (y0 * width + x1) * 3;
  const o10 = (y1 * width + x0) * 3;
  const o11 = (y1 * width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = (rgb[o00 + c] ?? 0) * (1 - fx) + (rgb[o01 + c] ?? 0) * fx;
    const bottom = (rgb[o10 + c] ?? 0) * (1 - fx) + (rgb[o11 + c] ?? 0) * fx;
    acc[c] = (acc[c] ?? 0) + weight * (top * (1 - fy) + bottom * fy);
  }
}

/**
 * Grey patch of a region resampled to a fixed size, so that brightness and
 * sharpness are judged on one scale whatever the face's size in the photo.
 * Several bilinear taps per output pixel average away aliasing when the
 * region is larger than the patch.
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {FaceBox} region
 * @param {number} size
 */
function greyPatch(rgb, width, height, region, size) {
  const out = new Float64Array(size * size);
  const stepX = region.width / size;
  const stepY = region.height / size;
  const taps = Math.max(1, Math.ceil(Math.max(stepX, stepY)));
  const rgbSample = [0, 0, 0];
  /** @param {number} px @param {number} py */
  const sample = (px, py) => {
    rgbSample.fill(0);
    addBilinear(rgb, width, height, px, py, 1, rgbSample);
    return 0.299 * (rgbSample[0] ?? 0) + 0.587 * (rgbSample[1] ?? 0) + 0.114 * (rgbSample[2] ?? 0);
  };
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      let acc = 0;
      for (let j = 0; j < taps; j++) {
        for (let i = 0; i < taps; i++) {
          acc += sample(
            region.x + (u + (i + 0.5) / taps) * stepX - 0.5,
            region.y + (v + (j + 0.5) / taps) * stepY - 0.5,
          );
        }
      }
      out[v * size + u] = acc / (taps * taps);
    }
  }
  return out;
}

/**
 * Mean luminance and sharpness of a grey patch. Sharpness is the variance of
 * the Laplacian rescaled as if the patch had mean grey 128: the Laplacian
 * grows with brightness, and without this a dim but sharp face would be
 * reported as blurred instead of dark.
 * @param {Float64Array} patch
 * @param {number} size
 */
function patchStats(patch, size) {
  let sum = 0;
  for (const value of patch) sum += value;
  const luminance = sum / patch.length;
  let lapSum = 0;
  let lapSq = 0;
  let count = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const at = (/** @type {number} */ xx, /** @type {number} */ yy) => patch[yy * size + xx] ?? 0;
      const lap = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * at(x, y);
      lapSum += lap;
      lapSq += lap * lap;
      count++;
    }
  }
  const lapMean = lapSum / count;
  const variance = lapSq / count - lapMean * lapMean;
  return { luminance, sharpness: variance * (128 / Math.max(luminance, 1)) ** 2 };
}

/**
 * @param {{ x: number; y: number }[]} points
 */
function centre(points) {
  let x = 0;
  let y = 0;
  for (const p of points) {
    x += p.x;
    y += p.y;
  }
  return { x: x / points.length, y: y / points.length };
}

/**
 * @param {FaceBox} outer
 * @param {FaceBox} inner
 */
function containsCentreOf(outer, inner) {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return (
    cx >= outer.x && cx <= outer.x + outer.width && cy >= outer.y && cy <= outer.y + outer.height
  );
}

/**
 * An under-exposed face scaled up so that its landmark region reaches
 * `target` mean grey; anything already that bright is returned as is. The
 * recognition net is not invariant to exposure: a darkened capture drifts
 * towards other people's faces, not only away from its own. Takes ownership
 * of `chip` (disposes it when it returns a new tensor).
 * @param {any} chip int32 [h, w, 3]
 * @param {number} luminance FaceQuality.luminance of the face
 * @param {number} target 0 turns this off
 * @returns {any}
 */
function brightened(chip, luminance, target) {
  if (!(target > 0) || luminance >= target) return chip;
  const gain = target / Math.max(luminance, 1);
  const out = tf.tidy(() => tf.clipByValue(tf.mul(tf.cast(chip, 'float32'), gain), 0, 255));
  chip.dispose();
  return out;
}

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
  /** @type {Array<[number, number, number, number]>} chip x, chip y, image x, image y */
  const pairs = [];
  for (let i = 17; i < 68; i++) {
    if (!usedForAlignment(i)) continue;
    const p = points[i];
    const mx = MEAN_FACE_X[i - 17];
    const my = MEAN_FACE_Y[i - 17];
    if (!p || mx === undefined || my === undefined) continue;
    pairs.push([
      ((CHIP_PADDING + mx) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
      ((CHIP_PADDING + my) / (2 * CHIP_PADDING + 1)) * CHIP_SIZE,
      p.x,
      p.y,
    ]);
  }
  const n = pairs.length;
  let sx = 0;
  let sy = 0;
  let dx = 0;
  let dy = 0;
  for (const [x, y, u, v] of pairs) {
    sx += x;
    sy += y;
    dx += u;
    dy += v;
  }
  sx /= n;
  sy /= n;
  dx /= n;
  dy /= n;
  // Closed form for a 2-D similarity: with centred points, a = sum(x.u + y.v) / sum(|x|^2)
  // and b = sum(x.v - y.u) / sum(|x|^2).
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (const [x, y, u, v] of pairs) {
    const cx = x - sx;
    const cy = y - sy;
    const cu = u - dx;
    const cv = v - dy;
    dot += cx * cu + cy * cv;
    cross += cx * cv - cy * cu;
    norm += cx * cx + cy * cy;
  }
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: dx - (a * sx - b * sy), ty: dy - (b * sx + a * sy) };
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
 * box. The descriptor moves by ~0.08 when the box moves by a pixel; the mean
 * over a few crops is steadier (descriptor-study.ts).
 * @type {Array<[number, number, number]>}
 */
const JITTER = [
  [0, 0, 1],
  [0, 0, 0.95],
  [0, 0, 1.05],
  [0.03, 0, 1],
  [-0.03, 0, 1],
  [0, 0.03, 1],
  [0, -0.03, 1],
];

/**
 * The 128-d descriptor of a face: the mean of the descriptors of its crops
 * (and, with `mirror`, of their mirror images), in one batch through the net.
 * @param {any[]} chips int32 or float32 [h, w, 3]
 * @param {boolean} mirror
 * @returns {Promise<number[]>}
 */
async function describe(chips, mirror) {
  /** @type {any[]} */
  const flipped = [];
  try {
    if (mirror) for (const chip of chips) flipped.push(tf.reverse(chip, 1));
    const batch = [...chips, ...flipped];
    const out = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(
      batch.length === 1 ? batch[0] : batch,
    );
    /** @type {Float32Array[]} */
    const all = Array.isArray(out) ? out : [out];
    const mean = new Array(128).fill(0);
    for (const d of all) for (let i = 0; i < 128; i++) mean[i] += (d[i] ?? 0) / all.length;
    return mean;
  } finally {
    for (const f of flipped) f.dispose();
  }
}

/**
 * @param {Uint8Array} bytes
 * @param {number} maxInputPixels
 */
async function decode(bytes, maxInputPixels) {
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: maxInputPixels,
      failOn: 'warning',
    })
      .autoOrient()
      .resize({
        width: MAX_ANALYSIS_SIDE,
        height: MAX_ANALYSIS_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return null;
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ...info };
  } catch {
    return null;
  }
}

/**
 * Runs the whole pipeline on one image: decode, detect (retrying other
 * detector scales only when nothing was found), insist on exactly one face,
 * landmarks, quality gates on the face region, then the 128-d descriptor.
 * @param {Uint8Array} bytes
 * @param {FaceCoreOptions} options
 * @returns {Promise<CoreResult>}
 */
export async function analyzeFace(bytes, options) {
  await loadFaceModels(options.detectorInputSizes);
  const started = performance.now();
  const image = await decode(bytes, options.maxInputPixels);
  if (!image) return { ok: false, code: 'IMAGE_INVALID' };
  const { rgb, width, height } = image;
  const input = tf.tensor3d(rgb, [height, width, 3], 'int32');
  try {
    /** @type {Array<{ score: number; box: FaceBox }>} */
    let faces = [];
    let usedInputSize = 0;
    for (const inputSize of options.detectorInputSizes) {
      const detections = await faceapi.nets.tinyFaceDetector.locateFaces(
        input,
        new faceapi.TinyFaceDetectorOptions({
          inputSize,
          scoreThreshold: options.minDetectionScore,
        }),
      );
      faces = detections.flatMap((/** @type {any} */ d) => {
        const box = clipBox(d.box, width, height);
        return box ? [{ score: d.score, box }] : [];
      });
      usedInputSize = inputSize;
      if (faces.length > 0) break;
    }
    if (faces.length === 0) return { ok: false, code: 'FACE_NOT_FOUND' };

    faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
    const main = /** @type {{ score: number; box: FaceBox }} */ (faces[0]);
    // A second box centred inside the main one is the detector boxing the
    // same head twice; a far smaller one is background clutter, not a
    // second person close enough to matter.
    const others = faces
      .slice(1)
      .filter(
        (f) =>
          !containsCentreOf(main.box, f.box) &&
          f.box.width >= options.secondaryFaceMinRatio * main.box.width,
      );
    if (others.length > 0) return { ok: false, code: 'FACE_MULTIPLE', faces: faces.length };

    const faceCrop = tf.slice(
      input,
      [main.box.y, main.box.x, 0],
      [main.box.height, main.box.width, 3],
    );
    /** @type {any} */
    let landmarks;
    try {
      landmarks = (await faceapi.nets.faceLandmark68Net.detectLandmarks(faceCrop)).shiftBy(
        main.box.x,
        main.box.y,
      );
    } finally {
      faceCrop.dispose();
    }
    /** @type {{ x: number; y: number }[]} */
    const points = landmarks.positions;

    const leftEye = centre(points.slice(36, 42));
    const rightEye = centre(points.slice(42, 48));
    const mouth = centre(points.slice(48, 68));
    const eyes = { x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2 };
    // Eye-to-mouth distance shrinks little when the head turns, unlike the
    // distance between the eyes, so "too small" does not fire on a turned
    // head. The 1.25 only fixes the unit: on frontal dev faces this size
    // reads about 1.2x the eye distance, and minFaceSizePx was measured in it.
    const faceSizePx = Math.max(
      Math.hypot(rightEye.x - leftEye.x, rightEye.y - leftEye.y),
      Math.hypot(mouth.x - eyes.x, mouth.y - eyes.y) * 1.25,
    );

    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const p of points) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    }
    const region = clipBox(
      { x: minX, y: minY, width: maxX - minX, height: maxY - minY },
      width,
      height,
    );
    if (!region) return { ok: false, code: 'FACE_NOT_FOUND' };
    const { luminance, sharpness } = patchStats(
      greyPatch(rgb, width, height, region, QUALITY_PATCH),
      QUALITY_PATCH,
    );
    const quality = { faceSizePx, luminance, sharpness };
    if (faceSizePx < options.minFaceSizePx) return { ok: false, code: 'FACE_TOO_SMALL', quality };
    if (luminance < options.minLuminance) return { ok: false, code: 'FACE_TOO_DARK', quality };
    if (sharpness < options.minSharpness) return { ok: false, code: 'FACE_BLURRED', quality };

    /** @type {any[]} */
    const chips = [];
    /** @param {any} chip */
    const keep = (chip) => {
      chips.push(chip);
      // brightened() disposes its input only when it returns a new tensor.
      chips[chips.length - 1] = brightened(chip, luminance, options.brightenFacesTo);
    };
    /** @type {number[]} */
    let descriptor;
    try {
      if (options.alignment === 'box') {
        const box = landmarks.align(null, { useDlibAlignment: true });
        const crops = JITTER.slice(0, Math.max(1, options.jitterCrops)).map(([dx, dy, ds]) =>
          clipBox(
            {
              x: box.x + box.width * dx - (box.width * ds - box.width) / 2,
              y: box.y + box.height * dy - (box.height * ds - box.height) / 2,
              width: box.width * ds,
              height: box.height * ds,
            },
            width,
            height,
          ),
        );
        if (crops.some((crop) => !crop)) return { ok: false, code: 'FACE_NOT_FOUND' };
        for (const crop of /** @type {FaceBox[]} */ (crops)) {
          keep(tf.slice(input, [crop.y, crop.x, 0], [crop.height, crop.width, 3]));
        }
      } else {
        keep(
          tf.tensor3d(
            extractChip(rgb, width, height, chipTransform(points)),
            [CHIP_SIZE, CHIP_SIZE, 3],
            'int32',
          ),
        );
      }
      descriptor = await describe(chips, options.mirrorAverage);
    } finally {
      for (const chip of chips) chip.dispose();
    }

    return {
      ok: true,
      face: {
        descriptor,
        landmarks: points.flatMap((p) => [p.x, p.y]),
        box: main.box,
        detectionScore: main.score,
        detectorInputSize: usedInputSize,
        imageWidth: width,
        imageHeight: height,
        quality,
        elapsedMs: performance.now() - started,
      },
    };
  } finally {
    input.dispose();
  }
}

/**
 * The plain pipeline as the library documents it (tiny face detector,
 * 68 landmarks, recognition net; highest-scoring face; no quality gates).
 * Kept here only so the benchmark measures the baseline with the same
 * decoder, backend and model files as our engine.
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

/** Number of live tensors; tests use it to prove nothing leaks per call. */
export function liveTensorCount() {
  return /** @type {number} */ (tf.memory().numTensors);
}
