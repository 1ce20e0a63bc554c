/**
 * The calls of the demonstration flows that more than one feature makes: a
 * demonstration candidate by CPF (`GET api/Demo/candidates/:cpf`, which tells
 * the biometry screen whether a CPF is a candidate's) and their face
 * enrolment (`POST api/Demo/candidates/:cpf/enrol`, the body of
 * `api/BiopassID/Create`). The query keys of the demo data live here too.
 */
import type { DemoCandidate } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { enrolBody, type FaceTakeInput } from '../../../lib/face-take';

export const demoKeys = {
  all: ['demo'] as const,
  candidates: () => ['demo', 'candidates'] as const,
  list: () => ['demo', 'candidates', 'list'] as const,
  candidate: (cpf: string) => ['demo', 'candidates', cpf] as const,
};

/** `api/Demo/candidates/:cpf` and below; the CPF goes as digits. */
export function demoCandidatePath(cpf: string, suffix = ''): string {
  return `api/Demo/candidates/${encodeURIComponent(cpf.replace(/\D/g, ''))}${suffix}`;
}

/** A candidate by CPF; a CPF that names none fails with 404 (DEMO_CANDIDATE_NOT_FOUND). */
export function demoCandidateQuery(cpf: string) {
  return queryOptions({
    queryKey: demoKeys.candidate(cpf),
    queryFn: ({ signal }) => api.get<DemoCandidate>(demoCandidatePath(cpf), { signal }),
    retry: false,
  });
}

/** Enrols the candidate's face with a live take, as `api/BiopassID/Create` takes it. */
export function enrolDemoFace(input: FaceTakeInput) {
  const body = enrolBody(input);
  return api.post<unknown>(demoCandidatePath(input.cpf, '/enrol'), body);
}
