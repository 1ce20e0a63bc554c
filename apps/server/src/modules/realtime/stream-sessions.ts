/**
 * The sessions behind this instance's open event streams. A stream is
 * authorised when it opens; this keeps it authorised for as long as it stays
 * open, or ends it:
 * - at once (one NOTIFY away) when its session is revoked: logout, the user
 *   disabled, a role change, a password reset. The revoking transaction sends
 *   `SESSION_CACHE_CHANNEL` (sessions.repository.ts), which every instance
 *   hears; the streams it names are checked against the database then.
 * - within `checkMs` when the session expires or goes idle, when its user's
 *   role or unit no longer is the stream's, or when a notice was lost: every
 *   open stream is checked that often, in one read for all of them.
 * - when the same user opens more than `maxStreamsPerUser` on this
 *   instance: the oldest ends.
 * A stream that ends this way drops; the client's reconnection is then
 * refused (401/403) like any other request of that session.
 */
import type { Role } from '@exame/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DatabaseHandle, Unlisten } from '../../db/client';
import { coalescedRuns } from '../../lib/coalesced-runs';
import { parseSessionScope, SESSION_CACHE_CHANNEL } from '../../lib/session-cache';
import { findSessionStates } from '../auth/sessions.service';

export type GuardedStream = {
  tokenHash: string;
  userId: string;
  role: Role;
  unit: string;
  /** Ends the stream (idempotent). */
  end: () => void;
};

export type StreamSessions = {
  /** Follows revocations and starts the periodic check. */
  start: () => Promise<void>;
  /**
   * Registers an open stream; past the user's bound, their oldest stream on
   * this instance ends. Returns the function that forgets it.
   */
  add: (stream: GuardedStream) => () => void;
  /** Checks every open stream now; resolves once done. */
  checkAll: () => Promise<void>;
  /** Open streams registered on this instance. */
  size: () => number;
  close: () => Promise<void>;
};

export type StreamSessionsDeps = {
  db: Database;
  listen: DatabaseHandle['listen'];
  log: FastifyBaseLogger;
  idleMs: number;
  maxStreamsPerUser: number;
  checkMs: number;
  now?: () => Date;
};

type SessionState = Awaited<ReturnType<typeof findSessionStates>>[number];

function stillAllowed(
  stream: GuardedStream,
  state: SessionState | undefined,
  now: Date,
  idleMs: number,
): boolean {
  return (
    state !== undefined &&
    state.revokedAt === null &&
    state.expiresAt > now &&
    now.getTime() - state.lastSeenAt.getTime() <= idleMs &&
    state.registerStatus === 'enabled' &&
    state.role === stream.role &&
    state.federativeUnit === stream.unit
  );
}

export function createStreamSessions(deps: StreamSessionsDeps): StreamSessions {
  const { log } = deps;
  const now = deps.now ?? (() => new Date());
  /** Each user's streams, oldest first. */
  const byUser = new Map<string, GuardedStream[]>();
  /** Streams to check on the next pass; `all` for every open one. */
  let due: Set<GuardedStream> | 'all' = new Set();
  let timer: NodeJS.Timeout | undefined;
  let unlisten: Unlisten | null = null;
  let closed = false;

  const forget = (stream: GuardedStream) => {
    const list = byUser.get(stream.userId);
    if (!list) return;
    const index = list.indexOf(stream);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) byUser.delete(stream.userId);
  };
  const open = () => [...byUser.values()].flat();

  const pass = coalescedRuns(async () => {
    const streams = due === 'all' ? open() : [...due];
    due = new Set();
    if (streams.length === 0) return;
    const states = new Map(
      (await findSessionStates(deps.db, [...new Set(streams.map((s) => s.tokenHash))])).map(
        (state) => [state.tokenHash, state],
      ),
    );
    const at = now();
    for (const stream of streams) {
      if (stillAllowed(stream, states.get(stream.tokenHash), at, deps.idleMs)) continue;
      forget(stream);
      stream.end();
    }
  });
  const check = (streams: Iterable<GuardedStream> | 'all') => {
    if (closed) return Promise.resolve();
    if (streams === 'all') due = 'all';
    else if (due !== 'all') for (const stream of streams) due.add(stream);
    return pass.run().catch((error: unknown) => {
      // The streams stay due: the next notice or the periodic pass checks them again.
      due = 'all';
      log.error({ err: error }, 'falha ao conferir as sessões dos fluxos de eventos');
    });
  };

  const onNotice = (payload: string) => {
    const scope = parseSessionScope(payload);
    if (!scope) {
      void check('all');
      return;
    }
    const named =
      'userId' in scope
        ? (byUser.get(scope.userId) ?? [])
        : open().filter((stream) => stream.tokenHash === scope.tokenHash);
    if (named.length > 0) void check(named);
  };

  return {
    start: async () => {
      unlisten = await deps.listen(SESSION_CACHE_CHANNEL, onNotice, {
        // Notices sent while the connection was down were lost: check everything.
        onReconnect: () => void check('all'),
      });
      timer = setInterval(() => void check('all'), deps.checkMs);
      timer.unref();
    },
    add: (stream) => {
      const list = byUser.get(stream.userId) ?? [];
      list.push(stream);
      byUser.set(stream.userId, list);
      for (const oldest of list.splice(0, Math.max(0, list.length - deps.maxStreamsPerUser))) {
        oldest.end();
      }
      return () => forget(stream);
    },
    checkAll: () => check('all'),
    size: () => open().length,
    close: async () => {
      closed = true;
      clearInterval(timer);
      await pass.idle();
      await unlisten?.().catch((error: unknown) =>
        log.warn({ err: error }, 'falha ao deixar o canal de sessões'),
      );
      unlisten = null;
      byUser.clear();
    },
  };
}
