/**
 * A server for screen tests: `fetch` answered by "METHOD /path" handlers
 * (404 with the server's error shape otherwise), every call recorded with
 * its query and JSON body.
 */
import { vi } from 'vitest';

export type StubCall = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
};
export type StubHandler = (call: StubCall, init?: RequestInit) => Response | Promise<Response>;

/** A JSON answer. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Stubs the global fetch with `routes`; returns the calls as they come. */
export function stubServer(routes: Record<string, StubHandler>): StubCall[] {
  const calls: StubCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const method = init?.method ?? 'GET';
    const call: StubCall = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    return handler
      ? handler(call, init)
      : json(404, { Error: 'Não encontrado.', code: 'NOT_FOUND' });
  });
  return calls;
}
