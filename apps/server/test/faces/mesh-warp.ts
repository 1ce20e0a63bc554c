/**
 * Pixels for the synthetic takes: a piecewise-affine renderer (a textured
 * triangle mesh drawn far-to-near with back faces culled, the way a real
 * surface hides itself), whole-frame affine resampling, camera noise,
 * light changes, a seeded random source and JPEG in/out through sharp.
 * Plain loops over typed arrays: a 640x400 picture renders in milliseconds.
 */
import sharp from 'sharp';
import { type Triangle } from './delaunay';

export type RgbImage = { data: Uint8Array; width: number; height: number };

export function blankImage(width: number, height: number): RgbImage {
  return { data: new Uint8Array(width * height * 3), width, height };
}

export function cloneImage(image: RgbImage): RgbImage {
  return { data: new Uint8Array(image.data), width: image.width, height: image.height };
}

/** Seeded PRNG (mulberry32): every take is reproducible from its seed. */
export type Random = () => number;

export function hashSeed(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const ch of parts.join('\u0001')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const between = (random: Random, low: number, high: number) => low + (high - low) * random();

export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;

/** Bilinear sample at (x, y), the image's border extended beyond its edges. */
function sampleInto(image: RgbImage, x: number, y: number, out: Uint8Array, at: number, gain = 1) {
  const { data, width, height } = image;
  const cx = x < 0 ? 0 : x > width - 1 ? width - 1 : x;
  const cy = y < 0 ? 0 : y > height - 1 ? height - 1 : y;
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = x0 + 1 < width ? x0 + 1 : x0;
  const y1 = y0 + 1 < height ? y0 + 1 : y0;
  const fx = cx - x0;
  const fy = cy - y0;
  const i00 = (y0 * width + x0) * 3;
  const i10 = (y0 * width + x1) * 3;
  const i01 = (y1 * width + x0) * 3;
  const i11 = (y1 * width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = data[i00 + c]! + (data[i10 + c]! - data[i00 + c]!) * fx;
    const bottom = data[i01 + c]! + (data[i11 + c]! - data[i01 + c]!) * fx;
    const v = (top + (bottom - top) * fy) * gain;
    out[at + c] = v < 0 ? 0 : v > 255 ? 255 : v + 0.5;
  }
}

export type Mesh = {
  /** Where each vertex is in the source image, [x0, y0, x1, y1, ...]. */
  source: ArrayLike<number>;
  /** Where each vertex lands in the target. */
  target: ArrayLike<number>;
  /** Distance towards the camera per vertex: larger is nearer, drawn later. */
  depth: ArrayLike<number>;
  triangles: readonly Triangle[];
  /** Brightness factor per vertex (a page turned from the light), 1 without it. */
  shade?: ArrayLike<number>;
};

/**
 * Draws the source's triangles where the mesh says, far to near (painter's
 * order), so a near part (the nose, the near edge of a bent page) covers
 * what is behind it. Triangles whose winding flips between source and
 * target face away from the camera and are not drawn.
 */
export function drawMesh(source: RgbImage, target: RgbImage, mesh: Mesh): void {
  const { source: s, target: d, depth, triangles, shade } = mesh;
  const order = triangles
    .map((t, i) => ({ i, z: depth[t[0]]! + depth[t[1]]! + depth[t[2]]! }))
    .sort((a, b) => a.z - b.z);
  const { width, height, data } = target;
  const at = (points: ArrayLike<number>, k: number) =>
    [points[2 * k]!, points[2 * k + 1]!] as const;
  for (const { i } of order) {
    const [a, b, c] = triangles[i]!;
    const [ax, ay] = at(d, a);
    const [bx, by] = at(d, b);
    const [cx, cy] = at(d, c);
    const [sax, say] = at(s, a);
    const [sbx, sby] = at(s, b);
    const [scx, scy] = at(s, c);
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    const sourceArea = (sbx - sax) * (scy - say) - (scx - sax) * (sby - say);
    if (Math.abs(area) < 1e-6 || area * sourceArea <= 0) continue;
    // Barycentric weights of b and c as affine functions of the target pixel.
    const wbx = (cy - ay) / area;
    const wby = -(cx - ax) / area;
    const wcx = -(by - ay) / area;
    const wcy = (bx - ax) / area;
    const ga = shade ? shade[a]! : 1;
    const gb = shade ? shade[b]! - ga : 0;
    const gc = shade ? shade[c]! - ga : 0;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
    const eps = -1e-7;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const wb = wbx * (x - ax) + wby * (y - ay);
        const wc = wcx * (x - ax) + wcy * (y - ay);
        if (wb < eps || wc < eps || wb + wc > 1 - eps) continue;
        const sx = sax + (sbx - sax) * wb + (scx - sax) * wc;
        const sy = say + (sby - say) * wb + (scy - say) * wc;
        sampleInto(source, sx, sy, data, (y * width + x) * 3, ga + gb * wb + gc * wc);
      }
    }
  }
}

