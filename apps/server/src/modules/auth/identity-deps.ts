/** What the identity services need, built once per app. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config/env';
import type { Database } from '../../db/client';
import type { PasswordHasher } from '../../lib/password-hash';
import type { SecretBox } from '../../lib/secret-box';
import type { RateLimiter } from '../../db/rate-limit';
import type { Mailer } from '../mail/mail.service';

/** What the worker of link requests needs (it runs after the answer, outside any request). */
export type LinkWorkerDeps = {
  db: Database;
  config: AppConfig;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The per-account limit of link requests is counted by the worker, once the account is known. */
  limiter: RateLimiter;
};

export type IdentityDeps = LinkWorkerDeps & {
  hasher: PasswordHasher;
  /** Seals the authenticator apps' secrets at rest. */
  secrets: SecretBox;
  /** The queue of reset and register link requests (see password-links.service.ts). */
  linkRequests: { kick(): void };
};

/** Links for reset and first password are valid for 30 minutes (security guide). */
export const PASSWORD_LINK_TTL_MS = 30 * 60_000;
