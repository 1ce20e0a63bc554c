/**
 * Authentication and authorization of every route, from its declared policy:
 * `public` passes; a role list needs `Authorization: Bearer <token>` naming a
 * live session (not revoked, within the absolute and idle lifetimes) of an
 * enabled user whose role is listed. The signed-in user is `request.user`.
 * A route marked `reauth` also needs a recent proof in the session (sign-in
 * or re-authentication within REAUTH_WINDOW_SECONDS): 403 `reauth-required`.
 * Resolved sessions are kept a few seconds in a cache (lib/session-cache.ts)
 * that revocations clear at once.
 */
import { AUTH_ERRORS, ERROR_MESSAGES, REAUTH_WINDOW_MS } from '@exame/shared';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Unlisten } from '../db/client';
import { AppError } from '../lib/app-error';
// request.user and request.integration are declared (and read by routes) there.
import type {} from '../lib/current-user';
import { isOperatorRequest } from '../lib/operator-token';
import {
  createSessionCache,
  parseSessionScope,
  SESSION_CACHE_CHANNEL,
  type SessionCache,
} from '../lib/session-cache';
import type { IntegrationCaller, SessionUser } from '../lib/actors';

export type { IntegrationCaller, SessionUser };

/**
 * How a credential becomes an actor. app.ts passes these in (they live in the
 * auth and integration modules), so the plugin imports no module.
 */
export type AuthResolvers = {
  /** The user of the live session a bearer token names, or null (modules/auth/sessions.service.ts). */
  session(token: string, now: Date, cache: SessionCache): Promise<SessionUser | null>;
  /** The integration caller an API key names, or null (modules/integration/api-keys.service.ts). */
  apiKey(key: string): Promise<IntegrationCaller | null>;
};

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header.trim());
  return match?.[1] ?? null;
}

/**
 * Keeps the session cache in step with revocations made by any instance:
 * NOTIFY on `SESSION_CACHE_CHANNEL` is sent in the revoking transaction. A
 * lost listening connection (PostgreSQL) clears the cache once it is back;
 * meanwhile the cache's TTL bounds what another instance may miss.
 */
function followRevocations(app: FastifyInstance, cache: SessionCache): void {
  if (cache.ttlMs <= 0) return;
  let unlisten: Unlisten | null = null;
  app.addHook('onReady', async () => {
    try {
      unlisten = await app.database.listen(
        SESSION_CACHE_CHANNEL,
        (payload) => {
          const scope = parseSessionScope(payload);
          if (scope) cache.forget(scope);
          else cache.clear();
        },
        { onReconnect: () => cache.clear() },
      );
    } catch (error) {
      // Without notifications the TTL alone bounds staleness; the app still serves.
      app.log.error({ err: error }, 'cache de sessões sem avisos de revogação');
    }
  });
  app.addHook('onClose', async () => {
    cache.dispose();
    await unlisten?.().catch(() => undefined);
  });
}

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
function hasMetricsToken(request: FastifyRequest, metricsToken: string | undefined): boolean {
  if (!metricsToken) return false;
  const header = request.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer\s+(\S+)$/.exec(header.trim());
  if (!match?.[1]) return false;
  const a = Buffer.from(match[1]);
  const b = Buffer.from(metricsToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A cache that keeps nothing: a read that must see the database. */
const uncached = createSessionCache({ ttlMs: 0 });

function provenRecently(user: SessionUser, windowMs: number): boolean {
  return user.provenAt !== null && Date.now() - user.provenAt.getTime() <= windowMs;
}

export function registerAuth(
  app: FastifyInstance,
  resolvers: AuthResolvers,
  operatorToken: string,
  sessions: SessionCache = createSessionCache({ ttlMs: 0 }),
  metricsToken?: string,
  reauthWindowMs: number = REAUTH_WINDOW_MS,
): void {
  followRevocations(app, sessions);
  app.decorateRequest('user', null);
  app.decorateRequest('integration', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    if (access === 'metrics') {
      if (hasMetricsToken(request, metricsToken) || isOperatorRequest(request, operatorToken)) {
        return;
      }
      throw AppError.from(AUTH_ERRORS, 'METRICS_TOKEN_REQUIRED');
    }
    if (access === 'operator') {
      if (!isOperatorRequest(request, operatorToken)) {
        throw AppError.from(AUTH_ERRORS, 'OPERATOR_ONLY');
      }
      return;
    }
    if (access === 'integration') {
      const header = request.headers['x-api-key'];
      const caller = typeof header === 'string' ? await resolvers.apiKey(header.trim()) : null;
      if (!caller) {
        throw AppError.from(AUTH_ERRORS, 'API_KEY_INVALID');
      }
      request.integration = caller;
      return;
    }
    const token = bearerToken(request);
    if (!token) throw AppError.unauthorized(ERROR_MESSAGES.SESSION_REQUIRED);
    const user = await resolvers.session(token, new Date(), sessions);
    if (!user) throw AppError.unauthorized();
    if (!access.includes(user.role)) throw AppError.forbidden();
    if (request.routeOptions.config?.reauth && !provenRecently(user, reauthWindowMs)) {
      // This instance's cache may hold the session from before a re-authentication
      // made through another instance: the database decides.
      const stored = await resolvers.session(token, new Date(), uncached);
      if (!stored || !provenRecently(stored, reauthWindowMs)) {
        throw AppError.from(AUTH_ERRORS, 'reauth-required');
      }
    }
    request.user = user;
  });
}
