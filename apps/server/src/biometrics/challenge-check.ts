/**
 * Whether a take answers its challenge, from the engine's
 * analyses of its pictures in order: neutral, one per movement, neutral
 * again. It accepts only when
 * - every picture shows the same person as the first (the fused distance of
 *   face-api and MobileFaceNet, at a looser bar than the enrolment's: a turned
 *   head is farther from itself than a frontal one);
 * - the pictures form one continuous take: the scene around the face stays
 *   where it was and the face keeps its size (no cut to another photograph);
 * - each movement's picture shows the head turned the way asked, by at
 *   least FACE_MOVE_MIN_DEGREES, with the depth of a head: the landmark
 *   motion beyond what any flat picture's motion explains (face-pose.ts) must
 *   be the motion of a head's depths, not of a bent page;
 * - the last picture looks at the camera again.
 *
 * What it does not stop, and says so in docs/biometrics.md: a video of the
 * person doing these very movements, a 3-D mask, a face generated live (a warp
 * of a photo driven by a 3-D face mesh is such a generator).
 */
import {
  FACE_MOVE_MIN_DEGREES,
  FACE_RETURN_MAX_DEGREES,
  moveAmount,
  moveAxis,
  relativePose,
  reliefToward,
  type FaceChallengeErrorCode,
  type FaceMove,
  type RelativePose,
} from '@exame/shared';
import { faceDistance } from './descriptor';
import type { FaceAnalysis } from './face-engine';

export type TakeLimits = {
  /** Least turn (degrees) in the direction asked. */
  minYaw: number;
  minPitch: number;
  /** Least share of the non-planar motion that a head's depth explains (RelativePose.fit). */
  minFit: number;
  /**
   * Least depth of the nose tip in front of the face's midline and of its
   * outline, in eye distances: the relief the motion shows
   * (RelativePose.depthRelief, in the direction asked) over the sine of the
   * turn. A real nose stands out of both lines; a page bent about one axis
   * keeps it on one of them.
   */
  minMidlineDepth: Readonly<Record<'yaw' | 'pitch', number>>;
  minOutlineDepth: Readonly<Record<'yaw' | 'pitch', number>>;
  /** Largest turn on the other axis, as a share of the turn asked (a movement, not a diagonal). */
  maxCrossTurn: number;
  /** How far from the first picture the last may be (degrees, each axis). */
  maxReturn: number;
  /** Fused distance under which two pictures of one take show the same person. */
  sameFace: number;
  /** Largest mean grey difference (0..255) of the scene around the face between two consecutive pictures. */
  maxSceneChange: number;
  /** Largest ratio of face sizes between two consecutive pictures. */
  maxScaleChange: number;
};

/**
 * Chosen on dev only (`npm run bench:liveness -w bench -- --study`: 76
 * genuine takes and 595 attacks of the 19 dev photos with a face;
 * docs/biometrics.md, "Captura ao vivo"). On dev's genuine takes: the
 * measured turn of a step is the main bar (the capture screen waits for 4°
 * more); `fit` 0.48 and up (0.5 keeps all but one); the midline depth over
 * the sine of the turn,
 * 0.19 and up on left/right, 0.12 and up (5th percentile 0.17) on up/down;
 * the outline depth 0.62 and up; the other axis at most half the turn but
 * for steps of a photo already turned; the scene change 2.6 at most; the
 * same-face distance 0.63 at most (0.75 leaves room for the larger turns of a
 * person the screen guides; 0.8 let a bent page and a stitch of dev through). The attacks that came closest were pages
 * bent about a vertical axis by ±80° and turned: their up/down steps showed
 * midline depths of 0.13-0.14 (the 0.15 bar refuses them), and pages bent
 * only while turning changed the scene by 9 and more (the 6 bar).
 */
export const DEFAULT_TAKE_LIMITS: Readonly<TakeLimits> = Object.freeze({
  minYaw: FACE_MOVE_MIN_DEGREES.yaw,
  minPitch: FACE_MOVE_MIN_DEGREES.pitch,
  minFit: 0.5,
  minMidlineDepth: Object.freeze({ yaw: 0.2, pitch: 0.15 }),
  minOutlineDepth: Object.freeze({ yaw: 0.4, pitch: 0.4 }),
  maxCrossTurn: 0.6,
  maxReturn: FACE_RETURN_MAX_DEGREES,
  sameFace: 0.75,
  maxSceneChange: 6,
  maxScaleChange: 1.35,
});

export type TakeFace = Pick<
  FaceAnalysis,
  | 'descriptor'
  | 'mobileDescriptor'
  | 'landmarks'
  | 'box'
  | 'imageWidth'
  | 'imageHeight'
  | 'thumbnail'
  | 'quality'
>;

export type TakeResult = {
  passed: boolean;
  /** The first failure, in the order of the checks; null when it passed. */
  failure: { code: FaceChallengeErrorCode; step: number | null; move: FaceMove | null } | null;
  checks: { sameFace: boolean; continuous: boolean; followed: boolean; depth: boolean };
  details: {
    /** Pose of each picture after the first, relative to it. */
    poses: RelativePose[];
    /** Fused distance of each picture after the first to the first. */
    distances: number[];
    /** Per consecutive pair: scene change and face size ratio. */
    sceneChange: number[];
    scaleChange: number[];
  };
};

const THUMB = 64;

