/**
 * The database admission line (lib/admission.ts) in front of the API: every
 * `/api/...` route waits for a place before its handler runs and gives it
 * back once its answer is ready. Health checks, the web app's files and the
 * API docs touch no database and never wait; a route that holds its
 * connection open (the realtime stream) opts out with
 * `config.dbAdmission: false`.
 *
 * The session check (plugins/auth.ts) runs before, in `onRequest`: with the
 * session cache it seldom reads the database. Taking the place after the body
 * is read keeps a slow upload from holding one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serverBusy, type Admission, type Release } from '../lib/admission';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route does not wait in the database admission line (e.g. a long-lived stream). */
    dbAdmission?: false;
  }
  interface FastifyRequest {
    admissionRelease: Release | null;
  }
}

function admitted(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (request.is404 || url === undefined || !url.startsWith('/api/')) return false;
  return request.routeOptions.config?.dbAdmission !== false;
}

export function registerAdmission(app: FastifyInstance, admission: Admission): void {
  app.decorateRequest('admissionRelease', null);
  if (!admission.enabled) return;

  app.addHook('preHandler', async (request, reply) => {
    if (!admitted(request)) return;
    const left = new AbortController();
    const onClose = () => left.abort();
    reply.raw.once('close', onClose);
    let release: Release;
    try {
      release = await admission.acquire(left.signal);
    } catch (error) {
      // The client that left is gone; whoever is still there gets the 503.
      throw left.signal.aborted ? serverBusy(1) : error;
    } finally {
      reply.raw.off('close', onClose);
    }
    request.admissionRelease = release;
    // Normally released in onSend; a connection that closes first releases here.
    reply.raw.once('close', release);
  });

  app.addHook('onSend', async (request, _reply, payload) => {
    request.admissionRelease?.();
    return payload;
  });
}
