/**
 * Who a request acts for, as the auth plugin (plugins/auth.ts) found it: the
 * signed-in user or the integration caller. Route files read it here, below
 * the plugins, so a module never imports a plugin.
 */
import { AUTH_ERRORS } from '@exame/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';
import type { IntegrationCaller, SessionUser } from './actors';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    integration: IntegrationCaller | null;
  }
}

/** The signed-in user of a route whose policy lists roles (the hook guarantees it). */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw AppError.unauthorized();
  return request.user;
}

/** The integration caller of a route whose policy is `'integration'`. */
export function currentIntegration(request: FastifyRequest): IntegrationCaller {
  if (!request.integration) throw AppError.from(AUTH_ERRORS, 'API_KEY_INVALID');
  return request.integration;
}
