/** Data of the demonstration screen tests, typed with the shared contracts. */
import type { DemoCandidate } from '@exame/shared';

/** The demonstration candidate's CPF. */
export const DEMO_CPF = '52998224725';

/** A candidate who consented and has not enrolled yet; overrides make the others. */
export function demoCandidateOf(overrides: Partial<DemoCandidate> = {}): DemoCandidate {
  return {
    id: 'c1',
    name: 'Bruna Lima',
    cpf: DEMO_CPF,
    birthDate: '1990-01-31',
    email: 'bruna@exemplo.com',
    phone: '61999991234',
    consent: { at: '2026-11-20T15:00:00.000Z', version: '2026-11-v1', current: true },
    enrolled: false,
    lastVerification: null,
    createdAt: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}
