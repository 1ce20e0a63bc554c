/**
 * The session a bearer token names. The auth plugin (plugins/auth.ts) calls
 * this through the resolver app.ts hands it, so the plugin imports no module.
 */
import type { AppConfig } from '../../config/env';
import type { Database } from '../../db/client';
import { hashToken } from '../../lib/crypto';
import type { SessionCache } from '../../lib/session-cache';
import type { SessionUser } from '../../lib/actors';
import { findSessionWithUser, revokeSession, touchSession } from './sessions.repository';

/** Updating last-seen on every call would be a write per request; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

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
    provenAt: session.provenAt,
  };
  cache?.set(tokenHash, { user: resolved, lastSeenAt }, readAt, Date.now());
  return resolved;
}

// The door of this module for the others (modules import each other only through services).
export { findSessionStates, deleteEndedSessions } from './sessions.repository';
