/**
 * A short-lived, in-process cache of resolved sessions, keyed by the token's
 * hash: a signed-in user's requests within a few seconds cost no database
 * read to authenticate (it was one read per request, plus the join with the
 * user).
 *
 * Correctness (see modules/auth/sessions.service.ts for what is checked on a hit):
 * - A revocation on this instance takes effect at once: logout, disabling a
 *   user, a role or password change call `forget` after their transaction
 *   commits, on every cache of the process (`forgetCachedSessions`).
 * - Other instances learn it through `SESSION_CACHE_CHANNEL` (NOTIFY sent in
 *   the revoking transaction, delivered after commit); if their listening
 *   connection is down, an entry lives at most `ttlMs`
 *   (SESSION_CACHE_SECONDS, 5 s by default), which bounds the staleness.
 * - A read that overlaps a `forget` is not stored (generation check), so a
 *   lookup that began before a revocation cannot put the old state back.
 * - Expiry, idle time and the once-a-minute touch are still decided from the
 *   session's own times, which the entry carries.
 */
import type { SessionUser } from './actors';

/** NOTIFY channel of session changes; the payload is `{"userId":...}` or `{"tokenHash":...}`. */
export const SESSION_CACHE_CHANNEL = 'session_cache';

export type SessionScope = { userId: string } | { tokenHash: string };

export type CachedSession = {
  user: Readonly<SessionUser>;
  /** When the session was last seen, as the database has it. */
  lastSeenAt: number;
};

type Entry = CachedSession & { storedAt: number };

export type SessionCache = {
  readonly ttlMs: number;
  get: (tokenHash: string, now: number) => CachedSession | undefined;
  /** Taken before the database read whose result `set` stores. */
  generation: () => number;
  set: (tokenHash: string, session: CachedSession, readAt: number, now: number) => void;
  forget: (scope: SessionScope) => void;
  clear: () => void;
  size: () => number;
  /** Stops receiving `forgetCachedSessions` (the app closes). */
  dispose: () => void;
};

/** Every live cache of this process (several apps run side by side in tests). */
const caches = new Set<SessionCache>();

/** Forgets the sessions of `scope` in every cache of this process. */
export function forgetCachedSessions(scope: SessionScope): void {
  for (const cache of caches) cache.forget(scope);
}

export function parseSessionScope(payload: string): SessionScope | null {
  try {
    const value = JSON.parse(payload) as { userId?: unknown; tokenHash?: unknown };
    if (typeof value.userId === 'string') return { userId: value.userId };
    if (typeof value.tokenHash === 'string') return { tokenHash: value.tokenHash };
  } catch {
    // Not ours: ignored.
  }
  return null;
}

const MAX_ENTRIES = 10_000;

/** `ttlMs` 0 gives a cache that never holds anything (the behaviour before it existed). */
export function createSessionCache(options: { ttlMs: number }): SessionCache {
  const { ttlMs } = options;
  const entries = new Map<string, Entry>();
  let generation = 0;

  const cache: SessionCache = {
    ttlMs,
    get: (tokenHash, now) => {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (now - entry.storedAt >= ttlMs) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry;
    },
    generation: () => generation,
    set: (tokenHash, session, readAt, now) => {
      if (ttlMs <= 0 || readAt !== generation) return;
      entries.delete(tokenHash);
      entries.set(tokenHash, { ...session, user: Object.freeze(session.user), storedAt: now });
      // The oldest entries go first (a Map iterates in insertion order).
      if (entries.size > MAX_ENTRIES) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
    forget: (scope) => {
      generation += 1;
      if ('tokenHash' in scope) {
        entries.delete(scope.tokenHash);
        return;
      }
      for (const [key, entry] of entries) {
        if (entry.user.id === scope.userId) entries.delete(key);
      }
    },
    clear: () => {
      generation += 1;
      entries.clear();
    },
    size: () => entries.size,
    dispose: () => {
      caches.delete(cache);
      entries.clear();
    },
  };
  if (ttlMs > 0) caches.add(cache);
  return cache;
}
