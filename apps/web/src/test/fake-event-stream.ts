/**
 * A fake realtime server for web tests: a fetch that answers
 * `api/Realtime/events` with a text/event-stream body the test writes to,
 * connection by connection, and records what each connection sent.
 */
import type { RealtimeEvent } from '@exame/shared';

export type FakeConnection = {
  url: URL;
  headers: Headers;
  signal: AbortSignal | undefined;
  send: (text: string) => void;
  sendEvent: (event: RealtimeEvent) => void;
  /** The server ends the stream. */
  end: () => void;
};

export type FakeEventServer = {
  fetch: typeof fetch;
  connections: FakeConnection[];
  /** The next connections are answered with this status (and a JSON error body). */
  refuseWith: (status: number | null) => void;
  /** Calls to other paths go here. */
  other?: (url: URL, init?: RequestInit) => Promise<Response>;
};

export function frameOf(event: RealtimeEvent): string {
  return `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function examChanged(id: number, overrides: Partial<RealtimeEvent['payload']> = {}) {
  return {
    id,
    kind: 'exam_changed',
    federativeUnit: 'DF',
    schedulingLocal: 'DF.POSTO01-S1',
    at: '2026-11-20T13:00:00.000Z',
    payload: {
      examId: `exam-${id}`,
      schedulingId: `AG-${id}`,
      status: 'started',
      result: null,
      schedulingLocal: 'DF.POSTO01-S1',
      room: 'Sala 1',
      station: 'Estação 01',
      candidateName: 'Candidato de Teste',
      candidateCpf: '***.982.247-**',
      ...overrides,
    },
  } as RealtimeEvent;
}

export function createFakeEventServer(
  other?: (url: URL, init?: RequestInit) => Promise<Response>,
): FakeEventServer {
  const connections: FakeConnection[] = [];
  let refusal: number | null = null;
  const encoder = new TextEncoder();
  const server: FakeEventServer = {
    connections,
    refuseWith: (status) => {
      refusal = status;
    },
    other,
    fetch: async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      if (!url.pathname.endsWith('/api/Realtime/events')) {
        if (server.other) return server.other(url, init);
        return new Response('{}', { status: 200 });
      }
      if (refusal !== null) {
        return new Response(JSON.stringify({ Error: 'Recusado', code: 'UNAUTHORIZED' }), {
          status: refusal,
          headers: { 'content-type': 'application/json' },
        });
      }
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let open = true;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
      });
      init?.signal?.addEventListener('abort', () => {
        if (!open) return;
        open = false;
        controller.error(new DOMException('The operation was aborted.', 'AbortError'));
      });
      const connection: FakeConnection = {
        url,
        headers: new Headers(init?.headers),
        signal: init?.signal ?? undefined,
        send: (text) => {
          if (open) controller.enqueue(encoder.encode(text));
        },
        sendEvent: (event) => connection.send(frameOf(event)),
        end: () => {
          if (!open) return;
          open = false;
          controller.close();
        },
      };
      connections.push(connection);
      return new Response(body, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      });
    },
  };
  return server;
}
