/**
 * The rules of the guided capture, apart from the screen: the
 * order of the pictures of a take, when the face is placed in the frame,
 * how far a movement has gone, and what the screen says at each moment.
 * The server decides on the take; these rules only choose when to take each
 * picture, a little past the server's bar (FACE_MOVE_CLIENT_MARGIN_DEGREES).
 */
import {
  FACE_MOVE_CLIENT_MARGIN_DEGREES,
  FACE_MOVE_MIN_DEGREES,
  FACE_MOVE_PROMPTS,
  FACE_NEUTRAL_PROMPT,
  FACE_RETURN_MAX_DEGREES,
  FACE_RETURN_PROMPT,
  moveAxis,
  moveNotFollowedMessage,
  type FaceMove,
  type RelativePose,
} from '@exame/shared';
import type { FaceBox } from '../../lib/face-landmarks';

/** What each picture of a take asks for: looking at the camera, a movement, looking back. */
export type GuideTarget = 'neutral' | FaceMove | 'return';

/** The pictures of a take in order: neutral, one per step, neutral again. */
export function takeTargets(steps: readonly FaceMove[]): GuideTarget[] {
  return ['neutral', ...steps, 'return'];
}

export function promptOf(target: GuideTarget): string {
  if (target === 'neutral') return FACE_NEUTRAL_PROMPT;
  if (target === 'return') return FACE_RETURN_PROMPT;
  return FACE_MOVE_PROMPTS[target];
}

/**
 * The face frame drawn over the preview, as fractions of the preview
 * (viewBox 160x100 of the overlay: ellipse at 80,48 with radii 22 and 30).
 */
export const FACE_FRAME = { cx: 0.5, cy: 0.48, rx: 22 / 160, ry: 30 / 100 } as const;
/** The preview's shape: the video fills it (object-fit: cover), so a 4:3 camera loses top and bottom. */
export const PREVIEW_ASPECT = 16 / 10;
/** A face narrower than this share of the preview is too far for a good picture. */
const MIN_FACE_WIDTH = 0.12;

export type Placement = 'ok' | 'off-centre' | 'small';

/**
 * Where a face's box falls in the preview: its centre inside the face frame
 * (a little slack) and not too small. The preview is mirrored, which does not
 * change a distance from its vertical middle.
 */
export function placement(box: FaceBox, videoWidth: number, videoHeight: number): Placement {
  let visibleWidth = videoWidth;
  let visibleHeight = videoHeight;
  if (videoWidth / videoHeight > PREVIEW_ASPECT) visibleWidth = videoHeight * PREVIEW_ASPECT;
  else visibleHeight = videoWidth / PREVIEW_ASPECT;
  const left = (videoWidth - visibleWidth) / 2;
  const top = (videoHeight - visibleHeight) / 2;
  const x = (box.x + box.width / 2 - left) / visibleWidth;
  const y = (box.y + box.height / 2 - top) / visibleHeight;
  const slack = 1.15;
  const distance =
    ((x - FACE_FRAME.cx) / FACE_FRAME.rx) ** 2 + ((y - FACE_FRAME.cy) / FACE_FRAME.ry) ** 2;
  if (distance > slack * slack) return 'off-centre';
  if (box.width / visibleWidth < MIN_FACE_WIDTH) return 'small';
  return 'ok';
}

/** Degrees a step's picture waits for: the server's least turn plus the screen's margin. */
export function moveGoal(move: FaceMove): number {
  return FACE_MOVE_MIN_DEGREES[moveAxis(move)] + FACE_MOVE_CLIENT_MARGIN_DEGREES;
}

/**
 * Back at the camera, with the screen's margin: the server takes up to
 * FACE_RETURN_MAX_DEGREES from the first picture, reading the pose on its
 * own detection of the JPEG, a degree or two away from the browser's.
 */
export const RETURN_GOAL_DEGREES = FACE_RETURN_MAX_DEGREES - FACE_MOVE_CLIENT_MARGIN_DEGREES;

export function isBack(pose: Pick<RelativePose, 'yaw' | 'pitch'>): boolean {
  return Math.abs(pose.yaw) < RETURN_GOAL_DEGREES && Math.abs(pose.pitch) < RETURN_GOAL_DEGREES;
}

export const GUIDE_HINTS = {
  noFace: 'Nenhum rosto encontrado: fique de frente para a câmera, em um lugar iluminado.',
  manyFaces: 'Há mais de um rosto na imagem: fique sozinho diante da câmera.',
  offCentre: 'Coloque o rosto dentro da moldura.',
  lookAhead: 'Olhe de frente para a câmera.',
  small: 'Aproxime-se um pouco da câmera.',
  hold: 'Assim. Fique parado um instante.',
  otherWay: 'Para o outro lado: siga a seta.',
  further: 'Continue o movimento, devagar.',
} as const;

/**
 * How long each picture may wait: at most `stepMaxMs`, and never so long
 * that the pictures still to take, plus the time to review and confirm,
 * would outlast the challenge.
 */
export function phaseTimeout(
  now: number,
  deadline: number,
  picturesLeft: number,
  timings: { stepMaxMs: number; reviewReserveMs: number; stepMinMs: number },
): number {
  const budget = (deadline - timings.reviewReserveMs - now) / Math.max(1, picturesLeft);
  return Math.max(timings.stepMinMs, Math.min(timings.stepMaxMs, budget));
}

/**
 * When the challenge ends on this device's clock. It was issued after the
 * request left (`requestedAt`), so the request time plus its lifetime is
 * never later than the real end, whatever the clocks; the server's
 * `expiresAt` is taken when it reads earlier (a shorter lifetime) and still
 * in the future here.
 */
export function challengeDeadline(
  expiresAt: string,
  ttlMs: number,
  requestedAt: number,
  now = Date.now(),
): number {
  const local = requestedAt + ttlMs;
  const server = Date.parse(expiresAt);
  if (Number.isFinite(server) && server > now && server < local) return server;
  return local;
}

/**
 * The picture a refusal is about, when the server names it: a movement not
 * seen (moveNotFollowedMessage) or the final look at the camera; else null.
 */
export function refusedPicture(message: string, targets: readonly GuideTarget[]): number | null {
  for (let index = 1; index < targets.length - 1; index += 1) {
    const target = targets[index];
    if (target && target !== 'neutral' && target !== 'return') {
      if (message === moveNotFollowedMessage(index, target)) return index;
    }
  }
  if (targets.length > 0 && message.startsWith(FACE_RETURN_PROMPT)) return targets.length - 1;
  return null;
}
