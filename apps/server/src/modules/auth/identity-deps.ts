/** What the identity services need, built once per app. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config/env';
import type { Database } from '../../db/client';
import type { PasswordHasher } from '../../lib/password-hash';
import type { Mailer } from '../mail/mailer';

export type IdentityDeps = {
  db: Database;
  config: AppConfig;
  hasher: PasswordHasher;
  mailer: Mailer;
  log: FastifyBaseLogger;
};

/** Links for reset and first password are valid for 30 minutes (security guide). */
export const PASSWORD_LINK_TTL_MS = 30 * 60_000;
