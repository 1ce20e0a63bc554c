/**
 * A Server-Sent Events client over real HTTP, for the realtime tests. It uses
 * node:http with a connection of its own (no pool): closing it closes the
 * socket, as a browser tab going away does, and leaves no idle pooled
 * connection behind to hold the server's shutdown.
 */
import http from 'node:http';
import type { RealtimeEvent } from '@exame/shared';
import type { FastifyInstance } from 'fastify';

export type SseMessage = { id: string | null; event: string; data: string };

/** Splits complete messages off `buffer`; returns them and the incomplete rest. */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const messages: SseMessage[] = [];
  for (const block of blocks) {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields += 1;
      if (name === 'id') id = value;
      else if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
    }
    if (fields > 0) messages.push({ id, event, data: data.join('\n') });
  }
  return { messages, rest };
}

export type StreamClient = {
  status: number;
  headers: Headers;
  /** Every message received, controls and bare ids included. */
  messages: SseMessage[];
  /** The realtime events received, in order. */
  events: RealtimeEvent[];
  /** The last id the stream named (what a client sends back as Last-Event-ID). */
  lastId: () => string | null;
  /** Resolves with the events once `count` of them arrived (rejects after `timeoutMs`). */
  waitForEvents: (count: number, timeoutMs?: number) => Promise<RealtimeEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
};

export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('sem endereço');
  return `http://127.0.0.1:${address.port}`;
}

export async function openStream(
  baseUrl: string,
  token: string,
  options: { local?: string; lastEventId?: string | null; query?: string } = {},
): Promise<StreamClient> {
  const params = new URLSearchParams();
  if (options.local) params.set('local', options.local);
  const query = [params.toString(), options.query].filter(Boolean).join('&');
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    accept: 'text/event-stream',
  };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const request = http.get(`${baseUrl}/api/Realtime/events${query ? `?${query}` : ''}`, {
    headers,
    agent: false,
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  request.on('error', () => undefined);
  const messages: SseMessage[] = [];
  const events: RealtimeEvent[] = [];
  const waiters = new Set<() => void>();
  let lastId: string | null = options.lastEventId ?? null;

  response.setEncoding('utf8');
  let buffer = '';
  response.on('data', (chunk: string) => {
    const parsed = parseSse(buffer + chunk);
    buffer = parsed.rest;
    for (const message of parsed.messages) {
      messages.push(message);
      if (message.id !== null) lastId = message.id;
      if (message.data && message.event !== 'resync') {
        events.push(JSON.parse(message.data) as RealtimeEvent);
      }
    }
    for (const wake of waiters) wake();
  });
  const ended = new Promise<void>((resolve) => {
    response.once('close', resolve);
    response.once('error', () => resolve());
  });

  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') responseHeaders.set(name, value);
  }
  return {
    status: response.statusCode ?? 0,
    headers: responseHeaders,
    messages,
    events,
    lastId: () => lastId,
    ended,
    waitForEvents: (count, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `esperava ${count} eventos, chegaram ${events.length}: ${JSON.stringify(events)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => request.destroy(),
  };
}