/** The face box in thumbnail pixels, grown by half its size on each side. */
function maskOf(face: TakeFace): { x0: number; y0: number; x1: number; y1: number } {
  const sx = THUMB / face.imageWidth;
  const sy = THUMB / face.imageHeight;
  const grow = 0.5;
  return {
    x0: (face.box.x - grow * face.box.width) * sx,
    y0: (face.box.y - grow * face.box.height) * sy,
    x1: (face.box.x + (1 + grow) * face.box.width) * sx,
    y1: (face.box.y + (1 + grow) * face.box.height) * sy,
  };
}

/**
 * Mean grey difference of two thumbnails away from both faces, after taking
 * out a global change of exposure (the best gain and offset from one to the
 * other: a camera adjusting its exposure is not a cut).
 */
export function sceneChange(a: TakeFace, b: TakeFace): number {
  if (a.thumbnail.length !== THUMB * THUMB || b.thumbnail.length !== THUMB * THUMB) return 255;
  const masks = [maskOf(a), maskOf(b)];
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < THUMB; y++) {
    for (let x = 0; x < THUMB; x++) {
      if (
        masks.some((m) => x + 0.5 >= m.x0 && x + 0.5 <= m.x1 && y + 0.5 >= m.y0 && y + 0.5 <= m.y1)
      )
        continue;
      const i = y * THUMB + x;
      xs.push(a.thumbnail[i] ?? 0);
      ys.push(b.thumbnail[i] ?? 0);
    }
  }
  // Too little scene left to judge (a face filling the frame): no evidence of a cut.
  if (xs.length < THUMB * 4) return 0;
  const n = xs.length;
  const meanX = xs.reduce((sum, v) => sum + v, 0) / n;
  const meanY = ys.reduce((sum, v) => sum + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((xs[i] ?? 0) - meanX) * ((ys[i] ?? 0) - meanY);
    sxx += ((xs[i] ?? 0) - meanX) ** 2;
  }
  // A gain between a half and twice the light: anything else is not an exposure change.
  const gain = sxx > 0 ? Math.min(2, Math.max(0.5, sxy / sxx)) : 1;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += Math.abs((ys[i] ?? 0) - meanY - gain * ((xs[i] ?? 0) - meanX));
  }
  return sum / n;
}

function faceSize(face: TakeFace): number {
  return Math.max(1, face.quality.faceSizePx);
}

function minTurn(move: FaceMove, limits: TakeLimits): number {
  return moveAxis(move) === 'yaw' ? limits.minYaw : limits.minPitch;
}

/** Checks a take of `steps.length + 2` analysed pictures against its challenge. */
export function checkTake(
  steps: readonly FaceMove[],
  faces: readonly TakeFace[],
  limits: TakeLimits = DEFAULT_TAKE_LIMITS,
): TakeResult {
  if (faces.length !== steps.length + 2)
    throw new TypeError('checkTake: uma foto por passo, mais duas');
  const [first] = faces;
  if (!first) throw new TypeError('checkTake: sem fotos');
  const rest = faces.slice(1);
  const poses = rest.map((face) => relativePose(first.landmarks, face.landmarks));
  const distances = rest.map((face) => faceDistance(first, face));
  const scene: number[] = [];
  const scale: number[] = [];
  for (let i = 1; i < faces.length; i++) {
    const a = faces[i - 1];
    const b = faces[i];
    if (!a || !b) continue;
    scene.push(sceneChange(a, b));
    const ratio = faceSize(a) / faceSize(b);
    scale.push(Math.max(ratio, 1 / ratio));
  }
  const details = { poses, distances, sceneChange: scene, scaleChange: scale };

  const sameFace = distances.every((d) => d < limits.sameFace);
  const continuous =
    scene.every((d) => d <= limits.maxSceneChange) &&
    scale.every((r) => r <= limits.maxScaleChange);
  let followed = true;
  let depth = true;
  let failure: TakeResult['failure'] = null;
  for (const [index, move] of steps.entries()) {
    const pose = poses[index];
    if (!pose) continue;
    const axis = moveAxis(move);
    const turn = moveAmount(move, pose);
    const cross = Math.abs(axis === 'yaw' ? pose.pitch : pose.yaw);
    const sine = Math.sin((Math.max(turn, 1) * Math.PI) / 180);
    const shown = reliefToward(move, pose.depthRelief);
    if (turn < minTurn(move, limits) || cross > limits.maxCrossTurn * turn) {
      followed = false;
      failure ??= { code: 'FACE_CHALLENGE_NOT_FOLLOWED', step: index + 1, move };
    } else if (
      pose.fit < limits.minFit ||
      shown.midline < limits.minMidlineDepth[axis] * sine ||
      shown.lateral < limits.minOutlineDepth[axis] * sine
    ) {
      depth = false;
      failure ??= { code: 'FACE_CHALLENGE_NO_DEPTH', step: index + 1, move };
    }
  }
  const last = poses[poses.length - 1];
  if (last && (Math.abs(last.yaw) > limits.maxReturn || Math.abs(last.pitch) > limits.maxReturn)) {
    followed = false;
    failure ??= { code: 'FACE_CHALLENGE_NOT_FOLLOWED', step: steps.length + 1, move: null };
  }
  // A cut or another face explains everything after it: they are told first.
  if (!continuous) failure = { code: 'FACE_CHALLENGE_CUT', step: null, move: null };
  if (!sameFace) failure = { code: 'FACE_CHALLENGE_OTHER_FACE', step: null, move: null };
  return {
    passed: failure === null,
    failure,
    checks: { sameFace, continuous, followed, depth },
    details,
  };
}
