/**
 * `POST api/BiopassID/Challenge`: a new challenge for one face
 * capture, for a purpose and a person (a CPF, the examiner of a record at
 * check-out, or examiner 2 by the proof of their password). Several features
 * capture faces (biometry, check-ins, demo), so the call lives here; each
 * feature's api file re-exports it.
 */
import type { FaceChallenge, FaceChallengeRequest } from '@exame/shared';
import { api } from './api';

export function requestFaceChallenge(body: FaceChallengeRequest): Promise<FaceChallenge> {
  return api.post<FaceChallenge>('api/BiopassID/Challenge', body);
}
