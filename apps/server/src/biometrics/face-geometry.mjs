// @ts-check
/**
 * Pixel and box arithmetic of the face pipeline (engine-core.mjs): boxes
 * clipped to the image, the grey patch the quality gates judge and its
 * brightness and sharpness, centres of landmark runs. Plain JavaScript for
 * the same reason as the pipeline: it runs in workers without a TypeScript
 * loader.
 */
import { addBilinear } from './mobilefacenet.mjs';

/** @typedef {import('./engine-types').FaceBox} FaceBox */

/**
 * Integer box clipped to the image, as tf.slice needs; null when nothing of
 * it lies inside the image.
 * @param {{ x: number; y: number; width: number; height: number }} box
 * @param {number} width
 * @param {number} height
 * @returns {FaceBox | null}
 */
export function clipBox(box, width, height) {
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
export function greyPatch(rgb, width, height, region, size) {
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
export function patchStats(patch, size) {
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
export function centre(points) {
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
export function containsCentreOf(outer, inner) {
  const cx = inner.x + inner.width / 2;
  const cy = inner.y + inner.height / 2;
  return (
    cx >= outer.x && cx <= outer.x + outer.width && cy >= outer.y && cy <= outer.y + outer.height
  );
}
