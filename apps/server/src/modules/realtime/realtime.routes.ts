/**
 * `GET api/Realtime/events`: the caller's unit's events as Server-Sent
 * Events. The browser's EventSource cannot send the bearer token, so the web
 * client reads the stream with fetch; the format is the standard one all the
 * same (`id`, `event`, `data`, comments as heartbeats, `Last-Event-ID`).
 */
import {
  errorBodySchema,
  realtimeEventIdSchema,
  realtimeStreamQuerySchema,
  ROLES,
} from '@exame/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { currentUser } from '../../lib/current-user';
import { openRealtimeStream, type RealtimeDeps, type StreamSink } from './realtime.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The response as a stream. Its head goes out with the first text, so a
 * failure before that is still answered as an ordinary JSON error.
 */
function streamSink(reply: FastifyReply): StreamSink {
  const raw = reply.raw;
  let open = false;
  return {
    write: (chunk) => {
      if (!open) {
        open = true;
        reply.hijack();
        // The security headers set by earlier hooks (helmet) go out too.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) raw.setHeader(name, value);
        }
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          // nginx and similar proxies would hold the events back in their buffers.
          'x-accel-buffering': 'no',
          // A stream ends when its client or this instance goes: the connection is not reused,
          // and an instance shutting down does not wait for it to idle out.
          connection: 'close',
        });
      }
      if (!raw.destroyed) raw.write(chunk);
    },
    backlog: () => raw.writableLength,
    end: () => {
      if (open && !raw.writableEnded) raw.end();
    },
  };
}

/** `Last-Event-ID`, which browsers and our client send when reconnecting. */
function lastEventIdHeader(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = realtimeEventIdSchema.safeParse(Array.isArray(value) ? value[0] : value);
  if (!parsed.success) {
    throw new AppError('VALIDATION_ERROR', 'Cabeçalho Last-Event-ID inválido.', 400);
  }
  return parsed.data;
}

export function realtimeRoutes(deps: RealtimeDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/Realtime/events',
      {
        // A stream stays open: it must not hold a place in the database admission line.
        config: { access: ROLES, dbAdmission: false },
        schema: {
          tags: ['realtime'],
          summary:
            'Eventos da unidade em tempo real (text/event-stream): mudanças de exames, ocorrências, fotos e entradas; retoma após lastEventId ou Last-Event-ID',
          querystring: realtimeStreamQuerySchema,
          response: {
            200: z
              .string()
              .describe('Fluxo Server-Sent Events: "id: N", "event: <tipo>", "data: <JSON>"'),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const lastEventId =
          request.query.lastEventId ?? lastEventIdHeader(request.headers['last-event-id']);
        const sink = streamSink(reply);
        const end = await openRealtimeStream(
          deps,
          currentUser(request),
          {
            local: request.query.local,
            lastEventId,
            // An injected request (app.inject) is answered once its body ends: send what is there and stop.
            follow: !(reply.raw as { isLightMyRequest?: boolean }).isLightMyRequest,
          },
          sink,
        );
        reply.raw.once('close', end);
        // The client may have gone while the stream was catching up.
        if (reply.raw.destroyed || request.raw.socket?.destroyed) end();
        return reply;
      },
    );
  };
}
