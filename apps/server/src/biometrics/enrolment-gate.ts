/**
 * The enrolment gate: refuses an analysed capture that a later verification
 * would struggle to match. A template lasts: enrolling a
 * grimace, a turned head, a small or blurred face makes every later check of
 * that person harder, so enrolment is stricter than the engine's own gates
 * (which only ask that a face be usable at all).
 *
 * Pure functions of one FaceAnalysis: geometry of face-api's 68 landmarks
 * (iBUG order, `[x0, y0, ...]`, image pixels, not mirrored) and the quality
 * the engine measured. No image, model or I/O here, so the same rules can run
 * on every frame of a take. Limits: DEFAULT_ENROLMENT_LIMITS, chosen on the
 * dev photos only by research/face/enrolment-gate-study.ts.
 */
import type { FaceAnalysis } from './face-engine';
import type { FaceErrorCode } from './face-errors';
import {
  dist,
  eyeOpenness,
  faceFrame,
  headPose,
  mouthDistortionOf,
  pick,
  shapeMisfitOf,
} from './face-shape';

export type EnrolmentMeasures = {
  faceSizePx: number;
  sharpness: number;
  /** The detector's confidence; reported, not gated (see DEFAULT_ENROLMENT_LIMITS). */
  detectionScore: number;
  /** Degrees; > 0: turned to the person's own left (nose towards image right). */
  yaw: number;
  /** Degrees; > 0: looking up. */
  pitch: number;
  /** Degrees of the eye line from horizontal; > 0: clockwise in the image. */
  roll: number;
  /** Inner-lip gap over mouth width (0 closed; ~0.45 on dev's tongue-out p01-6). */
  mouthOpening: number;
  /** Eye aspect ratio of the person's own right eye (image left): ~0.3 open, < 0.15 closed. */
  rightEyeOpenness: number;
  /** The same for the person's own left eye (image right). */
  leftEyeOpenness: number;
  /** Height of the image-right mouth corner below the image-left one, against the eye line, in eye distances. */
  mouthTilt: number;
  /** RMS distance of the 20 lip points to the mean mouth after aligning the mouth alone, in mouth widths. */
  mouthDistortion: number;
  /**
   * RMS distance, in eye distances, of the 68 points to MEAN_FRONTAL_SHAPE
   * after the best affine map plus a small head turn: what neither the face's
   * proportions nor its pose explain (occlusions and strong expressions bend
   * the predicted shape).
   */
  shapeMisfit: number;
};

export type EnrolmentLimits = {
  minFaceSizePx: number;
  minSharpness: number;
  maxYaw: number;
  maxPitch: number;
  maxRoll: number;
  maxMouthOpening: number;
  minEyeOpenness: number;
  maxMouthTilt: number;
  maxMouthDistortion: number;
  maxShapeMisfit: number;
};

/**
 * Chosen on the 20 dev photos only by research/face/enrolment-gate-study.ts;
 * holdout was never looked at. The measurements behind each limit: research/README.md.
 */
export const DEFAULT_ENROLMENT_LIMITS: Readonly<EnrolmentLimits> = Object.freeze({
  minFaceSizePx: 40,
  minSharpness: 250,
  maxYaw: 15,
  maxPitch: 15,
  maxRoll: 15,
  maxMouthOpening: 0.2,
  minEyeOpenness: 0.2,
  maxMouthTilt: 0.08,
  maxMouthDistortion: 0.055,
  maxShapeMisfit: 0.06,
});

export type EnrolmentRefusalCode = Extract<
  FaceErrorCode,
  | 'FACE_ENROL_TOO_SMALL'
  | 'FACE_ENROL_BLURRED'
  | 'FACE_ENROL_POSE'
  | 'FACE_ENROL_EXPRESSION'
  | 'FACE_ENROL_OCCLUDED'
>;

export type EnrolmentCheck =
  | { ok: true; measures: EnrolmentMeasures }
  | { ok: false; code: EnrolmentRefusalCode; measures: EnrolmentMeasures };

