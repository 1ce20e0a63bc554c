/**
 * Geometry of face-api's 68 landmarks (iBUG order, `[x0, y0, ...]`, image
 * pixels, not mirrored) for the enrolment gate (enrolment-gate.ts): the face's
 * own frame, a mean frontal shape, the head pose of a single picture, and how
 * far the lips and the whole face depart from the mean. Pure functions.
 */
import { HEAD_DEPTHS } from '@exame/shared';

export type Point = readonly [number, number];

export const POINTS = 68;

/**
 * Mean frontal neutral face in the face frame (faceFrame: eye midpoint at the
 * origin, eye line along x, one eye distance = 1): each dev photo the gate
 * accepts (p01-1, -3, -5, -7, p02-4, p04-1, p05-1, p06-1, p07-1), made
 * symmetric (averaged with its mirror image), averaged per person, then
 * across the 6 people. The study recomputes it and prints the difference.
 */
// prettier-ignore
export const MEAN_FRONTAL_SHAPE: readonly Point[] = [
  // jaw outline 0..16
  [-1.111, 0.039], [-1.086, 0.335], [-1.033, 0.614], [-0.977, 0.865], [-0.879, 1.137],
  [-0.73, 1.347], [-0.555, 1.482], [-0.333, 1.615], [0, 1.699], [0.333, 1.615], [0.555, 1.482],
  [0.73, 1.347], [0.879, 1.137], [0.977, 0.865], [1.033, 0.614], [1.086, 0.335], [1.111, 0.039],
  // brows 17..26
  [-0.901, -0.253], [-0.774, -0.355], [-0.594, -0.382], [-0.437, -0.36], [-0.291, -0.306],
  [0.291, -0.306], [0.437, -0.36], [0.594, -0.382], [0.774, -0.355], [0.901, -0.253],
  // nose bridge 27..30, nostrils 31..35
  [0, 0.016], [0, 0.205], [0, 0.382], [0, 0.547], [-0.179, 0.672], [-0.098, 0.692], [0, 0.713],
  [0.098, 0.692], [0.179, 0.672],
  // eyes 36..47
  [-0.683, -0.005], [-0.584, -0.064], [-0.434, -0.062], [-0.304, 0.017], [-0.421, 0.058],
  [-0.575, 0.056], [0.304, 0.017], [0.434, -0.062], [0.584, -0.064], [0.683, -0.005],
  [0.575, 0.056], [0.421, 0.058],
  // outer lips 48..59
  [-0.386, 1.042], [-0.248, 0.963], [-0.085, 0.9], [0, 0.919], [0.085, 0.9], [0.248, 0.963],
  [0.386, 1.042], [0.244, 1.131], [0.124, 1.18], [0, 1.194], [-0.124, 1.18], [-0.244, 1.131],
  // inner lips 60..67
  [-0.354, 1.039], [-0.115, 1.007], [0, 1.006], [0.115, 1.007], [0.354, 1.039], [0.113, 1.05],
  [0, 1.054], [-0.113, 1.05],
];

/** The generic head's depths of packages/shared/src/face-pose.ts: the gate's degrees mean what the challenge's do. */
export const LANDMARK_DEPTH: readonly number[] = HEAD_DEPTHS;

/** iBUG index of each landmark's mirror image (the same point on the other half of the face). */
export const MIRROR: readonly number[] = (() => {
  const pairs: Array<[number, number]> = [
    ...Array.from({ length: 8 }, (_, i): [number, number] => [i, 16 - i]),
    ...[17, 18, 19, 20, 21].map((i): [number, number] => [i, 43 - i]),
    ...[31, 32].map((i): [number, number] => [i, 66 - i]),
    ...[36, 37, 38, 39].map((i): [number, number] => [i, 81 - i]),
    [40, 47],
    [41, 46],
    ...[48, 49, 50].map((i): [number, number] => [i, 102 - i]),
    [55, 59],
    [56, 58],
    [60, 64],
    [61, 63],
    [65, 67],
  ];
  const map = Array.from({ length: POINTS }, (_, i) => i);
  for (const [a, b] of pairs) {
    map[a] = b;
    map[b] = a;
  }
  return map;
})();

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function mean(points: readonly Point[]): Point {
  let x = 0;
  let y = 0;
  for (const [px, py] of points) {
    x += px;
    y += py;
  }
  return [x / points.length, y / points.length];
}

