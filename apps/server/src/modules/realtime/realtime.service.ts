/**
 * One client's event stream: the events of the caller's unit (whatever the
 * request says), of one exact local when asked, first those after the id the
 * client last saw (a reconnection), then the new ones as they are written,
 * each exactly once and in id order.
 */
import {
  REALTIME_HEARTBEAT_MS,
  REALTIME_REPLAY_LIMIT,
  REALTIME_RESYNC,
  type RealtimeEvent,
} from '@exame/shared';
import type { Database } from '../../db/client';
import type { SessionUser } from '../../lib/actors';
import { eventFrame, type RealtimeHub } from './realtime-hub';
import { lastRealtimeEventId, listRealtimeEventsAfter } from './realtime.repository';
import type { StreamSessions } from './stream-sessions';

export type RealtimeDeps = {
  db: Database;
  hub: RealtimeHub;
  /** Keeps each open stream's session checked (ends it with its session) and bounds them per user. */
  sessions: StreamSessions;
  /** How often a comment keeps the stream alive; tests shorten it. */
  heartbeatMs?: number;
};

/** Where the stream's text goes (the HTTP response). */
export type StreamSink = {
  write: (chunk: string) => void;
  /** Bytes written and not yet taken by the network. */
  backlog: () => number;
  end: () => void;
};

export type StreamRequest = {
  local?: string;
  /** The last event the client saw (`lastEventId` or the `Last-Event-ID` header). */
  lastEventId?: number;
  /** false: end once caught up, without following (a request that cannot stay open). */
  follow: boolean;
};

/** A client that does not read (a stalled network) is dropped past this; it resumes on reconnect. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** How long the browser waits before reconnecting after the stream drops. */
const RETRY_ADVICE_MS = 3000;

/**
 * Opens the caller's stream on `sink`; resolves once caught up, with the
 * function that ends it. Nothing is written when it fails before that, so
 * the caller can still answer with an error.
 */
export async function openRealtimeStream(
  deps: RealtimeDeps,
  actor: SessionUser,
  request: StreamRequest,
  sink: StreamSink,
): Promise<() => void> {
  const unit = actor.federativeUnit;
  const local = request.local ?? null;
  let live = false;
  let ended = false;
  let sent = 0;
  const held: Array<[RealtimeEvent, string]> = [];
  let heartbeat: NodeJS.Timeout | undefined = undefined;
  let unsubscribe = () => {};
  let unguard = () => {};

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unguard();
    unsubscribe();
    sink.end();
  };
  const send = (event: RealtimeEvent, frame: string) => {
    if (ended || event.id <= sent) return;
    sent = event.id;
    sink.write(frame);
    if (sink.backlog() > MAX_BACKLOG_BYTES) end();
  };

  // Follow the unit first, then read what came before: an event committed in
  // between is both read and delivered, and `sent` keeps it from going twice.
  unsubscribe = await deps.hub.subscribe({
    unit,
    local,
    deliver: (event, frame) => (live ? send(event, frame) : held.push([event, frame])),
    end,
  });
  let opening: string[];
  try {
    opening = [`retry: ${RETRY_ADVICE_MS}\n\n`];
    if (request.lastEventId === undefined) {
      // A new client starts from now; the bare id is where it resumes if it drops before any event.
      sent = await lastRealtimeEventId(deps.db, unit);
      opening.push(`id: ${sent}\n\n`);
    } else {
      const missed = await listRealtimeEventsAfter(deps.db, unit, {
        afterId: request.lastEventId,
        local,
        limit: REALTIME_REPLAY_LIMIT + 1,
      });
      if (missed.length > REALTIME_REPLAY_LIMIT) {
        // Too far behind to replay: the client reloads what it shows and goes on from now.
        sent = await lastRealtimeEventId(deps.db, unit);
        opening.push(`id: ${sent}\nevent: ${REALTIME_RESYNC}\ndata: {}\n\n`);
      } else {
        sent = request.lastEventId;
        for (const event of missed) {
          sent = event.id;
          opening.push(eventFrame(event));
        }
      }
    }
  } catch (error) {
    unsubscribe();
    throw error;
  }
  sink.write(opening.join(''));
  live = true;
  for (const [event, frame] of held.splice(0)) send(event, frame);
  if (!request.follow) {
    end();
    return end;
  }
  if (ended) return end;
  unguard = deps.sessions.add({
    tokenHash: actor.tokenHash,
    userId: actor.id,
    role: actor.role,
    unit,
    end,
  });
  heartbeat = setInterval(() => {
    sink.write(': ping\n\n');
    if (sink.backlog() > MAX_BACKLOG_BYTES) end();
  }, deps.heartbeatMs ?? REALTIME_HEARTBEAT_MS);
  heartbeat.unref();
  return end;
}

// The door of this module for the others (modules import each other only through services).
export {
  publishRealtime,
  publishRealtimeAll,
  deleteRealtimeEventsBefore,
  type RealtimeEventInput,
} from './realtime.repository';
