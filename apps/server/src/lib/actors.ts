/**
 * Who acts on a request: a signed-in user (session) or an integration client
 * (API key). Services take the actor as their second argument and scope
 * everything by its `federativeUnit`.
 */
import type { Role } from '@exame/shared';

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  cpf: string;
  federativeUnit: string;
  role: Role;
  tokenHash: string;
  expiresAt: Date;
};

export type IntegrationCaller = { keyId: string; federativeUnit: string };
