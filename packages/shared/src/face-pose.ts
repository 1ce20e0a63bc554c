/**
 * Head pose between two pictures of one take, from face-api's 68 landmarks
 * (iBUG order, `[x0, y0, x1, y1, ...]`, image pixels, never mirrored). The
 * capture screen and the server compute it the same way.
 *
 * A flat picture, however it is held, moves its landmarks by a projective
 * map of the picture's plane: a shift, a scale, a rotation, a tilt in
 * perspective. A real head that turns moves each point by its depth: the nose
 * tip, in front, travels further than the eyes, and the outline of the face,
 * far behind, the other way. So the landmark motion from the first picture
 * is split in two: what a projective map of a plane explains (taken out,
 * to first order), and what is left, matched against the motion that a
 * generic head's depths would give for a unit turn left-right (yaw) and
 * up-down (pitch). The amplitudes of the two matches are the sines of the
 * turns; `fit` says how much of what is left they explain (a bent page, whose
 * depth runs along one direction only, leaves much unexplained).
 */
import type { FaceMove } from './face-challenge';

/** Approximate depth of each landmark, in eye distances, nose tip 0, behind negative. */
export const HEAD_DEPTHS: readonly number[] = [
  // jaw outline 0..16 (image left to right): temples far behind, chin less
  -1.45, -1.35, -1.22, -1.06, -0.9, -0.72, -0.56, -0.44, -0.38, -0.44, -0.56, -0.72, -0.9, -1.06,
  -1.22, -1.35, -1.45,
  // brows 17..26
  -0.95, -0.78, -0.66, -0.58, -0.52, -0.52, -0.58, -0.66, -0.78, -0.95,
  // nose bridge 27..30, nostrils 31..35
  -0.52, -0.38, -0.2, 0, -0.5, -0.4, -0.34, -0.4, -0.5,
  // eyes 36..41, 42..47
  -0.88, -0.72, -0.68, -0.64, -0.72, -0.78, -0.64, -0.68, -0.72, -0.88, -0.78, -0.72,
  // outer lips 48..59
  -0.62, -0.5, -0.42, -0.38, -0.42, -0.5, -0.62, -0.52, -0.45, -0.42, -0.45, -0.52,
  // inner lips 60..67
  -0.6, -0.46, -0.43, -0.46, -0.6, -0.48, -0.45, -0.48,
];

const POINTS = 68;
/** The outline follows the silhouette more than fixed points of the head: half weight. */
const WEIGHT = Array.from({ length: POINTS }, (_, i) => (i <= 16 ? 0.5 : 1));

export type Landmarks = readonly number[];

export type RelativePose = {
  /** Degrees; > 0: the person turned to their own left (the nose moved towards image-right). */
  yaw: number;
  /** Degrees; > 0: the person looked up (the nose moved towards the image top). */
  pitch: number;
  /** Share (0..1) of the non-planar motion that a head's depth explains. */
  fit: number;
  /** Size of the non-planar motion, in eye distances. */
  parallax: number;
  /**
   * The relief (see `relief`) of the non-planar motion alone, once what a
   * flat picture's motion explains (perspective included, to first order)
   * is taken out.
   */
  depthRelief: Relief;
};

function point(landmarks: Landmarks, i: number): [number, number] {
  return [landmarks[2 * i] ?? 0, landmarks[2 * i + 1] ?? 0];
}

function centre(landmarks: Landmarks, from: number, to: number): [number, number] {
  let x = 0;
  let y = 0;
  for (let i = from; i < to; i++) {
    const [px, py] = point(landmarks, i);
    x += px;
    y += py;
  }
  return [x / (to - from), y / (to - from)];
}

/** Distance between the eye centres (the unit of the depths). */
export function eyeDistance(landmarks: Landmarks): number {
  const [lx, ly] = centre(landmarks, 36, 42);
  const [rx, ry] = centre(landmarks, 42, 48);
  return Math.hypot(rx - lx, ry - ly);
}

