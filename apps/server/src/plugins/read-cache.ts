/**
 * Serves the hot reads that opt in (`config: { readCache: true }`) from the
 * per-instance read cache (lib/read-cache.ts) while no data changed.
 *
 * The lookup is an `onRequest` hook registered after authentication: the
 * session and the access policy are checked on every request first, and a
 * hit skips validation, the database admission line, the handler and the
 * serialiser. A 200 answer is stored in `onSend` if the data generation did
 * not move since the lookup (so never the answer of a handler that wrote
 * something itself, nor one that overlapped a change).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Unlisten } from '../db/client';
import { READ_CACHE_CHANNEL, dataChanged, type ReadCache } from '../lib/read-cache';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer may be served again from the read cache while no data changed. */
    readCache?: true;
  }
  interface FastifyRequest {
    /** The cache key and data generation taken at lookup; null when the route is not cached. */
    readCacheLookup: { key: string; generation: number } | null;
  }
}

/** The header a cached read answers with: `hit` or `miss` (for operators and tests). */
export const READ_CACHE_HEADER = 'x-read-cache';

function cacheKey(request: FastifyRequest): string | null {
  const user = request.user;
  if (!user) return null;
  return `${user.id}\n${user.role}\n${user.federativeUnit}\n${request.url}`;
}

export function registerReadCache(app: FastifyInstance, cache: ReadCache): void {
  app.decorateRequest('readCacheLookup', null);
  if (cache.ttlMs <= 0) return;

  // Changes made through other connections (other instances) arrive as NOTIFY.
  let unlisten: Unlisten | null = null;
  if (app.database.kind === 'postgres') {
    cache.setListening(false);
    app.addHook('onReady', async () => {
      try {
        // A bump, not only a clear: a read that began before the change must not store its answer.
        unlisten = await app.database.listen(READ_CACHE_CHANNEL, dataChanged, {
          onLost: () => cache.setListening(false),
          onReconnect: () => cache.setListening(true),
        });
        cache.setListening(true);
      } catch (error) {
        // Without notifications another instance's change could go unseen: no cache.
        app.log.error({ err: error }, 'cache de leituras desligado: sem avisos de mudança');
      }
    });
  }
  app.addHook('onClose', async () => {
    cache.clear();
    await unlisten?.().catch(() => undefined);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.routeOptions.config?.readCache !== true) return;
    const key = cacheKey(request);
    if (key === null) return;
    const found = cache.get(key, Date.now());
    if (found) {
      reply.header(READ_CACHE_HEADER, 'hit').type(found.contentType).code(200);
      return reply.send(found.payload);
    }
    request.readCacheLookup = { key, generation: cache.generation() };
    reply.header(READ_CACHE_HEADER, 'miss');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // Undefined in contexts made before the decoration (the API docs' plugin).
    const lookup = request.readCacheLookup as typeof request.readCacheLookup | undefined;
    if (!lookup || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string') return payload;
    cache.set(lookup.key, { payload, contentType }, lookup.generation, Date.now());
    return payload;
  });
}
