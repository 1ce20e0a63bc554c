/**
 * Face enrolment and verification calls (spec 7: `api/BiopassID/Create`,
 * `api/BiopassID/Verify`), each with the take that answers a challenge of
 * `api/BiopassID/Challenge` (issue 29).
 */
import type {
  Enrolment,
  EnrolRequest,
  EnrolResponse,
  VerifyRequest,
  VerifyResponse,
} from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Capture } from '../../../lib/face-capture';
import { getDeviceId } from '../../../lib/storage';

export type { VerifyResponse };
export { requestFaceChallenge } from '../../../lib/face-challenge';

export function verifyFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  const body: VerifyRequest = {
    cpf: input.cpf,
    challengeId: input.capture.challengeId,
    image: input.capture.image,
    frames: input.capture.frames,
    uf: input.uf,
    local: input.local,
    deviceId: getDeviceId(),
  };
  return api.post<VerifyResponse>('api/BiopassID/Verify', body);
}

/** Enrolment is a live take too: a photo taken elsewhere cannot enrol anyone. */
export function enrolFace(input: {
  cpf: string;
  capture: Capture;
  uf: string;
  local: string | null;
}) {
  const body: EnrolRequest = {
    cpf: input.cpf,
    challengeId: input.capture.challengeId,
    image: input.capture.image,
    frames: input.capture.frames,
    uf: input.uf,
    local: input.local,
  };
  return api.post<EnrolResponse>('api/BiopassID/Create', body);
}

export function enrolmentQuery(cpf: string) {
  return queryOptions({
    queryKey: ['biometrics', 'enrolment', cpf],
    queryFn: ({ signal }) => api.get<Enrolment>(`api/BiopassID/${cpf}`, { signal }),
    retry: false,
  });
}
