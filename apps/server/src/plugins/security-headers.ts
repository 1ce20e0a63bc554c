/**
 * The security headers of every response: helmet's set (with the product's
 * Content-Security-Policy) and the Permissions-Policy, computed once at
 * start-up and set by one `onRequest` hook. They depend on the configuration
 * only, never on the request; the Fastify plugin for helmet rebuilt helmet's
 * middleware on every request, a measurable share of a small route's CPU
 * (`npm run bench:load -w bench`). Hooks set them before the handler runs,
 * so error answers, 404s, static files and the realtime stream (which copies
 * the reply's headers when it takes the socket over) carry them too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=()';

/** Runs helmet's middleware once against a recorder: the headers it sets, lower-cased. */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  let failure: unknown;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => {
      finished = true;
      failure = error;
    },
  );
  // helmet's middleware is synchronous for static options; anything else is a programming error.
  if (!finished) throw new Error('helmet não terminou de forma síncrona: opções dinâmicas?');
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