/** Everything the gate decides on, from one analysed capture. */
export function measureEnrolmentCapture(face: FaceAnalysis): EnrolmentMeasures {
  const { points: p, roll } = faceFrame(face.landmarks);
  const { yaw, pitch } = headPose(p);
  const gap = [61, 62, 63].reduce((sum, i) => sum + dist(pick(p, i), pick(p, 128 - i)), 0) / 3;
  return {
    faceSizePx: face.quality.faceSizePx,
    sharpness: face.quality.sharpness,
    detectionScore: face.detectionScore,
    yaw,
    pitch,
    roll,
    mouthOpening: gap / dist(pick(p, 48), pick(p, 54)),
    rightEyeOpenness: eyeOpenness(p, 36),
    leftEyeOpenness: eyeOpenness(p, 42),
    mouthTilt: pick(p, 54)[1] - pick(p, 48)[1],
    mouthDistortion: mouthDistortionOf(p),
    shapeMisfit: shapeMisfitOf(p),
  };
}

type Rule = {
  limit: keyof EnrolmentLimits;
  code: EnrolmentRefusalCode;
  beyond: (m: EnrolmentMeasures, limit: number) => boolean;
};

/**
 * In the order they are checked: from what makes the landmarks least
 * trustworthy (a small or blurred face) to what only a trustworthy, frontal
 * fit can tell (expression, then whatever pose and expression do not
 * explain: an occlusion).
 */
const RULES: readonly Rule[] = [
  { limit: 'minFaceSizePx', code: 'FACE_ENROL_TOO_SMALL', beyond: (m, l) => m.faceSizePx < l },
  { limit: 'minSharpness', code: 'FACE_ENROL_BLURRED', beyond: (m, l) => m.sharpness < l },
  { limit: 'maxYaw', code: 'FACE_ENROL_POSE', beyond: (m, l) => Math.abs(m.yaw) > l },
  { limit: 'maxPitch', code: 'FACE_ENROL_POSE', beyond: (m, l) => Math.abs(m.pitch) > l },
  { limit: 'maxRoll', code: 'FACE_ENROL_POSE', beyond: (m, l) => Math.abs(m.roll) > l },
  {
    limit: 'maxMouthOpening',
    code: 'FACE_ENROL_EXPRESSION',
    beyond: (m, l) => m.mouthOpening > l,
  },
  {
    limit: 'minEyeOpenness',
    code: 'FACE_ENROL_EXPRESSION',
    beyond: (m, l) => Math.min(m.rightEyeOpenness, m.leftEyeOpenness) < l,
  },
  {
    limit: 'maxMouthTilt',
    code: 'FACE_ENROL_EXPRESSION',
    beyond: (m, l) => Math.abs(m.mouthTilt) > l,
  },
  {
    limit: 'maxMouthDistortion',
    code: 'FACE_ENROL_EXPRESSION',
    beyond: (m, l) => m.mouthDistortion > l,
  },
  { limit: 'maxShapeMisfit', code: 'FACE_ENROL_OCCLUDED', beyond: (m, l) => m.shapeMisfit > l },
];

/** Every limit the measures break, in the order they are checked (for studies and logs). */
export function exceededLimits(
  measures: EnrolmentMeasures,
  limits: Readonly<EnrolmentLimits> = DEFAULT_ENROLMENT_LIMITS,
): Array<keyof EnrolmentLimits> {
  return RULES.filter((rule) => rule.beyond(measures, limits[rule.limit])).map((r) => r.limit);
}

/**
 * The verdict on one capture for enrolment: the code of the first rule it
 * breaks (RULES' order). A capture whose measures are not all finite
 * (degenerate landmarks) is refused as occluded.
 */
export function checkEnrolmentCapture(
  face: FaceAnalysis,
  limits: Readonly<EnrolmentLimits> = DEFAULT_ENROLMENT_LIMITS,
): EnrolmentCheck {
  const measures = measureEnrolmentCapture(face);
  if (!Object.values(measures).every(Number.isFinite)) {
    return { ok: false, code: 'FACE_ENROL_OCCLUDED', measures };
  }
  const broken = RULES.find((rule) => rule.beyond(measures, limits[rule.limit]));
  return broken ? { ok: false, code: broken.code, measures } : { ok: true, measures };
}