/** 2x3 affine matrix [a, b, c, d, e, f]: x' = a x + b y + c, y' = d x + e y + f. */
export type Affine = readonly [number, number, number, number, number, number];

/** Similarity/affine about a centre: scale, rotation (degrees), shear, then shift. */
export function affineAbout(
  centre: readonly [number, number],
  options: {
    scaleX?: number;
    scaleY?: number;
    degrees?: number;
    shearX?: number;
    shearY?: number;
    dx?: number;
    dy?: number;
  },
): Affine {
  const { scaleX = 1, scaleY = 1, degrees = 0, shearX = 0, shearY = 0, dx = 0, dy = 0 } = options;
  const r = (degrees * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  // Rotation x shear x scale.
  const m00 = scaleX * (cos - sin * shearY);
  const m01 = scaleY * (cos * shearX - sin);
  const m10 = scaleX * (sin + cos * shearY);
  const m11 = scaleY * (sin * shearX + cos);
  const [px, py] = centre;
  return [m00, m01, px + dx - m00 * px - m01 * py, m10, m11, py + dy - m10 * px - m11 * py];
}

export function invertAffine(m: Affine): Affine {
  const [a, b, c, d, e, f] = m;
  const det = a * e - b * d;
  const [ia, ib, id, ie] = [e / det, -b / det, -d / det, a / det];
  return [ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f)];
}

/**
 * A `width` x `height` image whose pixel (x, y) is the source's at
 * `toSource(x, y)`, the source's border extended beyond its edges.
 */
export function resampleAffine(
  source: RgbImage,
  toSource: Affine,
  width: number,
  height: number,
): RgbImage {
  const [a, b, c, d, e, f] = toSource;
  const out = blankImage(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      sampleInto(source, a * x + b * y + c, d * x + e * y + f, out.data, (y * width + x) * 3);
    }
  }
  return out;
}

/**
 * The frame cut from the photo through `toPhoto`. Where the frame reaches
 * past the photo, its border is extended, blurred and faded towards the
 * border's mean colour, so that an arm cut by the photo's edge does not
 * streak across the frame as a sharp band.
 */
export async function resampleSoftBorder(
  photo: RgbImage,
  width: number,
  height: number,
  toPhoto: Affine,
): Promise<RgbImage> {
  const frame = resampleAffine(photo, toPhoto, width, height);
  const k = Math.hypot(toPhoto[0], toPhoto[3]);
  const soft = resampleAffine(await blurImage(photo, 10 * k), toPhoto, width, height);
  const edge: number[] = [];
  for (let y = 0; y < photo.height; y++) edge.push(y * photo.width, (y + 1) * photo.width - 1);
  for (let x = 0; x < photo.width; x++) edge.push(x, (photo.height - 1) * photo.width + x);
  const mean = [0, 1, 2].map(
    (c) => edge.reduce((sum, i) => sum + photo.data[3 * i + c]!, 0) / edge.length,
  );
  const [a, b, c0, d, e, f] = toPhoto;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = a * x + b * y + c0;
      const py = d * x + e * y + f;
      const outside = Math.max(-px, px - (photo.width - 1), -py, py - (photo.height - 1)) / k;
      if (outside <= 0) continue;
      const t = Math.min(1, outside / 40);
      const u = 0.6 * Math.min(1, outside / 240);
      const at = 3 * (y * width + x);
      for (let c = 0; c < 3; c++) {
        const v = frame.data[at + c]! * (1 - t) + soft.data[at + c]! * t;
        frame.data[at + c] = v * (1 - u) + mean[c]! * u;
      }
    }
  }
  return frame;
}

