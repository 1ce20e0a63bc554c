/**
 * A take answering a face challenge, the one door of enrolment,
 * verification and the examiners' check-in and check-out: the challenge is
 * claimed first (a wrong, expired or reused one stops here), the pictures
 * are counted, normalised and analysed once each, and the take must follow
 * the challenge live (challenge-check.ts). A take that does not is refused
 * with its own code and nothing is written (no verification, no capture).
 */
import {
  FACE_CHALLENGE_ERRORS,
  FACE_RETURN_PROMPT,
  moveNotFollowedMessage,
  type FaceChallengePurpose,
  type FaceMove,
} from '@exame/shared';
import { checkTake, type TakeResult } from '../../biometrics/challenge-check';
import {
  compareWithEnrolment,
  decideOnMean,
  type Descriptor,
  type EnrolmentComparison,
  type FaceComparison,
} from '../../biometrics/descriptor';
import { analyzeTake, type AnalysedCapture } from '../../biometrics/face-captures';
import type { FaceAnalysis, FaceService } from '../../biometrics/face-engine';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import { useChallenge } from './face-challenges.service';

export type TakeInput = {
  challengeId?: string | null;
  image: string;
  frames?: readonly string[];
};

export type Take = {
  challengeId: string;
  steps: FaceMove[];
  purpose: FaceChallengePurpose;
  /** Every picture in order: neutral, one per movement, neutral. */
  captures: AnalysedCapture[];
  check: TakeResult;
};

/** The indexes of the take's pictures that look at the camera (the first and the last). */
export function neutralIndexes(take: Pick<Take, 'captures'>): number[] {
  return [0, take.captures.length - 1];
}

function refusal(check: TakeResult): AppError {
  const failure = check.failure;
  const code = failure?.code ?? 'FACE_CHALLENGE_NOT_FOLLOWED';
  const message =
    code === 'FACE_CHALLENGE_NOT_FOLLOWED' && failure?.step
      ? failure.move
        ? moveNotFollowedMessage(failure.step, failure.move)
        : `${FACE_RETURN_PROMPT} no fim da captura. Comece a captura novamente.`
      : undefined;
  return AppError.from(FACE_CHALLENGE_ERRORS, code, message);
}

/**
 * Claims the challenge for `cpf` and one of `purposes`, then analyses and
 * checks the take. Throws the refusal; returns the take that followed it.
 */
export async function runTake(
  deps: { db: Executor; face: FaceService },
  actor: SessionUser,
  input: TakeInput & { cpf: string; purposes: readonly FaceChallengePurpose[] },
): Promise<Take> {
  const challenge = await useChallenge(deps.db, actor, {
    challengeId: input.challengeId ?? undefined,
    cpf: input.cpf,
    purposes: input.purposes,
  });
  const pictures = [input.image, ...(input.frames ?? [])];
  if (pictures.length !== challenge.steps.length + 2) {
    throw AppError.from(FACE_CHALLENGE_ERRORS, 'FACE_CHALLENGE_FRAMES');
  }
  const captures = await analyzeTake(deps.face, pictures);
  const check = checkTake(
    challenge.steps,
    captures.map((capture) => capture.analysis),
  );
  if (!check.passed) throw refusal(check);
  return {
    challengeId: challenge.id,
    steps: challenge.steps,
    purpose: challenge.purpose,
    captures,
    check,
  };
}

/**
 * The decision on the whole take: every picture that looks at the camera is
 * compared with the enrolled template (compareWithEnrolment: the mean over
 * the enrolled captures), and the take matches when the mean of those
 * distances is under the threshold. Rule chosen on dev (docs/biometrics.md,
 * "Decisão sobre a captura inteira").
 */
export function compareTake(
  compare: (a: FaceAnalysis, b: Descriptor) => FaceComparison,
  take: Pick<Take, 'captures'>,
  enrolled: readonly number[][],
): EnrolmentComparison {
  const each = neutralIndexes(take).map((index) => {
    const capture = take.captures[index];
    if (!capture) throw new TypeError('compareTake: foto ausente');
    return compareWithEnrolment(compare, capture.analysis, enrolled);
  });
  return decideOnMean(
    each,
    each.flatMap((c) => c.captures),
  );
}

/** What a verification records of the take's liveness (JSON of `biometric_verifications.liveness`). */
export function takeLiveness(take: Take) {
  return {
    checked: true,
    passed: true,
    checks: take.check.checks,
    steps: take.steps,
    poses: take.check.details.poses.map((pose) => ({
      yaw: Number(pose.yaw.toFixed(1)),
      pitch: Number(pose.pitch.toFixed(1)),
      fit: Number(pose.fit.toFixed(2)),
    })),
    note: 'Desafio respondido ao vivo (movimentos na ordem pedida, com a profundidade de um rosto, numa captura contínua); não é prova de vida: um vídeo da pessoa fazendo esses movimentos, uma máscara 3-D ou um rosto gerado ao vivo não são barrados.',
  };
}
