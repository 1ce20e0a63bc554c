/**
 * The realtime client against a fake stream: the SSE parser, events handed
 * over typed, the reconnection with a growing delay resuming from the last
 * id, the stop, and the answers that end it for good.
 */
import type { RealtimeEvent } from '@exame/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeEventServer, examChanged, frameOf } from '../test/fake-event-stream';
import { appStore } from './app-store';
import {
  createEventStream,
  createSseParser,
  openEventStream,
  type EventStreamDeps,
  type RealtimeStatus,
  type SseMessage,
} from './realtime';
import { TEST_USER } from '../test/fixtures';

function parse(pieces: string[]) {
  const messages: SseMessage[] = [];
  const ids: string[] = [];
  const retries: number[] = [];
  const parser = createSseParser({
    onMessage: (message) => messages.push(message),
    onLastEventId: (id) => ids.push(id),
    onRetry: (ms) => retries.push(ms),
  });
  for (const piece of pieces) parser.push(piece);
  return { messages, ids, retries };
}

describe('SSE parser', () => {
  it('reads events, comments, multi-line data, bare ids and retry, in pieces of any size', () => {
    const text = [
      ': ligado\n',
      'retry: 3000\n\n',
      'id: 7\n\n',
      'id: 8\r\nevent: exam_changed\r\ndata: {"a":1}\r\n\r\n',
      'data: linha 1\rdata: linha 2\r\r',
      'id: 9\nevent: resync\ndata\n\n',
      'data:sem espaço\n\n',
      'campo desconhecido: x\n\n',
    ].join('');
    const whole = parse([text]);
    // Split everywhere, CRLF pairs included.
    const byChar = parse([...text]);
    for (const result of [whole, byChar]) {
      expect(result.messages).toEqual([
        { event: 'exam_changed', data: '{"a":1}', lastEventId: '8' },
        { event: 'message', data: 'linha 1\nlinha 2', lastEventId: '8' },
        { event: 'resync', data: '', lastEventId: '9' },
        { event: 'message', data: 'sem espaço', lastEventId: '9' },
      ]);
      expect(result.ids).toEqual(['7', '8', '9']);
      expect(result.retries).toEqual([3000]);
    }
  });

  it('keeps an incomplete message until its blank line arrives', () => {
    const messages: SseMessage[] = [];
    const parser = createSseParser({ onMessage: (message) => messages.push(message) });
    parser.push('id: 1\ndata: {"x"');
    expect(messages).toEqual([]);
    parser.push(':1}\n');
    expect(messages).toEqual([]);
    parser.push('\n');
    expect(messages).toEqual([{ event: 'message', data: '{"x":1}', lastEventId: '1' }]);
  });
});

