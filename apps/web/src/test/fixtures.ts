/** Data shared by the web tests. */
import type { AuthUser } from '@exame/shared';

/** A signed-in ADMIN of DF, as `POST api/Auth` answers it. */
export const TEST_USER: AuthUser = {
  name: 'Ana Souza',
  email: 'ana@exemplo.gov.br',
  cpf: '52998224725',
  federativeUnit: 'DF',
  roleDescription: 'ADMIN',
  token: 'token-da-ana-com-mais-de-vinte-caracteres',
  registerStatus: 'enabled',
  expiresAt: '2026-11-22T00:00:00.000Z',
};

/** Examiner 2 as the room's check-in keeps them (`userProctoring`). */
export const TEST_PROCTORING = {
  user: {
    id: '3f1e2d4c-5b6a-4978-8c1d-2e3f4a5b6c7d',
    name: 'Fiscal Dois',
    email: 'f***@teste.gov.br',
    cpf: '***.533.447-**',
    federativeUnit: 'DF',
    roleDescription: 'ROOM_INSPECTOR' as const,
  },
  proctoringToken: 'token-de-teste',
  expiresAt: '2099-01-01T00:00:00.000Z',
};
