// @ts-check
/**
 * The face pipeline itself, in plain JavaScript on purpose: the same file runs
 * on the main thread (through face-engine.ts) and inside piscina workers,
 * where no TypeScript loader is present (vitest's workers and plain
 * worker_threads load it as is). Its types are declared in engine-types.ts
 * and checked from the JSDoc (allowJs). Only what the server runs is here;
 * the descriptor variants of the studies live in
 * research/face/study-engine.mjs and reach the pipeline through the
 * `describe` argument of analyzeFace.
 *
 * It never throws for a bad capture: it returns a stable code that the
 * TypeScript side turns into an AppError with a pt-BR message, because
 * Error objects do not survive the trip back from a worker intact.
 */
import { createRequire } from 'node:module';
import { BOX_CROPS } from './engine-constants.mjs';
import { faceapi, loadFaceModels, mobileFaceNet, tf } from './face-runtime.mjs';
import { alignedCrop, embedFace } from './mobilefacenet.mjs';
import { centre, clipBox, containsCentreOf, greyPatch, patchStats } from './face-geometry.mjs';

export { loadFaceModels } from './face-runtime.mjs';
export { clipBox } from './face-geometry.mjs';

const require = createRequire(import.meta.url);

/** @typedef {import('./engine-types').FaceCoreOptions} FaceCoreOptions */
/** @typedef {import('./engine-types').CoreResult} CoreResult */
/** @typedef {import('./engine-types').FaceBox} FaceBox */
/** @typedef {import('./engine-types').DescribeContext} DescribeContext */
/** @typedef {import('./engine-types').Describe} Describe */

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
/**
 * Side of the grey thumbnail of the whole frame that the burst check
 * compares between consecutive frames (liveness.ts). Made here, from the
 * pixels the analysis decoded, so the burst check never decodes a frame.
 */
export const FRAME_THUMBNAIL_SIDE = 64;

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
 * The 128-d descriptor of a face as the mean of the descriptors of `chips`
 * (int32 or float32 [h, w, 3] tensors), in one batch through the net. Faces
 * darker than `options.brightenFacesTo` are brightened first. Takes
 * ownership of the chips: every one is disposed on every path.
 * @param {any[]} chips
 * @param {DescribeContext} face
 * @returns {Promise<number[]>}
 */
export async function describeChips(chips, face) {
  const batch = [...chips];
  try {
    for (let i = 0; i < batch.length; i++) {
      // brightened() disposes its input only when it returns a new tensor.
      batch[i] = brightened(batch[i], face.luminance, face.options.brightenFacesTo);
    }
    const out = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(
      batch.length === 1 ? batch[0] : batch,
    );
    /** @type {Float32Array[]} */
    const all = Array.isArray(out) ? out : [out];
    const mean = new Array(128).fill(0);
    for (const d of all) for (let i = 0; i < 128; i++) mean[i] += (d[i] ?? 0) / all.length;
    return mean;
  } finally {
    for (const chip of batch) chip.dispose();
  }
}

/**
 * Cuts `crops` of the upright face box face-api aligns from eyes and mouth,
 * as tensors the caller owns; null when a crop falls outside the image.
 * @param {DescribeContext} face
 * @param {ReadonlyArray<readonly [number, number, number]>} crops
 * @returns {any[] | null}
 */
export function cutBoxCrops(face, crops) {
  const box = face.landmarks.align(null, { useDlibAlignment: true });
  const regions = crops.map(([dx, dy, ds]) =>
    clipBox(
      {
        x: box.x + box.width * dx - (box.width * ds - box.width) / 2,
        y: box.y + box.height * dy - (box.height * ds - box.height) / 2,
        width: box.width * ds,
        height: box.height * ds,
      },
      face.width,
      face.height,
    ),
  );
  if (regions.some((region) => !region)) return null;
  /** @type {any[]} */
  const chips = [];
  try {
    for (const r of /** @type {FaceBox[]} */ (regions)) {
      chips.push(tf.slice(face.input, [r.y, r.x, 0], [r.height, r.width, 3]));
    }
  } catch (error) {
    for (const chip of chips) chip.dispose();
    throw error;
  }
  return chips;
}

/**
 * face-api's descriptor as the engine computes it (the default `describe` of
 * analyzeFace; exported for the studies that wrap it).
 * @type {Describe}
 */
export const describeShipped = async (face) => {
  const chips = cutBoxCrops(face, BOX_CROPS.slice(0, Math.max(1, face.options.jitterCrops)));
  return chips ? describeChips(chips, face) : null;
};

/**
 * The 192-d MobileFaceNet embedding of a face (L2-normalised): the frame
 * aligned on five landmarks to ArcFace's 112x112 layout, exposure-corrected
 * like the 128-d descriptor (faces darker than options.brightenFacesTo are
 * brightened to it), averaged with its mirror image (embedFace).
 * @param {DescribeContext} face
 * @returns {Promise<number[]>}
 */
export async function describeMobile(face) {
  return embedFace(tf, mobileFaceNet(), mobileCrop(face));
}

/**
 * MobileFaceNet's input for a face: the 112x112 ArcFace crop aligned on five
 * landmarks, brightened like the 128-d descriptor's chips.
 * @param {DescribeContext} face
 * @returns {Float32Array}
 */
export function mobileCrop(face) {
  const target = face.options.brightenFacesTo;
  const gain = target > 0 && face.luminance < target ? target / Math.max(face.luminance, 1) : 1;
  return alignedCrop(face.rgb, face.width, face.height, face.points, gain);
}

/**
 * The grey thumbnail of the whole frame (FRAME_THUMBNAIL_SIDE square,
 * stretched) from its decoded pixels.
 * @param {Uint8Array} rgb
 * @param {number} width
 * @param {number} height
 * @returns {Promise<Uint8Array>}
 */
async function frameThumbnail(rgb, width, height) {
  const data = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(FRAME_THUMBNAIL_SIDE, FRAME_THUMBNAIL_SIDE, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  // A copy of exactly these bytes: the result may travel back from a worker.
  return new Uint8Array(data);
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
 * landmarks, quality gates on the face region, then the 128-d descriptor
 * (the shipped box crops unless a study passes its own `describe`), the
 * 192-d MobileFaceNet embedding of the 5-point aligned face and the
 * frame's thumbnail for the burst check.
 * @param {Uint8Array} bytes
 * @param {FaceCoreOptions} options
 * @param {Describe} [describe]
 * @returns {Promise<CoreResult>}
 */
export async function analyzeFace(bytes, options, describe = describeShipped) {
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

    /** @type {DescribeContext} */
    const context = { input, width, height, landmarks, points, rgb, luminance, options };
    const descriptor = await describe(context);
    if (!descriptor) return { ok: false, code: 'FACE_NOT_FOUND' };
    const mobileDescriptor = await describeMobile(context);
    const thumbnail = await frameThumbnail(rgb, width, height);

    return {
      ok: true,
      face: {
        descriptor,
        mobileDescriptor,
        landmarks: points.flatMap((p) => [p.x, p.y]),
        box: main.box,
        detectionScore: main.score,
        detectorInputSize: usedInputSize,
        imageWidth: width,
        imageHeight: height,
        quality,
        thumbnail,
        elapsedMs: performance.now() - started,
      },
    };
  } finally {
    input.dispose();
  }
}
