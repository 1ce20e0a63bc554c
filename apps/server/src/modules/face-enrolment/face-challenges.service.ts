/**
 * Face challenges: `POST api/BiopassID/Challenge` issues a
 * one-time nonce with a random sequence of head movements, bound to the user
 * who asked, the CPF whose face the take will show and its purpose; the take
 * that answers it claims it (once, whatever the outcome) before any picture
 * is analysed. A wrong, expired or reused challenge stops the take with its
 * own code and nothing else is written.
 */
import { randomInt } from 'node:crypto';
import {
  challengePictures,
  FACE_CHALLENGE_ERRORS,
  FACE_CHALLENGE_MAX_STEPS,
  FACE_CHALLENGE_MIN_STEPS,
  FACE_CHALLENGE_TTL_MS,
  FACE_MOVES,
  stripCpf,
  type FaceChallenge,
  type FaceChallengePurpose,
  type FaceMove,
} from '@exame/shared';
import type { FaceService } from '../../biometrics/face-engine';
import type { Executor } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { AppError } from '../../lib/app-error';
import type { RateLimiter } from '../../db/rate-limit';
import { claimChallenge, findChallenge, insertChallenge } from './face-challenges.repository';

export type ChallengeDeps = {
  db: Executor;
  limiter: RateLimiter;
  /** The engine the take will be read with: started when a challenge is issued. */
  face: Pick<FaceService, 'ready'>;
};

/** Who the take will show, when the request names them otherwise than by CPF (check-in flows). */
export type ChallengeSubject = {
  cpf?: string;
  checkInViewerId?: string;
  proctoringToken?: string;
};
export type SubjectResolver = (actor: SessionUser, subject: ChallengeSubject) => Promise<string>;

const challengeError = (code: keyof typeof FACE_CHALLENGE_ERRORS, message?: string) =>
  AppError.from(FACE_CHALLENGE_ERRORS, code, message);

/**
 * Two or three different movements in a random order (crypto-random: the
 * order must not be guessed), from all four: forcing one sideways and one
 * up-or-down move into every challenge let more bent pages through on dev
 * (docs/biometrics.md, attack model).
 */
export function drawSteps(random: (max: number) => number = randomInt): FaceMove[] {
  const count =
    FACE_CHALLENGE_MIN_STEPS + random(FACE_CHALLENGE_MAX_STEPS - FACE_CHALLENGE_MIN_STEPS + 1);
  const pool: FaceMove[] = [...FACE_MOVES];
  const steps: FaceMove[] = [];
  while (steps.length < count) {
    const [move] = pool.splice(random(pool.length), 1);
    if (move) steps.push(move);
  }
  return steps;
}

/** `POST api/BiopassID/Challenge`. */
export async function issueChallenge(
  deps: ChallengeDeps & { resolveSubject?: SubjectResolver },
  actor: SessionUser,
  input: ChallengeSubject & { purpose: FaceChallengePurpose },
): Promise<FaceChallenge> {
  await deps.limiter.hit('challengePerUser', actor.id);
  const cpf =
    input.checkInViewerId || input.proctoringToken
      ? await (deps.resolveSubject?.(actor, input) ??
          Promise.reject(challengeError('FACE_CHALLENGE_INVALID')))
      : stripCpf(input.cpf ?? '');
  if (!cpf) throw challengeError('FACE_CHALLENGE_INVALID');
  const steps = drawSteps();
  const row = await insertChallenge(deps.db, {
    federativeUnit: actor.federativeUnit,
    requestedBy: actor.id,
    cpf,
    purpose: input.purpose,
    steps,
    expiresAt: new Date(Date.now() + FACE_CHALLENGE_TTL_MS),
  });
  // The take that answers the challenge comes within seconds: the engine
  // starts now if it has not (its models load in about 2 s of one core). A
  // failed start is tried again by the take, which then answers FACE_ENGINE_UNAVAILABLE.
  deps.face.ready().catch(() => undefined);
  return {
    challengeId: row.id,
    steps,
    pictures: challengePictures(steps.length),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Claims the challenge a take presents: it must have been issued to this
 * user of this unit, for this CPF and one of `purposes`, not be used, and not
 * be expired. Its movements, or the refusal.
 */
export async function useChallenge(
  db: Executor,
  actor: SessionUser,
  take: { challengeId: string | undefined; cpf: string; purposes: readonly FaceChallengePurpose[] },
): Promise<{ id: string; steps: FaceMove[]; purpose: FaceChallengePurpose }> {
  if (!take.challengeId) throw challengeError('FACE_CHALLENGE_REQUIRED');
  const now = new Date();
  const claim = { federativeUnit: actor.federativeUnit, requestedBy: actor.id };
  const row = await claimChallenge(db, { id: take.challengeId, ...claim, at: now });
  if (!row) {
    const known = await findChallenge(
      db,
      take.challengeId,
      claim.federativeUnit,
      claim.requestedBy,
    );
    throw challengeError(known ? 'FACE_CHALLENGE_USED' : 'FACE_CHALLENGE_INVALID');
  }
  if (row.expiresAt <= now) throw challengeError('FACE_CHALLENGE_EXPIRED');
  if (row.cpf !== take.cpf || !take.purposes.includes(row.purpose)) {
    throw challengeError('FACE_CHALLENGE_INVALID');
  }
  const steps = row.steps.filter((step): step is FaceMove =>
    (FACE_MOVES as readonly string[]).includes(step),
  );
  return { id: row.id, steps, purpose: row.purpose };
}

// The door of this module for the others (modules import each other only through services).
export { deleteExpiredChallenges } from './face-challenges.repository';
