/**
 * The body of a face call made with a live take (`api/BiopassID/Create`,
 * `api/BiopassID/Verify` and the demonstration's calls of the same shape):
 * the person, the challenge the take answers, its image and frames, and
 * where it was taken. A verification also names this device.
 */
import type { EnrolRequest, VerifyRequest } from '@exame/shared';
import type { Capture } from './face-capture';
import { getDeviceId } from './storage';

export type FaceTakeInput = {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
};

export function enrolBody(input: FaceTakeInput): EnrolRequest {
  return {
    cpf: input.cpf,
    challengeId: input.capture.challengeId,
    image: input.capture.image,
    frames: input.capture.frames,
    uf: input.uf,
    local: input.local,
  };
}

export function verifyBody(input: FaceTakeInput): VerifyRequest {
  return { ...enrolBody(input), deviceId: getDeviceId() };
}
