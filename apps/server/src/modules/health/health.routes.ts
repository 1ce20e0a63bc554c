/** Liveness and readiness for load balancers and orchestrators. */
import { errorBodySchema } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { databaseUnavailableError } from '../../plugins/error-handler';

const statusSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
});

export function healthRoutes(deps: { database: Pick<DatabaseHandle, 'ping'> }) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    routes.get(
      '/health/live',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          summary: 'O processo está de pé',
          response: { 200: statusSchema },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    routes.get(
      '/health/ready',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          summary: 'Pronto para atender (banco de dados acessível)',
          response: { 200: readySchema, 503: errorBodySchema },
        },
      },
      async () => {
        if (app.lifecycle.shuttingDown) throw AppError.of('SERVICE_UNAVAILABLE', 503);
        try {
          await deps.database.ping();
        } catch (error) {
          app.log.error({ err: error }, 'database ping failed');
          throw databaseUnavailableError(error);
        }
        return { status: 'ok' as const, database: 'ok' as const };
      },
    );
  };
}
