/**
 * The browser's queue of activity events: kept in local storage (so a page
 * reload, a closed tab or a server that does not answer loses nothing),
 * sent in batches, removed only once the server has taken them. Each event
 * gets its `clientId` (a UUID) once, when it is recorded; a batch that failed
 * is sent again with the same ids, and the server keeps one row per id, so a
 * retry never writes an event twice.
 *
 * Storage is the state: every operation reads the stored list afresh, so two
 * tabs of the same user add to one queue (if both happen to send the same
 * events, the ids make the second send a duplicate the server ignores).
 */
import { ACTIVITY_BATCH_MAX, type WebActivityEvent } from '@exame/shared';

/** What the sender made of one batch. */
export type SendOutcome =
  /** The server took the batch (new events and duplicates alike). */
  | { kind: 'sent'; accepted: number; duplicates: number }
  /** The server refused the batch as invalid (400, 413): sending it again cannot help. */
  | { kind: 'rejected'; status: number; message: string }
  /** Unreachable, 5xx, 429, a session the server does not take now: keep and try later. */
  | { kind: 'retry'; status: number | null };

export type SendBatch = (
  events: readonly WebActivityEvent[],
  options: { keepalive: boolean },
) => Promise<SendOutcome>;

export type FlushResult = 'empty' | 'busy' | 'sent' | 'rejected' | 'retry';

type Stored = { v: 1; events: WebActivityEvent[]; dropped: number };

export const ACTIVITY_QUEUE_MAX_EVENTS = 1000;
/**
 * A request sent as the page goes away (`keepalive`) may carry at most 64 KiB
 * in all; its batch is cut to stay under this.
 */
export const KEEPALIVE_MAX_BYTES = 60_000;

export type ActivityQueueOptions = {
  /** Local storage, or undefined where the browser refuses it (then the queue lives in memory). */
  storage: Storage | undefined;
  key: string;
  send: SendBatch;
  maxEvents?: number;
  batchSize?: number;
  /** Told once for each batch the server refused (never the events' contents). */
  onRejected?: (status: number, message: string, count: number) => void;
};

function isStored(value: unknown): value is Stored {
  const candidate = value as Partial<Stored> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.v === 1 &&
    Array.isArray(candidate.events) &&
    typeof candidate.dropped === 'number'
  );
}

export type ActivityQueue = ReturnType<typeof createActivityQueue>;

export function createActivityQueue(options: ActivityQueueOptions) {
  const maxEvents = options.maxEvents ?? ACTIVITY_QUEUE_MAX_EVENTS;
  const batchSize = Math.min(options.batchSize ?? ACTIVITY_BATCH_MAX, ACTIVITY_BATCH_MAX);
  let memory: Stored = { v: 1, events: [], dropped: 0 };
  let inFlight = false;

  function read(): Stored {
    if (!options.storage) return memory;
    try {
      const raw = options.storage.getItem(options.key);
      if (raw === null) return { v: 1, events: [], dropped: 0 };
      const parsed: unknown = JSON.parse(raw);
      return isStored(parsed) ? parsed : { v: 1, events: [], dropped: 0 };
    } catch {
      return { v: 1, events: [], dropped: 0 };
    }
  }

  function write(state: Stored): void {
    memory = state;
    if (!options.storage) return;
    try {
      if (state.events.length === 0 && state.dropped === 0) options.storage.removeItem(options.key);
      else options.storage.setItem(options.key, JSON.stringify(state));
    } catch {
      // Storage full or refused: the queue keeps going in memory for this page.
    }
  }

  /** Adds an event; past the bound the oldest go, and are counted. */
  function enqueue(event: WebActivityEvent): void {
    const state = read();
    const events = [...state.events, event];
    const over = Math.max(0, events.length - maxEvents);
    write({ v: 1, events: events.slice(over), dropped: state.dropped + over });
  }

  function remove(clientIds: ReadonlySet<string>): void {
    const state = read();
    write({ ...state, events: state.events.filter((event) => !clientIds.has(event.clientId)) });
  }

  function nextBatch(keepalive: boolean): WebActivityEvent[] {
    const batch = read().events.slice(0, batchSize);
    if (!keepalive) return batch;
    // Leave room for the envelope `{"events":[...]}`.
    let bytes = 16;
    const cut: WebActivityEvent[] = [];
    for (const event of batch) {
      bytes += new TextEncoder().encode(JSON.stringify(event)).length + 1;
      if (bytes > KEEPALIVE_MAX_BYTES && cut.length > 0) break;
      cut.push(event);
    }
    return cut;
  }

  /**
   * Sends the oldest batch. Only one send at a time: events of a batch in
   * flight are not sent again alongside it.
   */
  async function flush(flushOptions: { keepalive?: boolean } = {}): Promise<FlushResult> {
    if (inFlight) return 'busy';
    const keepalive = flushOptions.keepalive ?? false;
    const batch = nextBatch(keepalive);
    if (batch.length === 0) return 'empty';
    inFlight = true;
    try {
      let outcome: SendOutcome;
      try {
        outcome = await options.send(batch, { keepalive });
      } catch {
        outcome = { kind: 'retry', status: null };
      }
      if (outcome.kind === 'retry') return 'retry';
      remove(new Set(batch.map((event) => event.clientId)));
      if (outcome.kind === 'rejected') {
        options.onRejected?.(outcome.status, outcome.message, batch.length);
        return 'rejected';
      }
      return 'sent';
    } finally {
      inFlight = false;
    }
  }

  return {
    enqueue,
    flush,
    /** The events waiting, oldest first. */
    pending: (): readonly WebActivityEvent[] => read().events,
    /** How many events the bound pushed out since the count was last taken. */
    dropped: () => read().dropped,
    /** Takes the count of dropped events and sets it back to zero. */
    takeDropped: (): number => {
      const state = read();
      if (state.dropped > 0) write({ ...state, dropped: 0 });
      return state.dropped;
    },
    isSending: () => inFlight,
  };
}
