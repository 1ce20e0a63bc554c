/**
 * The realtime hub of one server instance: it LISTENs on the events channel
 * and hands each new event of a unit to this instance's stream clients of
 * that unit (and of that local, for clients that asked for one). Every
 * instance runs its own hub on the same database, so a change written
 * through any instance reaches the clients of all of them.
 *
 * A notification only says "unit U has a new event"; the hub then reads the
 * unit's events after the last one it handed out, in id order, one read at a
 * time per unit. Many notifications at once (an import of a thousand exams)
 * cost one read, every client of the unit gets the same text, and a
 * notification lost while the listening connection was down is made up for
 * by the next read.
 */
import type { RealtimeEvent } from '@exame/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DatabaseHandle, Unlisten } from '../../db/client';
import {
  lastRealtimeEventId,
  listRealtimeEventsAfter,
  REALTIME_CHANNEL,
  type RealtimeNotice,
} from './realtime.repository';

/** One event as the stream writes it: `id`, `event` (the kind) and `data` (the JSON event). */
export function eventFrame(event: RealtimeEvent): string {
  // JSON.stringify escapes line breaks, so the data is one line.
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
}

export type HubSubscriber = {
  unit: string;
  /** Only the events of this exact local; null for all of the unit's. */
  local: string | null;
  /** Called in id order with each new event and its frame. */
  deliver: (event: RealtimeEvent, frame: string) => void;
  /** The hub is closing (the instance shuts down): end the stream. */
  end: () => void;
};

export type RealtimeHub = {
  start: () => Promise<void>;
  /**
   * Adds a client; resolves once the unit is followed, so that every event
   * committed from then on is delivered. Returns the function that removes it.
   */
  subscribe: (subscriber: HubSubscriber) => Promise<() => void>;
  /** The clients connected to this instance. */
  size: () => number;
  close: () => Promise<void>;
};

export type RealtimeHubDeps = {
  db: Database;
  listen: DatabaseHandle['listen'];
  log: FastifyBaseLogger;
};

/** Events read per query when catching up. */
const READ_BATCH = 1000;
const RETRY_MS = 1000;

type UnitFeed = {
  unit: string;
  subscribers: Set<HubSubscriber>;
  /** The id of the last event handed out (the unit's newest when the feed began). */
  cursor: number;
  ready: Promise<void>;
  reading: boolean;
  /** A notification came while reading: read again when done. */
  again: boolean;
  retry: NodeJS.Timeout | null;
};

function parseNotice(payload: string): RealtimeNotice | null {
  try {
    const value = JSON.parse(payload) as Partial<RealtimeNotice>;
    return typeof value.id === 'number' && typeof value.unit === 'string'
      ? { id: value.id, unit: value.unit, local: value.local ?? null }
      : null;
  } catch {
    return null;
  }
}

export function createRealtimeHub(deps: RealtimeHubDeps): RealtimeHub {
  const { db, log } = deps;
  const feeds = new Map<string, UnitFeed>();
  let unlisten: Unlisten | null = null;
  let closed = false;

  const hand = (feed: UnitFeed, events: RealtimeEvent[]) => {
    for (const event of events) {
      const frame = eventFrame(event);
      for (const subscriber of feed.subscribers) {
        if (subscriber.local !== null && subscriber.local !== event.schedulingLocal) continue;
        try {
          subscriber.deliver(event, frame);
        } catch (error) {
          log.warn({ err: error }, 'falha ao entregar evento em tempo real');
        }
      }
      feed.cursor = event.id;
    }
  };

  const read = async (feed: UnitFeed): Promise<void> => {
    feed.reading = true;
    try {
      do {
        feed.again = false;
        for (;;) {
          const events = await listRealtimeEventsAfter(db, feed.unit, {
            afterId: feed.cursor,
            limit: READ_BATCH,
          });
          hand(feed, events);
          if (events.length < READ_BATCH) break;
        }
      } while (feed.again && feeds.get(feed.unit) === feed);
    } catch (error) {
      log.error({ err: error, unit: feed.unit }, 'falha ao ler eventos em tempo real');
      // The next notification, or this retry, reads from the same cursor: nothing is skipped.
      feed.retry ??= setTimeout(() => {
        feed.retry = null;
        poke(feed);
      }, RETRY_MS);
      feed.retry.unref();
    } finally {
      feed.reading = false;
    }
  };

  function poke(feed: UnitFeed): void {
    if (closed || feeds.get(feed.unit) !== feed) return;
    if (feed.reading) {
      feed.again = true;
      return;
    }
    void read(feed);
  }

  const onNotice = (payload: string) => {
    const notice = parseNotice(payload);
    if (!notice) return;
    const feed = feeds.get(notice.unit);
    if (!feed || notice.id <= feed.cursor) return;
    poke(feed);
  };

  const follow = (unit: string): UnitFeed => {
    const feed: UnitFeed = {
      unit,
      subscribers: new Set(),
      cursor: 0,
      ready: Promise.resolve(),
      // Until the cursor is known, notifications only ask for a read.
      reading: true,
      again: false,
      retry: null,
    };
    feed.ready = lastRealtimeEventId(db, unit).then(
      (id) => {
        feed.cursor = id;
        feed.reading = false;
        if (feed.again) poke(feed);
      },
      (error: unknown) => {
        if (feeds.get(unit) === feed) feeds.delete(unit);
        throw error;
      },
    );
    feeds.set(unit, feed);
    return feed;
  };

  return {
    start: async () => {
      unlisten = await deps.listen(REALTIME_CHANNEL, onNotice, {
        // Notifications sent while the connection was down were lost: read what came meanwhile.
        onReconnect: () => {
          for (const feed of feeds.values()) poke(feed);
        },
      });
    },
    subscribe: async (subscriber) => {
      if (closed) throw new Error('hub de tempo real encerrado');
      const feed = feeds.get(subscriber.unit) ?? follow(subscriber.unit);
      feed.subscribers.add(subscriber);
      const remove = () => {
        feed.subscribers.delete(subscriber);
        if (feed.subscribers.size === 0 && feeds.get(feed.unit) === feed) {
          feeds.delete(feed.unit);
          if (feed.retry) clearTimeout(feed.retry);
        }
      };
      try {
        await feed.ready;
      } catch (error) {
        remove();
        throw error;
      }
      return remove;
    },
    size: () => {
      let count = 0;
      for (const feed of feeds.values()) count += feed.subscribers.size;
      return count;
    },
    close: async () => {
      closed = true;
      const subscribers = [...feeds.values()].flatMap((feed) => {
        if (feed.retry) clearTimeout(feed.retry);
        return [...feed.subscribers];
      });
      feeds.clear();
      for (const subscriber of subscribers) subscriber.end();
      await unlisten?.().catch((error: unknown) =>
        log.warn({ err: error }, 'falha ao deixar o canal de eventos'),
      );
      unlisten = null;
    },
  };
}
