/**
 * The challenge of a face capture: before a capture the server
 * issues a one-time nonce with a random sequence of two or three head
 * movements, valid about a minute, tied to the user who asked, the CPF whose
 * face is captured and the purpose. The capture screen guides the person
 * through it and sends the take in order: a neutral picture (looking at the
 * camera), one picture at the peak of each movement, and a neutral picture
 * again. A still picture, however it is moved, never follows it with the
 * depth of a real head (face-pose.ts).
 */
import { z } from 'zod';
import { cpfSchema } from './cpf';
import { errorCatalogue } from './errors';

/** The person's OWN left and right; `up` looks up (chin raised), `down` looks down. */
export const FACE_MOVES = ['left', 'right', 'up', 'down'] as const;
export type FaceMove = (typeof FACE_MOVES)[number];
export const faceMoveSchema = z.enum(FACE_MOVES);

export const FACE_CHALLENGE_PURPOSES = [
  'enrolment',
  'verification',
  'check-in',
  'check-out',
] as const;
export type FaceChallengePurpose = (typeof FACE_CHALLENGE_PURPOSES)[number];

/** How long a challenge may be answered; a take that comes later is refused. */
export const FACE_CHALLENGE_TTL_MS = 60_000;
export const FACE_CHALLENGE_MIN_STEPS = 2;
export const FACE_CHALLENGE_MAX_STEPS = 3;

/** Pictures of a take: neutral, one per step, neutral again. */
export function challengePictures(steps: number): number {
  return steps + 2;
}

/** What the capture screen says for each movement (the face frame shows the arrow too). */
export const FACE_MOVE_PROMPTS: Readonly<Record<FaceMove, string>> = {
  left: 'Vire o rosto devagar para a sua esquerda',
  right: 'Vire o rosto devagar para a sua direita',
  up: 'Levante o queixo e olhe para cima',
  down: 'Abaixe o queixo e olhe para baixo',
};
/** The checklist's short names of the movements. */
export const FACE_MOVE_LABELS: Readonly<Record<FaceMove, string>> = {
  left: 'Virar à esquerda',
  right: 'Virar à direita',
  up: 'Olhar para cima',
  down: 'Olhar para baixo',
};
export const FACE_NEUTRAL_PROMPT = 'Olhe para a câmera, com o rosto dentro da moldura';
export const FACE_RETURN_PROMPT = 'Volte a olhar para a câmera';

/**
 * The least turn, in degrees of the landmark-based pose (face-pose.ts), that
 * a step's picture must show in the direction asked; the capture screen
 * waits for FACE_MOVE_CLIENT_MARGIN_DEGREES more before it takes the picture,
 * so that what it sends clears the server's bar.
 */
export const FACE_MOVE_MIN_DEGREES: Readonly<Record<'yaw' | 'pitch', number>> = {
  yaw: 12,
  pitch: 9,
};
export const FACE_MOVE_CLIENT_MARGIN_DEGREES = 4;
/** How far from the first picture the last one may be and still count as "back to the camera". */
export const FACE_RETURN_MAX_DEGREES = 9;

export const faceChallengeRequestSchema = z
  .object({
    purpose: z.enum(FACE_CHALLENGE_PURPOSES),
    /** Whose face: a CPF of the unit; or, at check-out, `checkInViewerId`; or examiner 2's `proctoringToken`. */
    cpf: cpfSchema.optional(),
    checkInViewerId: z.uuid('Examinador inválido.').optional(),
    proctoringToken: z.string().max(1000).optional(),
  })
  .refine(
    (body) =>
      body.cpf !== undefined ||
      body.checkInViewerId !== undefined ||
      body.proctoringToken !== undefined,
    { message: 'Informe de quem é o rosto a capturar.', path: ['cpf'] },
  );
export type FaceChallengeRequest = z.input<typeof faceChallengeRequestSchema>;

export const faceChallengeSchema = z.object({
  challengeId: z.uuid(),
  steps: z.array(faceMoveSchema).min(FACE_CHALLENGE_MIN_STEPS).max(FACE_CHALLENGE_MAX_STEPS),
  /** Pictures the take must have: neutral, one per step, neutral again. */
  pictures: z.number().int(),
  expiresAt: z.string(),
});
export type FaceChallenge = z.infer<typeof faceChallengeSchema>;

/** The challenge a take answers, sent with its pictures. */
export const challengeIdSchema = z.uuid('Desafio da captura inválido.');

export const FACE_CHALLENGE_ERRORS = errorCatalogue({
  FACE_CHALLENGE_REQUIRED: {
    status: 400,
    message:
      'A captura precisa de um desafio novo (os movimentos pedidos na tela). Comece a captura novamente.',
  },
  FACE_CHALLENGE_INVALID: {
    status: 422,
    message:
      'O desafio desta captura não vale para esta pessoa, este uso ou este usuário. Comece a captura novamente.',
  },
  FACE_CHALLENGE_EXPIRED: {
    status: 422,
    message: 'O tempo para responder ao desafio acabou. Comece a captura novamente.',
  },
  FACE_CHALLENGE_USED: {
    status: 409,
    message: 'Este desafio já foi usado. Comece a captura novamente para receber outro.',
  },
  FACE_CHALLENGE_FRAMES: {
    status: 422,
    message:
      'A captura não tem as fotos do desafio: uma olhando para a câmera, uma em cada movimento pedido e outra olhando para a câmera no fim.',
  },
  FACE_CHALLENGE_NOT_FOLLOWED: {
    status: 422,
    message: 'Os movimentos pedidos não foram feitos na ordem. Comece a captura novamente.',
  },
  FACE_CHALLENGE_NO_DEPTH: {
    status: 422,
    message:
      'O movimento não mostrou um rosto real virando: uma foto ou uma tela não passa. Faça a captura com o próprio rosto diante da câmera.',
  },
  FACE_CHALLENGE_CUT: {
    status: 422,
    message:
      'As fotos da captura não são de uma mesma filmagem contínua. Faça a captura de uma vez, sem trocar de lugar ou de câmera.',
  },
  FACE_CHALLENGE_OTHER_FACE: {
    status: 422,
    message:
      'Outro rosto apareceu durante a captura. Fique sozinho diante da câmera e tente novamente.',
  },
});
export type FaceChallengeErrorCode = keyof typeof FACE_CHALLENGE_ERRORS;

/** FACE_CHALLENGE_NOT_FOLLOWED naming the step (1-based) that was not seen. */
export function moveNotFollowedMessage(step: number, move: FaceMove): string {
  return `O movimento ${step} (${FACE_MOVE_LABELS[move].toLowerCase()}) não foi visto na captura. Comece a captura novamente e faça cada movimento quando a tela pedir.`;
}