export function dist(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

export function pick(points: readonly Point[], i: number): Point {
  return points[i] ?? [Number.NaN, Number.NaN];
}

/**
 * The landmarks in the face's own frame: origin between the eye centres, x
 * along the eye line (towards image right), y perpendicular to it (down), in
 * eye distances. Removes position, scale and roll (returned in degrees).
 */
export function faceFrame(landmarks: readonly number[]): { points: Point[]; roll: number } {
  const raw = range(0, POINTS).map((i): Point => [
    landmarks[2 * i] ?? Number.NaN,
    landmarks[2 * i + 1] ?? Number.NaN,
  ]);
  const right = mean(range(36, 42).map((i) => pick(raw, i)));
  const left = mean(range(42, 48).map((i) => pick(raw, i)));
  const unit = dist(right, left);
  const angle = Math.atan2(left[1] - right[1], left[0] - right[0]);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const [mx, my] = [(right[0] + left[0]) / 2, (right[1] + left[1]) / 2];
  const points = raw.map(([x, y]): Point => {
    const dx = x - mx;
    const dy = y - my;
    return [(dx * cos + dy * sin) / unit, (dy * cos - dx * sin) / unit];
  });
  return { points, roll: (angle * 180) / Math.PI };
}

/** A face-frame shape averaged with its mirror image (for MEAN_FRONTAL_SHAPE). */
export function symmetricShape(points: readonly Point[]): Point[] {
  return points.map(([x, y], i): Point => {
    const [mx, my] = pick(points, MIRROR[i] ?? i);
    return [(x - mx) / 2, (y + my) / 2];
  });
}

/** x where the polyline through `chain` crosses height y (the nearer end when it does not). */
function crossing(points: readonly Point[], chain: number[], y: number): number {
  for (let k = 0; k + 1 < chain.length; k++) {
    const [ax, ay] = pick(points, chain[k] ?? 0);
    const [bx, by] = pick(points, chain[k + 1] ?? 0);
    if ((ay - y) * (by - y) <= 0 && ay !== by) return ax + ((y - ay) / (by - ay)) * (bx - ax);
  }
  const first = pick(points, chain[0] ?? 0);
  const last = pick(points, chain[chain.length - 1] ?? 0);
  return Math.abs(first[1] - y) < Math.abs(last[1] - y) ? first[0] : last[0];
}

/** Depth (LANDMARK_DEPTH) of the outline where it crosses height y, interpolated like `crossing`. */
function outlineDepth(points: readonly Point[], y: number): number {
  for (let k = 0; k < 8; k++) {
    const ay = pick(points, k)[1];
    const by = pick(points, k + 1)[1];
    if ((ay - y) * (by - y) <= 0 && ay !== by) {
      const t = (y - ay) / (by - ay);
      return (LANDMARK_DEPTH[k] ?? 0) * (1 - t) + (LANDMARK_DEPTH[k + 1] ?? 0) * t;
    }
  }
  return LANDMARK_DEPTH[2] ?? 0;
}

/** Eye aspect ratio (Soukupová and Čech, 2016): the two lid gaps over the corner distance. */
export function eyeOpenness(p: readonly Point[], first: number): number {
  const [c0, u0, u1, c1, l1, l0] = range(first, first + 6).map((i) => pick(p, i));
  if (!c0 || !u0 || !u1 || !c1 || !l1 || !l0) return Number.NaN;
  return (dist(u0, l0) + dist(u1, l1)) / (2 * dist(c0, c1));
}

/** Solves `a x = b` (Gaussian elimination, partial pivoting); NaNs when singular. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r;
    }
    const head = m[pivot] ?? [];
    m[pivot] = m[col] ?? [];
    m[col] = head;
    const p = head[col] ?? 0;
    if (Math.abs(p) < 1e-12) return new Array<number>(n).fill(Number.NaN);
    for (let r = 0; r < n; r++) {
      const row = m[r] ?? [];
      const factor = r === col ? 0 : (row[col] ?? 0) / p;
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) row[c] = (row[c] ?? 0) - factor * (head[c] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** RMS residual of least squares `rows x = rhs`. */
function leastSquaresResidual(rows: number[][], rhs: number[]): number {
  const k = rows[0]?.length ?? 0;
  const normal = range(0, k).map((i) =>
    range(0, k).map((j) => rows.reduce((s, r) => s + (r[i] ?? 0) * (r[j] ?? 0), 0)),
  );
  const right = range(0, k).map((i) =>
    rows.reduce((s, r, n) => s + (r[i] ?? 0) * (rhs[n] ?? 0), 0),
  );
  const x = solve(normal, right);
  let sum = 0;
  rows.forEach((r, n) => {
    sum += (r.reduce((s, v, j) => s + v * (x[j] ?? 0), 0) - (rhs[n] ?? 0)) ** 2;
  });
  return Math.sqrt(sum / (rows.length / 2));
}

/** Lips aligned alone (a similarity) onto the mean mouth: RMS residual in mouth widths. */
export function mouthDistortionOf(p: readonly Point[]): number {
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (const i of range(48, 68)) {
    const [x, y] = pick(p, i);
    const [u, v] = pick(MEAN_FRONTAL_SHAPE, i);
    rows.push([x, -y, 1, 0]);
    rhs.push(u);
    rows.push([y, x, 0, 1]);
    rhs.push(v);
  }
  return (
    leastSquaresResidual(rows, rhs) /
    dist(pick(MEAN_FRONTAL_SHAPE, 48), pick(MEAN_FRONTAL_SHAPE, 54))
  );
}

/**
 * The 68 points mapped onto MEAN_FRONTAL_SHAPE by the best affine map (a
 * wider, longer or sheared face is a person's proportions or a tilt, not an
 * occlusion) plus a yaw and a pitch term (each point moved in proportion to
 * its depth: a small head turn); RMS residual in eye distances.
 */
export function shapeMisfitOf(p: readonly Point[]): number {
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (const i of range(0, POINTS)) {
    const [x, y] = pick(p, i);
    const z = LANDMARK_DEPTH[i] ?? 0;
    const [u, v] = pick(MEAN_FRONTAL_SHAPE, i);
    rows.push([x, y, 1, 0, 0, 0, z, 0]);
    rhs.push(u);
    rows.push([0, 0, 0, x, y, 1, 0, z]);
    rhs.push(v);
  }
  return leastSquaresResidual(rows, rhs);
}

const MEAN_NOSE = pick(MEAN_FRONTAL_SHAPE, 30);
const MEAN_UPPER_LIP_Y = pick(MEAN_FRONTAL_SHAPE, 51)[1];
const MEAN_HALF_WIDTH =
  (crossing(MEAN_FRONTAL_SHAPE, range(8, 17), MEAN_NOSE[1]) -
    crossing(MEAN_FRONTAL_SHAPE, range(0, 9), MEAN_NOSE[1])) /
  2;
/** How far the nose tip stands in front of the outline at its height, and of the eyes and upper lip. */
const NOSE_BEFORE_OUTLINE =
  (LANDMARK_DEPTH[30] ?? 0) - outlineDepth(MEAN_FRONTAL_SHAPE, MEAN_NOSE[1]);
const EYE_DEPTH = range(36, 48).reduce((s, i) => s + (LANDMARK_DEPTH[i] ?? 0), 0) / 12;
const NOSE_BEFORE_EYES = (LANDMARK_DEPTH[30] ?? 0) - EYE_DEPTH;
const LIP_BEFORE_EYES = (LANDMARK_DEPTH[51] ?? 0) - EYE_DEPTH;

function degrees(radians: number): number {
  return (radians * 180) / Math.PI;
}

/**
 * Absolute yaw and pitch of one picture, in degrees, from the face-frame
 * points (faceFrame), for the generic head of LANDMARK_DEPTH with the mean face's
 * proportions. yaw > 0: turned to the person's own left (nose towards image
 * right); pitch > 0: looking up. Individual proportions (a longer nose, a
 * narrower face) shift both by a few degrees; that is the precision.
 */
export function headPose(p: readonly Point[]): { yaw: number; pitch: number } {
  const nose = pick(p, 30);
  // Yaw: the nose tip against the middle of the outline at its height. A head
  // turned by θ moves the tip by its depth before the outline (D) more than
  // the outline: offset / half width = (D / a) tan θ, a the mean half width.
  const leftOutline = crossing(p, range(0, 9), nose[1]);
  const rightOutline = crossing(p, range(8, 17), nose[1]);
  const offset = (nose[0] - (leftOutline + rightOutline) / 2) / ((rightOutline - leftOutline) / 2);
  const yaw = degrees(Math.atan((offset * MEAN_HALF_WIDTH) / NOSE_BEFORE_OUTLINE));
  // Pitch: the nose tip's height between the eye line and the upper lip (51).
  // Looking up by φ raises the tip more than the lip (it stands further in
  // front): ratio = (n − e t) / (l − f t), t = tan φ, for the mean face's
  // heights n, l and the depths e, f of tip and lip before the eyes.
  const ratio = nose[1] / pick(p, 51)[1];
  const pitch = degrees(
    Math.atan(
      (MEAN_NOSE[1] - ratio * MEAN_UPPER_LIP_Y) / (NOSE_BEFORE_EYES - ratio * LIP_BEFORE_EYES),
    ),
  );
  return { yaw, pitch };
}
