/**
 * The demonstration flows' API (`api/Demo`): candidates, their contact and
 * biometric consent, the verification of a second capture and the wipe of
 * the demo data. Query keys live in `demoKeys` only (shared with the
 * biometry screen through lib/demo-candidates).
 */
import type {
  DemoCandidate,
  DemoCandidateInput,
  DemoContactInput,
  DemoVerification,
  DemoWipeResult,
} from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { demoCandidatePath, demoKeys } from './demo-candidates';
import { verifyBody, type FaceTakeInput } from '../../../lib/face-take';

export { demoCandidatePath, demoCandidateQuery, demoKeys, enrolDemoFace } from './demo-candidates';
export { requestFaceChallenge } from '../../../lib/face-challenge';
export type { DemoCandidate, DemoVerification, DemoWipeResult };

/** The list, as an array or as a page of `items` (either shape is read). */
type CandidateList = DemoCandidate[] | { items: DemoCandidate[] };

export function demoCandidatesQuery() {
  return queryOptions({
    queryKey: demoKeys.list(),
    queryFn: async ({ signal }) => {
      const answer = await api.get<CandidateList>('api/Demo/candidates', { signal });
      return Array.isArray(answer) ? answer : answer.items;
    },
    retry: false,
  });
}

export function createDemoCandidate(input: DemoCandidateInput) {
  return api.post<DemoCandidate>('api/Demo/candidates', input);
}

export function saveDemoContact(cpf: string, input: DemoContactInput) {
  return api.put<DemoCandidate>(demoCandidatePath(cpf, '/contact'), input);
}

/** The second capture against the enrolment: the body of `api/BiopassID/Verify`, the whole take. */
export function verifyDemoFace(input: FaceTakeInput) {
  const body = verifyBody(input);
  return api.post<DemoVerification>(demoCandidatePath(input.cpf, '/verify'), body);
}

export function wipeDemoData() {
  return api.delete<DemoWipeResult>('api/Demo/data');
}
