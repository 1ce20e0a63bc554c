import type { WebActivityEvent } from '@exame/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActivityQueue } from './activity-queue';
import { createActivitySender } from './activity-sender';
import { pageTarget, fitDetails } from './activity-log';

const KEY = 'EP_ACTIVITY_QUEUE:test';

function event(index: number): WebActivityEvent {
  return {
    clientId: crypto.randomUUID(),
    type: 'page_view',
    occurredAt: new Date(Date.UTC(2026, 10, 26, 9, 0, index)).toISOString(),
    target: `/pagina-${index}`,
    deviceId: 'device-1',
    appVersion: '1.2.3',
  };
}

/**
 * The server's side of `POST api/ActivityLog/events` as far as the client can
 * see it: one row per clientId, `{ accepted, duplicates }`; `answer` decides
 * what happens to the next request (the network fails, a status, or the
 * normal answer).
 */
function fakeServer() {
  const stored = new Map<string, WebActivityEvent>();
  const requests: { ids: string[]; keepalive: boolean; authorization: string | null }[] = [];
  let answer: 'ok' | 'network' | number = 'ok';
  const fetchImpl = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { events: WebActivityEvent[] };
    const headers = new Headers(init?.headers);
    requests.push({
      ids: body.events.map((item) => item.clientId),
      keepalive: init?.keepalive === true,
      authorization: headers.get('authorization'),
    });
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if (typeof answer === 'number') {
      return new Response(JSON.stringify({ Error: 'Indisponível', code: 'X' }), { status: answer });
    }
    let accepted = 0;
    let duplicates = 0;
    for (const item of body.events) {
      if (stored.has(item.clientId)) duplicates += 1;
      else {
        stored.set(item.clientId, item);
        accepted += 1;
      }
    }
    return new Response(JSON.stringify({ accepted, duplicates }), { status: 200 });
  });
  return {
    stored,
    requests,
    fetchImpl: fetchImpl as unknown as typeof fetch,
    answer: (next: typeof answer) => {
      answer = next;
    },
  };
}

function queueOn(server: ReturnType<typeof fakeServer>, extra: { maxEvents?: number } = {}) {
  const onRejected = vi.fn();
  const queue = createActivityQueue({
    storage: window.localStorage,
    key: KEY,
    send: createActivitySender({
      baseUrl: '',
      getToken: () => 'token-1',
      fetchImpl: server.fetchImpl,
    }),
    onRejected,
    ...extra,
  });
  return { queue, onRejected };
}

