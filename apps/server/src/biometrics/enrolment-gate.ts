/**
 * The enrolment gate: refuses an analysed capture that a later verification
 * would struggle to match (issue 29, point 3). A template lasts: enrolling a
 * grimace, a turned head, a small or blurred face makes every later check of
 * that person harder, so enrolment is stricter than the engine's own gates
 * (which only ask that a face be usable at all).
 *
 * Pure functions of one FaceAnalysis: geometry of face-api's 68 landmarks
 * (iBUG order, `[x0, y0, ...]`, image pixels, not mirrored) and the quality
 * the engine measured. No image, model or I/O here, so the same rules can run
 * on every frame of a take. Limits: DEFAULT_ENROLMENT_LIMITS, chosen on the
 * dev photos only by tools/face/enrolment-gate-study.ts.
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
 * Chosen on the 20 dev photos only by `npm run face:enrolment-gate-study -w
 * apps/server` (tools/face/enrolment-gate-study.ts; numbers from its last
 * run); holdout was never looked at. Of the 19 dev photos with a face, the
 * gate accepts 10 (p01-1, -3, -5, -7, -8, p02-4, p04-1, p05-1, p06-1,
 * p07-1) and refuses p01-4, p01-6 (expression), p01-2, p02-1, p02-2, p02-3,
 * p03-1, p08-1 (pose) and p10-1 (shape). Dev cannot show what each refusal
 * saves (2 people with several photos, and every p01/p02 enrolment but
 * p01-1's, p01-2's and p01-8's matched all its genuine probes), so a limit sits in
 * the gap between the frontal neutral photos and the ones the issue names,
 * with the margin on the side of the neutral ones.
 * What it misses: p01-8, a grimace showing the teeth, is inside the neutral
 * range on every landmark measure (and the worst dev enrolment: 5 of 7
 * genuine probes matched). And the landmark model draws a plausible face
 * under many synthetic occlusions the detector still finds (study, part 4):
 * accepted were hair over an eye 10 of 10, dark glasses 3 of the 5 found, a
 * hand over half the lower face 4 of 10, a bar over the mouth 3 of 10; the
 * other hands and bars are refused, mostly as expression (the lips drawn
 * under them are distorted), and masks are either not found (6 of 10) or
 * refused (4).
 */
export const DEFAULT_ENROLMENT_LIMITS: Readonly<EnrolmentLimits> = Object.freeze({
  // gate-study.ts's stricter rule ("as good as full size": FNMR within 5
  // points of full size, FMR <= 1%) refused faces under 40 px (faces of 40 px
  // vs full size: FNMR 7.4%; 32 px: 17.6%). A template serves every later
  // check, so enrolment takes that rule, not the verification gate's 28 px.
  // Refuses nothing on dev (smallest face found: p07-1, 43 px).
  minFaceSizePx: 40,
  // The same rule refused sharpness under 250 (the verification gate: 100).
  // Refuses nothing on dev (least sharp: the turned p01-2, 374).
  minSharpness: 250,
  // The detector's score is reported but not gated: the tiny detector's
  // confidence follows framing and face size more than quality (accepted
  // frontal dev faces: 0.61 for p07-1 to 1.00; the turned p02-2: 0.90).
  // Degrees (generic head of face-pose.ts). Frontal dev photos measure
  // |yaw| <= 5.0 and p10-1 11.6; the turned ones 20.3 (p02-2), 23.4 (p02-1),
  // 25.9 (p03-1), 30.6 (p01-2), 36.6 (p02-3): the 15 sits in that gap.
  // The outline estimate compresses past ~25° (p02-3, nearly in profile);
  // against relativePose between two photos of one person (study, part 5) it
  // agrees within ~5° under 25°.
  maxYaw: 15,
  // Accepted dev photos: |pitch| <= 9.1 (p01-8), the spread of nose length
  // between people as much as any tilt; p08-1, looking down at the camera
  // with her head thrown back, 20.1. Same bound as yaw. Coarser than yaw:
  // between two photos of one person it reads about 2/3 of relativePose's
  // pitch (study, part 5), so 15 here may be ~20 by the challenge's measure.
  maxPitch: 15,
  // Accepted dev photos tilt at most 6.2° (p01-3), the refused turned ones
  // up to 14.3° (p03-1); p08-1 36.2°. Same bound as yaw.
  maxRoll: 15,
  // Inner-lip gap / mouth width. Closed mouths on dev: 0.017-0.089; parted
  // lips 0.111-0.175 (p10-1, p04-1, p08-1, p01-8, p01-3; p01-3 as the
  // enrolment matched all 7 genuine probes); p01-4's grimace 0.232 and
  // p01-6's tongue 0.453. 0.2 sits between p01-3 and p01-4.
  maxMouthOpening: 0.2,
  // Eye aspect ratio; closed eyes measure ~0.05-0.15, and 0.2 is the usual
  // blink threshold (Soukupová and Čech). Dev's narrowest eyes: p01-1 0.294
  // (accepted), p08-1 0.248. Nothing on dev is refused by it; it refused one
  // synthetic pair of dark glasses (p06-1) the detector still found.
  minEyeOpenness: 0.2,
  // Mouth corners' height difference against the eye line, in eye distances
  // (0.08: ~5 mm for a 63 mm eye distance, a one-sided smile or sneer).
  // Frontal dev photos: at most 0.019 (p05-1); p02-3 in profile 0.052. Four
  // times dev's largest, so a naturally uneven mouth passes; refuses nothing
  // on dev.
  maxMouthTilt: 0.08,
  // Lips' shape against the mean mouth, in mouth widths. Closed neutral
  // mouths 0.012-0.039, parted lips up to 0.047 (p01-3, p04-1, p01-8);
  // p01-4's grimace 0.062, p01-6's tongue 0.116. 0.055 is midway between the
  // accepted 0.047 and p01-4, which the mouth opening also refuses.
  maxMouthDistortion: 0.055,
  // Eye distances. Neutral frontal dev faces fit the mean shape to
  // 0.018-0.032 (p01-8's grimace 0.036); the turned ones 0.058-0.132; p10-1,
  // turned 12° with her head tilted, lips pouted and a hand in her hair at
  // the side of the face, 0.078 (refused: the only dev photo refused on
  // shape alone). Synthetic masks the detector still finds: 0.069-0.103. At
  // almost twice the worst neutral face, so that another person's face
  // shape is not taken for an occlusion.
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
