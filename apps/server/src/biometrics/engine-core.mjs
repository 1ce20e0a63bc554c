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
    }
  } finally {
    frame.dispose();
    crop.dispose();
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
  /** @param {number} px @param {number} py */
  const sample = (px, py) => {
    const x = Math.min(Math.max(px, 0), width - 1);
    const y = Math.min(Math.max(py, 0), height - 1);
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const x1 = Math.min(x0 + 1, width - 1);
    const y1 = Math.min(y0 + 1, height - 1);
    const fx = x - x0;
    const fy = y - y0;
    /** @param {number} xx @param {number} yy */
    const grey = (xx, yy) => {
      const o = (yy * width + xx) * 3;
      return 0.299 * (rgb[o] ?? 0) + 0.587 * (rgb[o + 1] ?? 0) + 0.114 * (rgb[o + 2] ?? 0);
    };
    const top = grey(x0, y0) * (1 - fx) + grey(x1, y0) * fx;
    const bottom = grey(x0, y1) * (1 - fx) + grey(x1, y1) * fx;
    return top * (1 - fy) + bottom * fy;
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

    const aligned = clipBox(landmarks.align(null, { useDlibAlignment: true }), width, height);
    if (!aligned) return { ok: false, code: 'FACE_NOT_FOUND' };
    const chip = brightened(
      tf.slice(input, [aligned.y, aligned.x, 0], [aligned.height, aligned.width, 3]),
      luminance,
      options.brightenFacesTo,
    );
    /** @type {Float32Array} */
    let descriptor;
    try {
      descriptor = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(chip);
    } finally {
      chip.dispose();
    }

    return {
      ok: true,
      face: {
        descriptor: Array.from(descriptor),
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
