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
  /** The last proof of who the person is in this session (null: none recorded). */
  provenAt: Date | null;
};

export type IntegrationCaller = { keyId: string; federativeUnit: string };
