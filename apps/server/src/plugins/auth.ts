/**
 * Authentication and authorization of every route, from its declared policy:
 * `public` passes; a role list needs `Authorization: Bearer <token>` naming a
 * live session (not revoked, within the absolute and idle lifetimes) of an
 * enabled user whose role is listed. The signed-in user is `request.user`.
 * Resolved sessions are kept a few seconds in a cache (lib/session-cache.ts)
 * that revocations clear at once.
 */
import { AUTH_ERRORS, ERROR_MESSAGES } from '@exame/shared';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/env';
import type { Database, Unlisten } from '../db/client';
import { AppError } from '../lib/app-error';
import { hashToken } from '../lib/crypto';
import { isOperatorRequest } from '../lib/operator-token';
import {
  createSessionCache,
  parseSessionScope,
  SESSION_CACHE_CHANNEL,
  type SessionCache,
} from '../lib/session-cache';
import type { IntegrationCaller, SessionUser } from '../lib/actors';
import { resolveApiKey } from '../modules/integration/api-keys.service';
import {
  findSessionWithUser,
  revokeSession,
  touchSession,
} from '../modules/auth/sessions.repository';

export type { IntegrationCaller, SessionUser };

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    integration: IntegrationCaller | null;
  }
}

/** Updating last-seen on every call would be a write per request; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header.trim());
  return match?.[1] ?? null;
}

export async function resolveSession(
  db: Database,
  config: Pick<AppConfig, 'session'>,
  token: string,
  now: Date = new Date(),
  cache?: SessionCache,
): Promise<SessionUser | null> {
  const tokenHash = hashToken(token);
  const at = now.getTime();
  const cached = cache?.get(tokenHash, at);
  // A hit is served only while nothing about the session is due: not expired,
  // not idle, and no touch owed; otherwise the database decides, as below.
  if (
    cached &&
    cached.user.expiresAt.getTime() > at &&
    at - cached.lastSeenAt <= Math.min(TOUCH_INTERVAL_MS, config.session.idleMs)
  ) {
    return cached.user;
  }
  const readAt = cache?.generation() ?? 0;
  const found = await findSessionWithUser(db, tokenHash);
  if (!found) return null;
  const { session, user } = found;
  if (session.revokedAt) return null;
  if (session.expiresAt <= now) {
    await revokeSession(db, tokenHash, 'expired');
    return null;
  }
  if (at - session.lastSeenAt.getTime() > config.session.idleMs) {
    await revokeSession(db, tokenHash, 'idle');
    return null;
  }
  if (user.registerStatus !== 'enabled') return null;
  let lastSeenAt = session.lastSeenAt.getTime();
  if (at - lastSeenAt > TOUCH_INTERVAL_MS) {
    await touchSession(db, tokenHash, now);
    lastSeenAt = at;
  }
  const resolved: SessionUser = {
    id: user.id,
    name: user.name,
    email: user.email,
    cpf: user.cpf,
    federativeUnit: user.federativeUnit,
    role: user.role,
    tokenHash,
    expiresAt: session.expiresAt,
  };
  cache?.set(tokenHash, { user: resolved, lastSeenAt }, readAt, Date.now());
  return resolved;
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

export function registerAuth(
  app: FastifyInstance,
  operatorToken: string,
  sessions: SessionCache = createSessionCache({ ttlMs: 0 }),
  metricsToken?: string,
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
      const caller =
        typeof header === 'string'
          ? await resolveApiKey({ db: app.database.db }, header.trim())
          : null;
      if (!caller) {
        throw AppError.from(AUTH_ERRORS, 'API_KEY_INVALID');
      }
      request.integration = caller;
      return;
    }
    const token = bearerToken(request);
    if (!token) throw AppError.unauthorized(ERROR_MESSAGES.SESSION_REQUIRED);
    const user = await resolveSession(app.database.db, app.config, token, new Date(), sessions);
    if (!user) throw AppError.unauthorized();
    if (!access.includes(user.role)) throw AppError.forbidden();
    request.user = user;
  });
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