/** The whole image moved by `m` (target = m(source)), same size, edges extended. */
export function warpAffine(source: RgbImage, m: Affine): RgbImage {
  return resampleAffine(source, invertAffine(m), source.width, source.height);
}

/** 256 standard-normal quantiles: one byte of a random word becomes one Gaussian sample. */
const NORMAL_BYTE = Float64Array.from({ length: 256 }, (_, k) => {
  // Bisect the normal CDF once per entry, at module load.
  const p = (k + 0.5) / 256;
  let low = -6;
  let high = 6;
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    if (0.5 * (1 + erf(mid / Math.SQRT2)) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
});

function erf(x: number): number {
  // Abramowitz–Stegun 7.1.26, |error| < 1.5e-7: plenty for noise.
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-x * x);
  return x < 0 ? -y : y;
}

/**
 * Sensor noise: a shared luminance part (sigma) and a smaller one per
 * channel. One random word per pixel gives its four samples, which keeps a
 * 640x400 picture at a few milliseconds.
 */
export function addNoise(image: RgbImage, random: Random, sigma: number): void {
  const data = image.data;
  const half = sigma * 0.5;
  for (let i = 0; i < data.length; i += 3) {
    const word = Math.floor(random() * 4294967296);
    const common = NORMAL_BYTE[word & 255]! * sigma;
    for (let c = 0; c < 3; c++) {
      const v = data[i + c]! + common + NORMAL_BYTE[(word >>> (8 * (c + 1))) & 255]! * half;
      data[i + c] = v < 0 ? 0 : v > 255 ? 255 : v + 0.5;
    }
  }
}

/** Light change: contrast about mid-grey, then brightness as a gain. */
export function adjustLight(image: RgbImage, brightness: number, contrast: number): void {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const out = ((v - 128) * contrast + 128) * brightness;
    lut[v] = out < 0 ? 0 : out > 255 ? 255 : Math.round(out);
  }
  const data = image.data;
  for (let i = 0; i < data.length; i++) data[i] = lut[data[i]!]!;
}

export async function decodeRgb(bytes: Uint8Array | string): Promise<RgbImage> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

export function encodeJpeg(image: RgbImage, quality: number): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: Math.round(quality) })
    .toBuffer();
}

export function encodePng(image: RgbImage): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Gaussian blur and a gain (a still room, out of focus, behind a page held to the camera). */
export async function blurImage(image: RgbImage, sigma: number, gain = 1): Promise<RgbImage> {
  const { width, height } = image;
  const blurred = await sharp(image.data, { raw: { width, height, channels: 3 } })
    .blur(Math.max(0.3, sigma))
    .linear(gain, 0)
    .raw()
    .toBuffer();
  return {
    data: new Uint8Array(blurred.buffer, blurred.byteOffset, blurred.length),
    width,
    height,
  };
}

/** A synthetic room: a wall gradient, lighter towards one upper corner. */
export function gradientRoom(width: number, height: number, random: Random): RgbImage {
  const out = blankImage(width, height);
  const base = [between(random, 90, 170), between(random, 90, 160), between(random, 80, 150)];
  const lightX = random() * width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const fall = 1 - 0.35 * (y / height) - (0.2 * Math.abs(x - lightX)) / width;
      for (let c = 0; c < 3; c++)
        out.data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, base[c]! * fall));
    }
  }
  return out;
}
