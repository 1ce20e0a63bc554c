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
