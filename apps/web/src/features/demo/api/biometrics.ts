/**
 * Face enrolment and verification calls (spec 7: `api/BiopassID/Create`,
 * `api/BiopassID/Verify`), each with the take that answers a challenge of
 * `api/BiopassID/Challenge`.
 */
import type { Enrolment, EnrolResponse, VerifyResponse } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { enrolBody, verifyBody, type FaceTakeInput } from '../../../lib/face-take';

export type { VerifyResponse };
export { requestFaceChallenge } from '../../../lib/face-challenge';

export function verifyFace(input: FaceTakeInput) {
  const body = verifyBody(input);
  return api.post<VerifyResponse>('api/BiopassID/Verify', body);
}

/** Enrolment is a live take too: a photo taken elsewhere cannot enrol anyone. */
export function enrolFace(input: FaceTakeInput) {
  const body = enrolBody(input);
  return api.post<EnrolResponse>('api/BiopassID/Create', body);
}

export function enrolmentQuery(cpf: string) {
  return queryOptions({
    queryKey: ['biometrics', 'enrolment', cpf],
    queryFn: ({ signal }) => api.get<Enrolment>(`api/BiopassID/${cpf}`, { signal }),
    retry: false,
  });
}
