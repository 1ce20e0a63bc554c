/**
 * Synthetic face "takes" for tests, the liveness benchmark and the e2e fake
 * camera: a take is neutral, one picture per challenge step at the peak of
 * the move, neutral again (steps.length + 2 JPEG pictures, 640x400).
 *
 * How a GENUINE turn is made: one real photo (a dev or holdout portrait)
 * is framed like a webcam picture; the engine's 68 landmarks, plus control
 * points on the forehead, skull, sides of the head and neck, get depths
 * from a generic 3-D head (head-model.ts); the head's points turn about the
 * neck axis behind the face, are projected, and the photo is warped
 * triangle by triangle from their neutral to their turned positions, far
 * triangles first so the nose covers the far cheek. Points on the frame
 * border and the shoulders stay put (the body and the room do not move).
 * The result carries the depth of a real head (the nose tip moves against
 * the face's outline) without any video of the person.
 *
 * That is exactly what an attacker with a generator could show: one photo
 * of the victim and this file make a take that turns as asked. A check
 * that passes these takes therefore also passes such an attacker; only a
 * factor of the person's own (session, password) stops them. The attacks
 * here (attackTakes) are what a still photo can do: digital shifts,
 * scales, rotations and shears, a printed page tilted or bent, re-encoded
 * or relit, a take recorded for another challenge, cuts between photos,
 * another face mid-take.
 *
 * Everything is deterministic by seed; nothing here is server runtime code.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { type FaceMove } from '@exame/shared';
import { type FaceService } from '../../src/biometrics/face-engine';
import { AppError } from '../../src/lib/app-error';
import { stillPhotoAttacks, type AttackTake } from './attack-takes';
import { buildHeadModel, eyeCentres, poseHead, type HeadModel, type HeadPose } from './head-model';
import {
  addNoise,
  between,
  cloneImage,
  createRandom,
  decodeRgb,
  drawMesh,
  encodeJpeg,
  hashSeed,
  pick,
  resampleSoftBorder,
  type Random,
  type RgbImage,
} from './mesh-warp';

export type { AttackTake, FaceMove };

export const FRAME_WIDTH = 640;
export const FRAME_HEIGHT = 400;
/** Eye-centre distance of the framed face, px: a face at arm's length from a laptop webcam. */
export const FRAME_EYE_DISTANCE = 64;
const FRAME_EYES_AT: readonly [number, number] = [FRAME_WIDTH / 2, 175];

/** A still photo framed as a webcam picture, with the engine's own landmarks on it. */
export type Source = {
  name: string;
  photoPath: string;
  width: number;
  height: number;
  /** RGB bytes of the frame, row by row. */
  rgb: Uint8Array;
  /** 68 landmarks in frame pixels, [x0, y0, ...] (face-api order). */
  landmarks: number[];
};

export type GenuineOptions = {
  seed?: number;
  /** Peak yaw of a left/right step; default 22° randomised ±25% per take (a given value is not; each picture still varies ±8%). */
  yawDegrees?: number;
  /** Peak pitch of an up/down step; default 16° randomised ±25% per take (a given value is not; each picture still varies ±8%). */
  pitchDegrees?: number;
  /** Scales the head model's depths; default random in [0.8, 1.2] per take. */
  depthScale?: number;
};

/** The face service, in process or on workers: anything that analyses a picture. */
export type Analyzer = Pick<FaceService, 'analyze'>;

/** The face codes that mean "no usable face here": a failure to acquire, not a crash. */
const ACQUIRE_FAILURES = new Set([
  'FACE_NOT_FOUND',
  'FACE_MULTIPLE',
  'FACE_TOO_SMALL',
  'FACE_TOO_DARK',
  'FACE_BLURRED',
  'IMAGE_INVALID',
]);

async function analyzeOrNull(engine: Analyzer, jpeg: Uint8Array) {
  try {
    return await engine.analyze(jpeg);
  } catch (error) {
    if (error instanceof AppError && ACQUIRE_FAILURES.has(error.code)) return null;
    throw error;
  }
}

const midpoint = (landmarks: readonly number[]) => {
  const { left, right } = eyeCentres(landmarks);
  return [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2] as const;
};

/**
 * Frames the photo's face like a webcam picture (eyes level and 64 px
 * apart, face centred, the rest of the photo around it, its border
 * extended where the photo ends), then lets the engine find the face again
 * on that frame. Null when it finds no usable face (a failure to acquire).
 */
