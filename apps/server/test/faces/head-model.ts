/**
 * A generic 3-D head for the synthetic takes: a depth for each of the 68
 * face-api landmarks and for extra control points (forehead, skull, sides
 * of the head, neck), fixed points where the body and the room are, and the
 * pose of all of them when the head turns about the neck.
 *
 * Units are the distance between the eye centres (d, ~63 mm on an adult);
 * depth z points towards the camera and is 0 at the eyes. The numbers are
 * rounded anthropometric means (Farkas' facial profiles, head breadth
 * ~2.4 d): the nose tip ~28 mm in front of the eyes, the mouth ~10 mm, the
 * chin level with the eyes, the cheek outline at the ears ~60 mm behind
 * them. Faces differ; a take scales the depths by a random factor.
 */
import { type FaceMove } from '@exame/shared';
import { delaunay, type Point, type Triangle } from './delaunay';

/** Which way the nose moves in the unmirrored camera image for each move (x right, y down). */
export const NOSE_DIRECTION: Readonly<Record<FaceMove, readonly [number, number]>> = {
  left: [1, 0],
  right: [-1, 0],
  up: [0, -1],
  down: [0, 1],
};

/** Depth of the landmarks (face-api / iBUG 68 order), in d, towards the camera. */
// prettier-ignore
export const LANDMARK_DEPTH: readonly number[] = [
  // 0-16 jaw outline, from the image-left ear round the chin to the image-right ear
  -1.0, -0.95, -0.85, -0.7, -0.52, -0.34, -0.18, -0.06, 0.0, -0.06, -0.18, -0.34, -0.52, -0.7, -0.85, -0.95, -1.0,
  // 17-26 brows, outer ends far behind the inner ends
  -0.2, -0.05, 0.05, 0.1, 0.12, 0.12, 0.1, 0.05, -0.05, -0.2,
  // 27-30 nose bridge: root just ahead of the eyes, tip furthest ahead
  0.12, 0.22, 0.33, 0.45,
  // 31-35 nostrils and the base of the nose
  0.1, 0.2, 0.22, 0.2, 0.1,
  // 36-41 and 42-47 eyes: outer corners behind, lids at 0
  -0.15, 0.0, 0.0, -0.05, -0.02, -0.02, -0.05, 0.0, 0.0, -0.15, -0.02, -0.02,
  // 48-59 outer lips, corners behind the centre
  -0.05, 0.08, 0.15, 0.18, 0.15, 0.08, -0.05, 0.06, 0.12, 0.13, 0.12, 0.06,
  // 60-67 inner lips
  -0.02, 0.1, 0.12, 0.1, -0.02, 0.08, 0.1, 0.08,
];

/** Where the head turns: the neck axis, behind the face. */
const YAW_PIVOT_DEPTH = -1.25;
/** Nodding turns about the top of the spine, below the ears. */
const PITCH_PIVOT = { v: 1.0, z: -1.25 };
/** Camera distance in d (~50 cm), for the slight perspective of a webcam. */
const CAMERA_DISTANCE = 8;

export type HeadModel = {
  /** Neutral position of every control point in the frame, [x0, y0, ...]. */
  frame: Float64Array;
  /** Canonical coordinates (u right, v down, in d, origin between the eyes) and depth. */
  u: Float64Array;
  v: Float64Array;
  z: Float64Array;
  /** 1 moves with the head, 0 stays (room, shoulders), in between: the neck. */
  mobility: Float64Array;
  triangles: Triangle[];
  /** Eye midpoint, eye distance and roll (radians) of the face in the frame. */
  origin: readonly [number, number];
  eyeDistance: number;
  roll: number;
};

function mean(landmarks: readonly number[], from: number, to: number): [number, number] {
  let x = 0;
  let y = 0;
  for (let i = from; i <= to; i++) {
    x += landmarks[2 * i]!;
    y += landmarks[2 * i + 1]!;
  }
  const n = to - from + 1;
  return [x / n, y / n];
}