/** Solves the symmetric system `a x = b` (Gaussian elimination, partial pivoting); null if singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(m[r]?.[col] ?? 0) > Math.abs(m[pivot]?.[col] ?? 0)) pivot = r;
    }
    const swap = m[col];
    m[col] = m[pivot] ?? [];
    m[pivot] = swap ?? [];
    const head = m[col] ?? [];
    const p = head[col] ?? 0;
    if (Math.abs(p) < 1e-12) return null;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const row = m[r] ?? [];
      const factor = (row[col] ?? 0) / p;
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) row[c] = (row[c] ?? 0) - factor * (head[c] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** Weighted least squares of `target` on `basis` (vectors of 2*POINTS); the coefficients. */
function fitBasis(basis: number[][], target: number[]): number[] | null {
  const k = basis.length;
  const normal = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rhs = new Array<number>(k).fill(0);
  for (let d = 0; d < 2 * POINTS; d++) {
    const w = WEIGHT[d >> 1] ?? 1;
    for (let i = 0; i < k; i++) {
      const bi = basis[i]?.[d] ?? 0;
      rhs[i] = (rhs[i] ?? 0) + w * bi * (target[d] ?? 0);
      const row = normal[i] ?? [];
      for (let j = i; j < k; j++) row[j] = (row[j] ?? 0) + w * bi * (basis[j]?.[d] ?? 0);
    }
  }
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < i; j++) (normal[i] ?? [])[j] = normal[j]?.[i] ?? 0;
  }
  return solve(normal, rhs);
}

function residual(basis: number[][], target: number[]): number[] {
  const coefficients = fitBasis(basis, target);
  if (!coefficients) return [...target];
  return target.map(
    (value, d) => value - coefficients.reduce((sum, c, i) => sum + c * (basis[i]?.[d] ?? 0), 0),
  );
}

function weightedNorm(vector: number[]): number {
  let sum = 0;
  for (let d = 0; d < vector.length; d++) sum += (WEIGHT[d >> 1] ?? 1) * (vector[d] ?? 0) ** 2;
  return Math.sqrt(sum);
}

/** Parameter of the projection of p on the line a→b (0 at a, 1 at b). */
function along(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = Math.max(1e-9, dx * dx + dy * dy);
  return ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2;
}

export type Relief = {
  /**
   * How far the nose tip moved against the face's midline (the nose root,
   * 27, and the chin, 8, interpolated where the nose lies between them), in
   * eye distances, the way a turn to the person's left (`yaw`) or up
   * (`pitch`) moves it. A real nose stands out of that line; a page bent
   * about a vertical axis keeps it on the line.
   */
  midline: { yaw: number; pitch: number };
  /**
   * How far the nose tip moved against the outline of the face at its
   * height (jaw points 2 and 14), likewise. A real face's outline is far
   * behind the nose; a page bent about a horizontal axis keeps each row of
   * it at one depth.
   */
  lateral: { yaw: number; pitch: number };
};

/**
 * Whether a face looks ahead, left to right: its nose tip near the middle of
 * the outline at its height (jaw points 2 and 14), within about 13° of a
 * frontal face. The first picture of a take is the reference of every
 * movement, so the capture screen waits for it.
 */
export function looksAhead(landmarks: Landmarks): boolean {
  if (landmarks.length !== 2 * POINTS) return false;
  const t = along(point(landmarks, 30), point(landmarks, 2), point(landmarks, 14));
  return t >= 0.38 && t <= 0.62;
}

/** The axis a movement turns about: left and right are yaw, up and down pitch. */
export function moveAxis(move: FaceMove): 'yaw' | 'pitch' {
  return move === 'left' || move === 'right' ? 'yaw' : 'pitch';
}

/** +1 when a movement makes its axis grow (left, up), -1 otherwise. */
function moveSign(move: FaceMove): 1 | -1 {
  return move === 'left' || move === 'up' ? 1 : -1;
}

/** How far the head went in the direction asked (degrees; negative: the other way). */
export function moveAmount(move: FaceMove, pose: Pick<RelativePose, 'yaw' | 'pitch'>): number {
  return moveSign(move) * pose[moveAxis(move)];
}