describe('event stream', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  const open = (
    server: ReturnType<typeof createFakeEventServer>,
    extra: Partial<EventStreamDeps> = {},
  ) => {
    const events: RealtimeEvent[] = [];
    const statuses: RealtimeStatus[] = [];
    const resyncs: number[] = [];
    const close = createEventStream(
      {
        baseUrl: '',
        getToken: () => 'token-de-teste-0123456789',
        fetchImpl: server.fetch,
        random: () => 1,
        ...extra,
      },
      {
        local: 'DF.POSTO01-S1',
        onEvent: (event) => events.push(event),
        onStatus: (status) => statuses.push(status),
        onResync: () => resyncs.push(Date.now()),
      },
    );
    return { events, statuses, resyncs, close };
  };

  it('sends the bearer token and the local, and hands over typed events; invalid data is skipped', async () => {
    const server = createFakeEventServer();
    const stream = open(server);
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    const [connection] = server.connections;
    expect(connection!.headers.get('authorization')).toBe('Bearer token-de-teste-0123456789');
    expect(connection!.headers.get('accept')).toBe('text/event-stream');
    expect(connection!.headers.get('last-event-id')).toBeNull();
    expect(connection!.url.pathname).toBe('/api/Realtime/events');
    expect(connection!.url.searchParams.get('local')).toBe('DF.POSTO01-S1');
    connection!.send('retry: 1000\n\nid: 4\n\n');
    connection!.send('id: 5\nevent: exam_changed\ndata: não é json\n\n');
    connection!.send('id: 6\nevent: exam_changed\ndata: {"id":6,"kind":"outro"}\n\n');
    connection!.sendEvent(examChanged(7));
    await vi.waitFor(() => expect(stream.events).toHaveLength(1));
    expect(stream.events[0]).toEqual(examChanged(7));
    expect(stream.statuses).toEqual(['connecting', 'open']);
    stream.close();
  });

  it('a dropped stream reconnects with a growing delay and resumes after the last id, missing nothing', async () => {
    vi.useFakeTimers();
    const server = createFakeEventServer();
    const stream = open(server, { firstDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.send('id: 10\n\n');
    server.connections[0]!.sendEvent(examChanged(11));
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(stream.statuses.at(-1)).toBe('reconnecting');

    // The first retry comes after the first delay (data had arrived: the count starts again).
    await vi.advanceTimersByTimeAsync(999);
    expect(server.connections).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[1]!.headers.get('last-event-id')).toBe('11');
    expect(stream.statuses.at(-1)).toBe('open');

    // The server replays after 11; the next drops, without data, wait 2 s, then 4 s.
    server.connections[1]!.sendEvent(examChanged(12));
    server.connections[1]!.sendEvent(examChanged(13));
    await vi.advanceTimersByTimeAsync(0);
    server.connections[1]!.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.connections).toHaveLength(3);
    server.connections[2]!.end();
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.connections).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.connections).toHaveLength(4);
    expect(server.connections[3]!.headers.get('last-event-id')).toBe('13');
    expect(stream.events.map((event) => event.id)).toEqual([11, 12, 13]);
    stream.close();
  });

  it("a network failure is retried, and the server's retry advice sets the first delay", async () => {
    vi.useFakeTimers();
    const server = createFakeEventServer();
    let failures = 2;
    const stream = open(server, {
      firstDelayMs: 5000,
      fetchImpl: (input, init) => {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return server.fetch(input, init);
      },
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.connections).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.connections).toHaveLength(1);
    server.connections[0]!.send('retry: 200\n\n');
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.end();
    await vi.advanceTimersByTimeAsync(200);
    expect(server.connections).toHaveLength(2);
    stream.close();
  });

  it('a silent stream (no heartbeat) counts as dropped', async () => {
    vi.useFakeTimers();
    const server = createFakeEventServer();
    const stream = open(server, { silenceMs: 45_000, firstDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.send(': ping\n\n');
    await vi.advanceTimersByTimeAsync(44_999);
    expect(server.connections[0]!.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.connections[0]!.signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.connections).toHaveLength(2);
    stream.close();
  });

  it('the server telling the client it fell too far behind asks for a reload and goes on from its id', async () => {
    const server = createFakeEventServer();
    const stream = open(server, { firstDelayMs: 10 });
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    server.connections[0]!.send('id: 5000\nevent: resync\ndata: {}\n\n');
    server.connections[0]!.end();
    await vi.waitFor(() => expect(server.connections).toHaveLength(2));
    expect(stream.resyncs).toHaveLength(1);
    expect(stream.events).toEqual([]);
    expect(server.connections[1]!.headers.get('last-event-id')).toBe('5000');
    stream.close();
  });

  it('unsubscribing stops: the request is aborted, nothing more is handed over, no reconnection', async () => {
    vi.useFakeTimers();
    const server = createFakeEventServer();
    const stream = open(server);
    await vi.advanceTimersByTimeAsync(0);
    const connection = server.connections[0]!;
    connection.sendEvent(examChanged(1));
    await vi.advanceTimersByTimeAsync(0);
    stream.close();
    expect(connection.signal?.aborted).toBe(true);
    connection.sendEvent(examChanged(2));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.connections).toHaveLength(1);
    expect(stream.events.map((event) => event.id)).toEqual([1]);
    expect(stream.statuses).toEqual(['connecting', 'open', 'closed']);
  });

  it('an unsubscribe while waiting to reconnect stops the wait', async () => {
    vi.useFakeTimers();
    const server = createFakeEventServer();
    const stream = open(server);
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(stream.statuses.at(-1)).toBe('reconnecting');
    stream.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.connections).toHaveLength(1);
    expect(stream.statuses.at(-1)).toBe('closed');
  });

  it('a refused stream (session ended, role) closes without retrying', async () => {
    vi.useFakeTimers();
    for (const status of [401, 403]) {
      const server = createFakeEventServer();
      server.refuseWith(status);
      const calls = vi.fn(server.fetch);
      const stream = open(server, { fetchImpl: calls });
      await vi.advanceTimersByTimeAsync(120_000);
      expect(calls).toHaveBeenCalledTimes(1);
      expect(stream.statuses).toEqual(['connecting', 'closed']);
    }
  });

  it("the app's stream uses the signed-in user's token and closes when the session ends", async () => {
    const server = createFakeEventServer();
    vi.stubGlobal('fetch', server.fetch);
    appStore.setUser(TEST_USER);
    const statuses: RealtimeStatus[] = [];
    openEventStream({ onEvent: () => undefined, onStatus: (status) => statuses.push(status) });
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    expect(server.connections[0]!.headers.get('authorization')).toBe(
      'Bearer token-da-ana-com-mais-de-vinte-caracteres',
    );
    expect(server.connections[0]!.url.searchParams.has('local')).toBe(false);
    appStore.clearSession();
    expect(server.connections[0]!.signal?.aborted).toBe(true);
    expect(statuses.at(-1)).toBe('closed');
  });

  it('frames written by the server parse back to the same event', () => {
    const { messages } = parse([frameOf(examChanged(3))]);
    expect(JSON.parse(messages[0]!.data)).toEqual(examChanged(3));
  });
});