export function eyeCentres(landmarks: readonly number[]): {
  left: [number, number];
  right: [number, number];
} {
  // 36-41 is the eye on the image's left (the person's right eye).
  return { left: mean(landmarks, 36, 41), right: mean(landmarks, 42, 47) };
}

/** Builds the control points and their neutral triangulation for one face in one frame. */
export function buildHeadModel(
  landmarks: readonly number[],
  width: number,
  height: number,
): HeadModel {
  const { left, right } = eyeCentres(landmarks);
  const origin: [number, number] = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2];
  const eyeDistance = Math.hypot(right[0] - left[0], right[1] - left[1]);
  const roll = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const cos = Math.cos(roll);
  const sin = Math.sin(roll);
  const toCanonical = (x: number, y: number): [number, number] => {
    const dx = (x - origin[0]) / eyeDistance;
    const dy = (y - origin[1]) / eyeDistance;
    return [cos * dx + sin * dy, -sin * dx + cos * dy];
  };
  const u: number[] = [];
  const v: number[] = [];
  const z: number[] = [];
  const mobility: number[] = [];
  const frame: number[] = [];
  const add = (cu: number, cv: number, cz: number, m: number) => {
    u.push(cu);
    v.push(cv);
    z.push(cz);
    mobility.push(m);
    frame.push(
      origin[0] + eyeDistance * (cos * cu - sin * cv),
      origin[1] + eyeDistance * (sin * cu + cos * cv),
    );
  };
  for (let i = 0; i < 68; i++) {
    const [cu, cv] = toCanonical(landmarks[2 * i]!, landmarks[2 * i + 1]!);
    add(cu, cv, LANDMARK_DEPTH[i]!, 1);
  }
  // Extra points placed from this face's own proportions.
  const brow = Math.min(...[...Array(10).keys()].map((k) => v[17 + k]!));
  const chin = v[8]!;
  const half = Math.max(0.9, (u[16]! - u[0]!) / 2);
  const mid = (u[16]! + u[0]!) / 2;
  const row = (cv: number, spread: number[], depth: (cu: number) => number, m = 1) => {
    for (const s of spread) add(mid + s * half, cv, depth(s), m);
  };
  row(brow - 0.4, [-0.85, -0.42, 0, 0.42, 0.85], (s) => 0.02 - 0.45 * s * s); // forehead
  row(brow - 0.85, [-0.8, -0.4, 0, 0.4, 0.8], (s) => -0.1 - 0.6 * s * s); // hairline
  row(brow - 1.4, [-0.55, 0, 0.55], (s) => -0.55 - 0.8 * s * s); // top of the skull
  row(brow - 1.0, [-1.08, 1.08], () => -1.1); // upper sides of the skull
  for (const cv of [brow - 0.45, 0.25, 0.95]) row(cv, [-1.22, 1.22], () => -1.45); // temples, ears
  row(chin - 0.35, [-1.0, 1.0], () => -1.3); // behind the jaw angle
  row(chin + 0.45, [-0.5, 0, 0.5], () => -0.75, 0.6); // neck, twisting less than the head
  row(chin + 0.9, [-0.6, 0.6], () => -0.9, 0.25);
  // Fixed: shoulders, a ring of room around the head, and the frame border.
  row(chin + 1.5, [-2.4, -1.6, -0.8, 0, 0.8, 1.6, 2.4], () => -3, 0);
  const centreV = (brow - 1.4 + chin) / 2;
  for (let k = 0; k <= 6; k++) {
    const angle = Math.PI + (k * Math.PI) / 6;
    add(mid + 2.3 * half * Math.cos(angle), centreV + 2.6 * Math.sin(angle), -3, 0);
  }
  const fixedCount = u.length;
  const border: Point[] = [];
  const margin = 2;
  for (let k = 0; k <= 8; k++) {
    const x = -margin + (k * (width + 2 * margin)) / 8;
    border.push([x, -margin], [x, height + margin]);
  }
  for (let k = 1; k < 5; k++) {
    const y = -margin + (k * (height + 2 * margin)) / 5;
    border.push([-margin, y], [width + margin, y]);
  }
  const points: Point[] = [];
  for (let i = 0; i < fixedCount; i++) points.push([frame[2 * i]!, frame[2 * i + 1]!]);
  for (const [x, y] of border) {
    const [cu, cv] = toCanonical(x, y);
    add(cu, cv, -4, 0);
    points.push([x, y]);
  }
  return {
    frame: Float64Array.from(frame),
    u: Float64Array.from(u),
    v: Float64Array.from(v),
    z: Float64Array.from(z),
    mobility: Float64Array.from(mobility),
    triangles: delaunay(points, 1),
    origin,
    eyeDistance,
    roll,
  };
}

