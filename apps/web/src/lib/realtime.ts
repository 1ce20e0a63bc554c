/**
 * The unit's realtime events (`GET api/Realtime/events`, Server-Sent Events).
 * EventSource cannot send the bearer token, so the stream is read with fetch
 * and parsed here, following the SSE format (`id`, `event`, `data`, `retry`,
 * comments). A dropped stream is opened again with a growing delay and
 * resumes after the last event id, so nothing is missed; a stream that
 * stays silent past three heartbeats counts as dropped.
 */
import {
  REALTIME_HEARTBEAT_MS,
  REALTIME_RESYNC,
  realtimeEventSchema,
  type RealtimeEvent,
} from '@exame/shared';
import { joinUrl } from './api-client';
import { appStore } from './app-store';
import { readWebConfig } from './config';

export type RealtimeStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export type EventStreamOptions = {
  /** Only the events of this exact exam local (`DEMO.POSTO01-S2`). */
  local?: string;
  onEvent: (event: RealtimeEvent) => void;
  onStatus?: (status: RealtimeStatus) => void;
  /** The stream missed more than the server replays: reload what is shown. */
  onResync?: () => void;
};

/* ------------------------------------------------------------------------ */
/* Parser                                                                    */
/* ------------------------------------------------------------------------ */

export type SseMessage = { event: string; data: string; lastEventId: string };

export type SseHandlers = {
  onMessage: (message: SseMessage) => void;
  /** The stream named a new last event id (also by a message without data). */
  onLastEventId?: (id: string) => void;
  onRetry?: (ms: number) => void;
};

/**
 * A streaming parser of text/event-stream: feed it text as it arrives, in
 * pieces of any size (a line or a line break may be split between pieces).
 */
export function createSseParser(handlers: SseHandlers) {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let lastEventId = '';
  let dispatchedId = '';

  const dispatch = () => {
    if (lastEventId !== dispatchedId) {
      dispatchedId = lastEventId;
      handlers.onLastEventId?.(lastEventId);
    }
    if (data.length > 0) {
      handlers.onMessage({ event: event || 'message', data: data.join('\n'), lastEventId });
    }
    data = [];
    event = '';
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) handlers.onRetry?.(Number(value));
  };

  return {
    push: (text: string) => {
      buffer += text;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) return;
        // A CR at the very end may be the first half of a CRLF: wait for the next piece.
        if (match[0] === '\r' && match.index === buffer.length - 1) return;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
  };
}

/* ------------------------------------------------------------------------ */
/* Connection                                                                */
/* ------------------------------------------------------------------------ */

export type EventStreamDeps = {
  baseUrl: string;
  getToken: () => string | null;
  fetchImpl?: typeof fetch;
  /** The first reconnection delay (the server's `retry:` replaces it); doubles up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A stream silent this long is taken as dropped. */
  silenceMs?: number;
  /** 0..1, spreads the reconnections of many screens after a server restart. */
  random?: () => number;
};

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;
/** Answers that reconnecting cannot fix: the session ended, the role, a bad request. */
const FINAL_STATUSES = new Set([400, 401, 403, 404]);

class StreamRefused extends Error {}

/** Opens the stream with explicit parts (tests pass a fake fetch); returns the function that closes it. */
export function createEventStream(deps: EventStreamDeps, options: EventStreamOptions): () => void {
  const fetchImpl = deps.fetchImpl ?? ((input, init) => fetch(input, init));
  const random = deps.random ?? Math.random;
  const maxDelayMs = deps.maxDelayMs ?? MAX_DELAY_MS;
  const silenceMs = deps.silenceMs ?? REALTIME_HEARTBEAT_MS * 3;
  let baseDelayMs = deps.firstDelayMs ?? FIRST_DELAY_MS;
  let lastEventId: string | null = null;
  let stopped = false;
  let failures = 0;
  let status: RealtimeStatus | null = null;
  let controller: AbortController | null = null;
  let wait: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | null = null;

  const setStatus = (next: RealtimeStatus) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wait = { timer: setTimeout(resolve, ms), resolve };
    }).finally(() => {
      wait = null;
    });

  const handle = (message: SseMessage) => {
    if (message.event === REALTIME_RESYNC) {
      options.onResync?.();
      return;
    }
    let parsed: ReturnType<typeof realtimeEventSchema.safeParse>;
    try {
      parsed = realtimeEventSchema.safeParse(JSON.parse(message.data));
    } catch {
      return;
    }
    // An event of a kind this build does not know is skipped, not fatal.
    if (parsed.success) options.onEvent(parsed.data as RealtimeEvent);
  };

  /** One connection, until it drops; throws StreamRefused when retrying cannot help. */
  const connectOnce = async (token: string) => {
    controller = new AbortController();
    const signal = controller.signal;
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      authorization: `Bearer ${token}`,
    };
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    const response = await fetchImpl(
      joinUrl(deps.baseUrl, 'api/Realtime/events', { local: options.local }),
      { headers, signal, cache: 'no-store' },
    );
    if (FINAL_STATUSES.has(response.status)) throw new StreamRefused(String(response.status));
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
      throw new Error(`stream ${response.status} ${type}`);
    }
    setStatus('open');
    const parser = createSseParser({
      onMessage: handle,
      onLastEventId: (id) => {
        lastEventId = id;
      },
      onRetry: (ms) => {
        baseDelayMs = ms;
      },
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let silence = setTimeout(() => controller?.abort(), silenceMs);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(silence);
        silence = setTimeout(() => controller?.abort(), silenceMs);
        // Data arrived: the connection works, the next drop retries quickly again.
        failures = 0;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } finally {
      clearTimeout(silence);
      reader.cancel().catch(() => undefined);
    }
  };

  const run = async () => {
    setStatus('connecting');
    while (!stopped) {
      const token = deps.getToken();
      if (!token) break;
      try {
        await connectOnce(token);
      } catch (error) {
        if (error instanceof StreamRefused) break;
      }
      if (stopped) return;
      setStatus('reconnecting');
      const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** failures);
      failures += 1;
      await sleep(delay * (0.75 + 0.25 * random()));
    }
    stopped = true;
    setStatus('closed');
  };

  void run();
  return () => {
    if (stopped) return;
    stopped = true;
    controller?.abort();
    if (wait) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
    setStatus('closed');
  };
}

/**
 * Opens the signed-in user's event stream on the app's API; returns the
 * function that closes it. The stream also closes when the session ends
 * (logout, or the server refusing the token).
 */
export function openEventStream(options: EventStreamOptions): () => void {
  const close = createEventStream(
    {
      baseUrl: readWebConfig().apiBaseUrl,
      getToken: () => appStore.getState().user?.token ?? null,
    },
    options,
  );
  const unsubscribe = appStore.subscribe(() => {
    if (!appStore.getState().user) stop();
  });
  function stop() {
    unsubscribe();
    close();
  }
  return stop;
}