export async function loadSource(photoPath: string, engine: Analyzer): Promise<Source | null> {
  const bytes = await fs.readFile(photoPath);
  const face = await analyzeOrNull(engine, bytes);
  if (!face) return null;
  const photo = await decodeRgb(bytes);
  const sx = photo.width / face.imageWidth;
  const sy = photo.height / face.imageHeight;
  const points = face.landmarks.map((v, i) => v * (i % 2 === 0 ? sx : sy));
  const { left, right } = eyeCentres(points);
  const k = Math.hypot(right[0] - left[0], right[1] - left[1]) / FRAME_EYE_DISTANCE;
  const roll = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const cos = Math.cos(roll) * k;
  const sin = Math.sin(roll) * k;
  const [mx, my] = midpoint(points);
  const [fx, fy] = FRAME_EYES_AT;
  // frame pixel -> photo pixel: scale and turn about the eyes' midpoint.
  const frame = await resampleSoftBorder(photo, FRAME_WIDTH, FRAME_HEIGHT, [
    cos,
    -sin,
    mx - cos * fx + sin * fy,
    sin,
    cos,
    my - sin * fx - cos * fy,
  ]);
  const again = await analyzeOrNull(engine, await encodeJpeg(frame, 95));
  if (!again) return null;
  const [ax, ay] = midpoint(again.landmarks);
  // Another face than the one framed (a poster, a second person): not this source.
  if (Math.hypot(ax - fx, ay - fy) > 24) return null;
  return {
    name: path.basename(photoPath).replace(/\.[^.]+$/, ''),
    photoPath,
    width: frame.width,
    height: frame.height,
    rgb: frame.data,
    landmarks: again.landmarks,
  };
}

const frameOf = (source: Source): RgbImage => ({
  data: source.rgb,
  width: source.width,
  height: source.height,
});

const models = new WeakMap<Source, HeadModel>();
function modelOf(source: Source): HeadModel {
  let model = models.get(source);
  if (!model) {
    model = buildHeadModel(source.landmarks, source.width, source.height);
    models.set(source, model);
  }
  return model;
}

/** The source's head in `pose`: the frame warped by the turned 3-D control points. */
export function renderHead(source: Source, pose: HeadPose): RgbImage {
  const model = modelOf(source);
  const { target, depth } = poseHead(model, pose);
  const frame = frameOf(source);
  const out = cloneImage(frame);
  drawMesh(frame, out, { source: model.frame, target, depth, triangles: model.triangles });
  return out;
}

type TakePlan = { yaw: number; pitch: number; depthScale: number };

function planTake(random: Random, options: GenuineOptions): TakePlan {
  return {
    yaw: options.yawDegrees ?? 22 * between(random, 0.75, 1.25),
    pitch: options.pitchDegrees ?? 16 * between(random, 0.75, 1.25),
    depthScale: options.depthScale ?? between(random, 0.8, 1.2),
  };
}

/** The pose at the peak of `move` (null: looking at the camera), with a webcam's small head shift. */
function peakPose(move: FaceMove | null, plan: TakePlan, random: Random): HeadPose {
  const angle = random() * 2 * Math.PI;
  const r = between(random, 0, 3);
  const pose: HeadPose = {
    yaw: 0,
    pitch: 0,
    roll: 0,
    depthScale: plan.depthScale,
    shift: [r * Math.cos(angle), r * Math.sin(angle)],
  };
  if (!move) return pose;
  const sign = move === 'left' || move === 'up' ? 1 : -1;
  pose.roll = between(random, -2, 2);
  if (move === 'left' || move === 'right') {
    pose.yaw = sign * plan.yaw * between(random, 0.92, 1.08);
    pose.pitch = between(random, -3, 3);
  } else {
    pose.pitch = sign * plan.pitch * between(random, 0.92, 1.08);
    pose.yaw = between(random, -3, 3);
  }
  return pose;
}

async function cameraPicture(image: RgbImage, random: Random): Promise<Buffer> {
  addNoise(image, random, between(random, 1.5, 2.5));
  return encodeJpeg(image, between(random, 88, 92));
}

/** A real head turn (with depth) for `steps`: neutral, one picture per step, neutral. */
export async function genuineTake(
  source: Source,
  steps: readonly FaceMove[],
  options: GenuineOptions = {},
): Promise<Buffer[]> {
  const random = createRandom(hashSeed('genuine', source.name, options.seed ?? 1));
  const plan = planTake(random, options);
  const pictures: Buffer[] = [];
  for (const move of [null, ...steps, null]) {
    pictures.push(await cameraPicture(renderHead(source, peakPose(move, plan, random)), random));
  }
  return pictures;
}

const OPPOSITE: Record<FaceMove, FaceMove> = {
  left: 'right',
  right: 'left',
  up: 'down',
  down: 'up',
};

/** Another sequence of the same length: what a take recorded for an earlier challenge shows. */
export function otherSteps(steps: readonly FaceMove[], seed = 1): FaceMove[] {
  const key = steps.join(',');
  const candidates = [
    [...steps].reverse(),
    steps.map((s) => OPPOSITE[s]),
    [...steps.slice(1), steps[0]!],
  ].filter((c) => c.join(',') !== key);
  return pick(createRandom(hashSeed('other-steps', key, seed)), candidates);
}