describe('activity queue', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('keeps the events when the server is unreachable and sends them later with the same ids', async () => {
    const server = fakeServer();
    const { queue } = queueOn(server);
    const events = [event(1), event(2), event(3)];
    for (const item of events) queue.enqueue(item);
    const ids = events.map((item) => item.clientId);

    server.answer('network');
    expect(await queue.flush()).toBe('retry');
    expect(queue.pending().map((item) => item.clientId)).toEqual(ids);
    expect(server.stored.size).toBe(0);

    server.answer('ok');
    expect(await queue.flush()).toBe('sent');
    expect(queue.pending()).toEqual([]);
    expect(server.requests.map((request) => request.ids)).toEqual([ids, ids]);
    expect([...server.stored.keys()]).toEqual(ids);
    expect(server.requests[0]?.authorization).toBe('Bearer token-1');
    // Nothing left: the next flush sends nothing.
    expect(await queue.flush()).toBe('empty');
    expect(server.requests).toHaveLength(2);
  });

  it.each([503, 502, 429, 401])(
    'keeps the events after a %i and sends them again unchanged',
    async (status) => {
      const server = fakeServer();
      const { queue } = queueOn(server);
      const events = [event(1), event(2)];
      for (const item of events) queue.enqueue(item);

      server.answer(status);
      expect(await queue.flush()).toBe('retry');
      expect(queue.pending()).toEqual(events);

      server.answer('ok');
      expect(await queue.flush()).toBe('sent');
      expect([...server.stored.values()]).toEqual(events);
      expect(queue.pending()).toEqual([]);
    },
  );

  it('survives a reload: a new queue on the same storage sends what the old one kept', async () => {
    const server = fakeServer();
    server.answer(503);
    const first = queueOn(server).queue;
    const events = [event(1), event(2)];
    for (const item of events) first.enqueue(item);
    expect(await first.flush()).toBe('retry');

    server.answer('ok');
    const afterReload = queueOn(server).queue;
    expect(afterReload.pending()).toEqual(events);
    expect(await afterReload.flush()).toBe('sent');
    expect([...server.stored.values()]).toEqual(events);
    expect(window.localStorage.getItem(KEY)).toBeNull();
  });

  it('a retried batch the server had already taken is counted as duplicates, never stored twice', async () => {
    const server = fakeServer();
    const { queue } = queueOn(server);
    const events = [event(1), event(2)];
    for (const item of events) queue.enqueue(item);
    // The first send reaches the server, but its answer is lost on the way back.
    const realFetch = server.fetchImpl;
    let lostOnce = false;
    const sender = createActivitySender({
      baseUrl: '',
      getToken: () => 'token-1',
      fetchImpl: async (input, init) => {
        const response = await realFetch(input, init);
        if (!lostOnce) {
          lostOnce = true;
          throw new TypeError('connection reset');
        }
        return response;
      },
    });
    const lossy = createActivityQueue({ storage: window.localStorage, key: KEY, send: sender });
    expect(await lossy.flush()).toBe('retry');
    expect(server.stored.size).toBe(2);
    expect(await lossy.flush()).toBe('sent');
    expect(server.stored.size).toBe(2);
    expect(queue.pending()).toEqual([]);
  });

  it('sends batches of at most 100, oldest first', async () => {
    const server = fakeServer();
    const { queue } = queueOn(server);
    const events = Array.from({ length: 150 }, (_, index) => event(index));
    for (const item of events) queue.enqueue(item);
    expect(await queue.flush()).toBe('sent');
    expect(server.requests[0]?.ids).toEqual(events.slice(0, 100).map((item) => item.clientId));
    expect(queue.pending()).toHaveLength(50);
    expect(await queue.flush()).toBe('sent');
    expect(server.requests[1]?.ids).toEqual(events.slice(100).map((item) => item.clientId));
    expect(server.stored.size).toBe(150);
  });

  it('cuts a keepalive batch under 64 KiB', async () => {
    const server = fakeServer();
    const { queue } = queueOn(server);
    const big = 'x'.repeat(7000);
    for (let index = 0; index < 20; index += 1) {
      queue.enqueue({ ...event(index), details: { note: big } });
    }
    expect(await queue.flush({ keepalive: true })).toBe('sent');
    const request = server.requests[0];
    expect(request?.keepalive).toBe(true);
    expect(request?.ids.length).toBeGreaterThan(0);
    expect(request?.ids.length).toBeLessThan(20);
    expect(queue.pending()).toHaveLength(20 - (request?.ids.length ?? 0));
  });

  it('drops a batch the server rejects as invalid, and says so once', async () => {
    const server = fakeServer();
    const { queue, onRejected } = queueOn(server);
    queue.enqueue(event(1));
    server.answer(400);
    expect(await queue.flush()).toBe('rejected');
    expect(queue.pending()).toEqual([]);
    expect(onRejected).toHaveBeenCalledTimes(1);
    expect(onRejected).toHaveBeenCalledWith(400, 'Indisponível', 1);
  });

  it('keeps at most the bound, dropping the oldest and counting them', () => {
    const server = fakeServer();
    const { queue } = queueOn(server, { maxEvents: 5 });
    const events = Array.from({ length: 8 }, (_, index) => event(index));
    for (const item of events) queue.enqueue(item);
    expect(queue.pending()).toEqual(events.slice(3));
    expect(queue.dropped()).toBe(3);
    expect(queue.takeDropped()).toBe(3);
    expect(queue.dropped()).toBe(0);
  });

  it('does not send a batch again while it is in flight', async () => {
    const server = fakeServer();
    const { queue } = queueOn(server);
    queue.enqueue(event(1));
    const first = queue.flush();
    expect(await queue.flush()).toBe('busy');
    expect(await first).toBe('sent');
    expect(server.requests).toHaveLength(1);
  });
});

describe('what an event carries', () => {
  it('a page view names the path only, with any CPF masked', () => {
    expect(pageTarget('/register-password/123.456.789-09?token=segredo#x')).toBe(
      '/register-password/***.456.789-**',
    );
    expect(pageTarget('/demo-biometry/12345678909')).toBe('/demo-biometry/***.456.789-**');
    expect(pageTarget('/exames/abc')).toBe('/exames/abc');
  });

  it('details over 8 KB are cut to fit', () => {
    const fitted = fitDetails({ message: 'y'.repeat(20_000), status: 500 });
    expect(new TextEncoder().encode(JSON.stringify(fitted)).length).toBeLessThanOrEqual(8192);
    expect(fitted.status).toBe(500);
  });
});