export type HeadPose = {
  /** Degrees; > 0 the person turns to their own left (nose to image-right). */
  yaw: number;
  /** Degrees; > 0 the person looks up (nose to image-top). */
  pitch: number;
  /** Degrees of in-plane tilt. */
  roll: number;
  /** Scales every depth (faces are flatter or deeper than the mean). */
  depthScale: number;
  /** Pixels the whole head moves in the frame. */
  shift: readonly [number, number];
};

/**
 * Where every control point lands in the frame for `pose`, and its depth
 * (towards the camera, for the painter's order). The neutral frame is the
 * photo itself, so a point moves by the difference between its projection
 * turned and unturned.
 */
export function poseHead(
  model: HeadModel,
  pose: HeadPose,
): { target: Float64Array; depth: Float64Array } {
  const n = model.u.length;
  const target = new Float64Array(2 * n);
  const depth = new Float64Array(n);
  const cosR = Math.cos(model.roll);
  const sinR = Math.sin(model.roll);
  const project = (cu: number, cv: number, cz: number) => {
    const k = CAMERA_DISTANCE / (CAMERA_DISTANCE - cz);
    return [cu * k, cv * k] as const;
  };
  const rad = Math.PI / 180;
  for (let i = 0; i < n; i++) {
    const m = model.mobility[i]!;
    const u0 = model.u[i]!;
    const v0 = model.v[i]!;
    const z0 = model.z[i]! * (m > 0 ? pose.depthScale : 1);
    if (m === 0) {
      target[2 * i] = model.frame[2 * i]!;
      target[2 * i + 1] = model.frame[2 * i + 1]!;
      depth[i] = z0;
      continue;
    }
    const yaw = pose.yaw * m * rad;
    const pitch = pose.pitch * m * rad;
    const roll = pose.roll * m * rad;
    // Yaw about the vertical neck axis.
    const yawPivot = YAW_PIVOT_DEPTH * pose.depthScale;
    const cu = u0 * Math.cos(yaw) + (z0 - yawPivot) * Math.sin(yaw);
    let cz = yawPivot - u0 * Math.sin(yaw) + (z0 - yawPivot) * Math.cos(yaw);
    let cv = v0;
    // Pitch about a horizontal axis below the ears: looking up brings the chin forward.
    const pv = PITCH_PIVOT.v;
    const pz = PITCH_PIVOT.z * pose.depthScale;
    const dv = cv - pv;
    const dz = cz - pz;
    cv = pv + dv * Math.cos(pitch) - dz * Math.sin(pitch);
    cz = pz + dv * Math.sin(pitch) + dz * Math.cos(pitch);
    // Roll in the image plane about the neck.
    const ru = cu * Math.cos(roll) - (cv - 2) * Math.sin(roll);
    const rv = 2 + cu * Math.sin(roll) + (cv - 2) * Math.cos(roll);
    const [pu, pv2] = project(ru, rv, cz);
    const [nu, nv] = project(u0, v0, z0);
    const du = pu - nu;
    const dvv = pv2 - nv;
    const e = model.eyeDistance;
    target[2 * i] = model.frame[2 * i]! + e * (cosR * du - sinR * dvv) + pose.shift[0] * m;
    target[2 * i + 1] = model.frame[2 * i + 1]! + e * (sinR * du + cosR * dvv) + pose.shift[1] * m;
    depth[i] = cz;
  }
  return { target, depth };
}