/** A genuine take recorded for another challenge (`recordedFor`), replayed against `steps`. */
export async function replayTake(
  source: Source,
  steps: readonly FaceMove[],
  recordedFor: readonly FaceMove[] = otherSteps(steps),
  options: GenuineOptions = {},
): Promise<Buffer[]> {
  if (recordedFor.join(',') === steps.join(','))
    throw new TypeError('replayTake: recordedFor must differ from steps');
  return genuineTake(source, recordedFor, options);
}

/** Genuine pictures cut together from different photos of one person, alternating photo each picture. */
export async function stitchedTake(
  sources: readonly Source[],
  steps: readonly FaceMove[],
  options: GenuineOptions = {},
): Promise<Buffer[]> {
  if (sources.length < 2)
    throw new TypeError('stitchedTake: needs at least two photos of the person');
  const seed = options.seed ?? 1;
  const takes = await Promise.all(
    sources.map((s, i) => genuineTake(s, steps, { ...options, seed: seed + i })),
  );
  return takes[0]!.map((_, i) => takes[i % takes.length]![i]!);
}

/** Person A's genuine take whose middle picture is person B's, from B's genuine take. */
export async function otherFaceTake(
  a: Source,
  b: Source,
  steps: readonly FaceMove[],
  options: GenuineOptions = {},
): Promise<Buffer[]> {
  const [takeA, takeB] = await Promise.all([
    genuineTake(a, steps, options),
    genuineTake(b, steps, options),
  ]);
  const middle = Math.floor(takeA.length / 2);
  return takeA.map((picture, i) => (i === middle ? takeB[middle]! : picture));
}

/**
 * The presentation attacks of one still photo for `steps` (about 30 takes,
 * each steps.length + 2 pictures): see attack-takes.ts, plus a genuine
 * take recorded for another challenge ('replay'). Stitched and other-face
 * takes need more photos: stitchedTake, otherFaceTake.
 */
export async function attackTakes(
  source: Source,
  steps: readonly FaceMove[],
  options: { seed?: number } = {},
): Promise<AttackTake[]> {
  const seed = options.seed ?? 1;
  const takes = await stillPhotoAttacks(
    { name: source.name, frame: frameOf(source), landmarks: source.landmarks },
    steps,
    seed,
  );
  const recordedFor = otherSteps(steps, seed);
  takes.push({
    kind: 'replay',
    variant: 'recorded-for-another-order',
    pictures: await replayTake(source, steps, recordedFor, { seed }),
  });
  return takes;
}

export type ClipOptions = GenuineOptions & { fps?: number; holdSeconds?: number };

/**
 * A video of the head looking at the camera, then left, right, up and down,
 * back to the camera between each, each pose held about `holdSeconds` with
 * eased transitions: JPEG frames for the e2e fake camera (y4m by ffmpeg).
 */
export async function turningClip(source: Source, options: ClipOptions = {}): Promise<Buffer[]> {
  const fps = options.fps ?? 10;
  const hold = Math.max(1, Math.round((options.holdSeconds ?? 1) * fps));
  const transition = Math.max(2, Math.round(0.3 * fps));
  const random = createRandom(hashSeed('clip', source.name, options.seed ?? 1));
  const plan = planTake(random, options);
  const keys: Array<FaceMove | null> = [
    null,
    'left',
    null,
    'right',
    null,
    'up',
    null,
    'down',
    null,
  ];
  const poseOf = (move: FaceMove | null): [number, number] =>
    !move
      ? [0, 0]
      : move === 'left' || move === 'right'
        ? [(move === 'left' ? 1 : -1) * plan.yaw, 0]
        : [0, (move === 'up' ? 1 : -1) * plan.pitch];
  const frames: Buffer[] = [];
  let shift: [number, number] = [0, 0];
  const emit = async (yaw: number, pitch: number) => {
    // A person holding still drifts by a pixel or so between frames.
    shift = [
      Math.max(-3, Math.min(3, shift[0] + between(random, -0.6, 0.6))),
      Math.max(-3, Math.min(3, shift[1] + between(random, -0.6, 0.6))),
    ];
    const image = renderHead(source, { yaw, pitch, roll: 0, depthScale: plan.depthScale, shift });
    frames.push(await cameraPicture(image, random));
  };
  for (let k = 0; k < keys.length; k++) {
    const [yaw, pitch] = poseOf(keys[k]!);
    for (let f = 0; f < hold; f++)
      await emit(yaw + between(random, -0.7, 0.7), pitch + between(random, -0.7, 0.7));
    const next = keys[k + 1];
    if (next === undefined) break;
    const [nextYaw, nextPitch] = poseOf(next);
    for (let f = 1; f <= transition; f++) {
      const t = (1 - Math.cos((Math.PI * f) / (transition + 1))) / 2;
      await emit(yaw + (nextYaw - yaw) * t, pitch + (nextPitch - pitch) * t);
    }
  }
  return frames;
}
