/**
 * GET /metrics (Prometheus text format) and the measure of every answered
 * request. The route is never public: `Authorization: Bearer <METRICS_TOKEN>`
 * (Prometheus' `authorization` setting), or the operator's token over
 * loopback; see lib/route-policy.ts. It touches no database and so never
 * waits in the admission line, which lets it be read under overload.
 */
import { errorBodySchema } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics-registry';

/** The route label of a request: its pattern, or one word for what matched none. */
function routeOf(url: string | undefined, is404: boolean): string {
  return url === undefined || is404 ? 'unmatched' : url;
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      routeOf(request.routeOptions.url, request.is404),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  app.get(
    '/metrics',
    {
      config: { access: 'metrics' },
      schema: {
        tags: ['operator'],
        summary:
          'Métricas Prometheus desta instância (token de métricas, ou o do operador na própria máquina)',
        response: { 401: errorBodySchema },
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    },
  );
}
