// @ts-check
/**
 * The face library and its three networks, loaded once per thread:
 * face-api's node-wasm build on TensorFlow.js's wasm backend, with the
 * weights shipped in the package's own model/ folder (no network, no
 * download), plus MobileFaceNet from apps/server/models/mobilefacenet
 * (vendored, repaired at load: mobilefacenet.mjs). engine-core.mjs runs the pipeline on it. Plain JavaScript for
 * the reason given there: workers load it without a TypeScript loader.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FACE_API_DIR, packageDir } from './engine-constants.mjs';
import { loadMobileFaceNet, MOBILEFACENET_SIZE } from './mobilefacenet.mjs';
import { registerNarrowConcat } from './wasm-concat.mjs';

const require = createRequire(import.meta.url);

const MODEL_DIR = path.join(FACE_API_DIR, 'model');
// The package's exports do not expose the node-wasm build by subpath.
/** @type {any} */
export const faceapi = require(path.join(FACE_API_DIR, 'dist', 'face-api.node-wasm.js'));
/** @type {any} */
export const tf = faceapi.tf;

/** Crops of a face the recognition net is warmed with, in one batch (the engine sends 3). */
const WARM_BATCH = 3;

/** @type {Promise<void> | null} */
let modelsLoading = null;

/** The repaired MobileFaceNet graph model, once loadFaceModels has resolved. */
/** @type {any} */
let mobileFaceNetModel = null;

/** The loaded MobileFaceNet (mobilefacenet.mjs); throws before loadFaceModels resolved. */
export function mobileFaceNet() {
  if (!mobileFaceNetModel) throw new Error('MobileFaceNet ainda não foi carregado.');
  return mobileFaceNetModel;
}

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
  const aligned = tf.zeros([1, MOBILEFACENET_SIZE, MOBILEFACENET_SIZE, 3], 'float32');
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
      await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(
        Array.from({ length: WARM_BATCH }, () => crop),
      );
      tf.dispose(mobileFaceNet().execute(aligned, 'embeddings'));
    }
  } finally {
    frame.dispose();
    crop.dispose();
    aligned.dispose();
  }
}

/**
 * Initialises the wasm backend, face-api's three networks and MobileFaceNet
 * (repaired at load, mobilefacenet.mjs) once per thread; tfjs
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
    registerNarrowConcat(tf);
    loadNet(faceapi.nets.tinyFaceDetector, 'tiny_face_detector_model');
    loadNet(faceapi.nets.faceLandmark68Net, 'face_landmark_68_model');
    loadNet(faceapi.nets.faceRecognitionNet, 'face_recognition_model');
    mobileFaceNetModel = await loadMobileFaceNet(tf);
    await warmUp(warmInputSizes);
  })();
  modelsLoading.catch(() => {
    modelsLoading = null;
  });
  return modelsLoading;
}