/** The relief a picture shows in the direction of `move` (positive when it goes the way asked). */
export function reliefToward(move: FaceMove, shown: Relief): { midline: number; lateral: number } {
  const axis = moveAxis(move);
  return {
    midline: moveSign(move) * shown.midline[axis],
    lateral: moveSign(move) * shown.lateral[axis],
  };
}

function degrees(sine: number): number {
  return (Math.asin(Math.max(-1, Math.min(1, sine))) * 180) / Math.PI;
}

/**
 * The turn from `neutral` to `frame` (two landmark sets of one take). Both
 * must hold 68 points; the first should look at the camera.
 */
export function relativePose(neutral: Landmarks, frame: Landmarks): RelativePose {
  if (neutral.length !== 2 * POINTS || frame.length !== 2 * POINTS) {
    throw new TypeError('relativePose: 68 pontos em cada conjunto.');
  }
  const unit = Math.max(1, eyeDistance(neutral));
  const [cx, cy] = centre(neutral, 17, 68);
  // Coordinates of the neutral picture, centred and in eye distances.
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < POINTS; i++) {
    const [x, y] = point(neutral, i);
    xs.push((x - cx) / unit);
    ys.push((y - cy) / unit);
  }
  const motion: number[] = [];
  for (let i = 0; i < POINTS; i++) {
    const [x0, y0] = point(neutral, i);
    const [x1, y1] = point(frame, i);
    motion.push((x1 - x0) / unit, (y1 - y0) / unit);
  }
  const pattern = (fx: (i: number) => number, fy: (i: number) => number) =>
    Array.from({ length: 2 * POINTS }, (_, d) => (d % 2 === 0 ? fx(d >> 1) : fy(d >> 1)));
  const x = (i: number) => xs[i] ?? 0;
  const y = (i: number) => ys[i] ?? 0;
  const zero = () => 0;
  // What a plane can do: an affine map, plus the first-order terms of perspective.
  const planar = [
    pattern(() => 1, zero),
    pattern(zero, () => 1),
    pattern(x, zero),
    pattern(y, zero),
    pattern(zero, x),
    pattern(zero, y),
    pattern(
      (i) => x(i) * x(i),
      (i) => x(i) * y(i),
    ),
    pattern(
      (i) => x(i) * y(i),
      (i) => y(i) * y(i),
    ),
  ];
  const depth = (i: number) => HEAD_DEPTHS[i] ?? 0;
  // A unit turn of a head with these depths: left moves the nose to +x, up moves it to -y.
  const yawPattern = residual(planar, pattern(depth, zero));
  const pitchPattern = residual(
    planar,
    pattern(zero, (i) => -depth(i)),
  );
  const left = residual(planar, motion);
  const amplitudes = fitBasis([yawPattern, pitchPattern], left) ?? [0, 0];
  const [a = 0, b = 0] = amplitudes;
  const explained = left.map((value, d) => a * (yawPattern[d] ?? 0) + b * (pitchPattern[d] ?? 0));
  const leftNorm = weightedNorm(left);
  // The nose tip's residual motion against the residual motion of two other
  // points, interpolated where the nose lies between them (neutral picture).
  const residualAt = (i: number, channel: 0 | 1) => left[2 * i + channel] ?? 0;
  const between = (a: number, b: number) => {
    const t = along(point(neutral, 30), point(neutral, a), point(neutral, b));
    return (channel: 0 | 1) =>
      residualAt(30, channel) - ((1 - t) * residualAt(a, channel) + t * residualAt(b, channel));
  };
  const midline = between(27, 8);
  const outline = between(2, 14);
  const depthRelief: Relief = {
    midline: { yaw: midline(0), pitch: -midline(1) },
    lateral: { yaw: outline(0), pitch: -outline(1) },
  };
  const unexplained = weightedNorm(left.map((value, d) => value - (explained[d] ?? 0)));
  return {
    yaw: degrees(a),
    pitch: degrees(b),
    fit: leftNorm > 0 ? Math.max(0, 1 - (unexplained / leftNorm) ** 2) : 0,
    parallax: leftNorm / Math.sqrt(POINTS),
    depthRelief,
  };
}
