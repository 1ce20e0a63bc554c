/** Public list of federative units, used by the web app to pick a unit and theme. */
import { federativeUnitSchema } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listFederativeUnits, type FederativeUnitDeps } from './federative-units.service';

export function federativeUnitRoutes(deps: FederativeUnitDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/FederativeUnit',
      {
        config: { access: 'public' },
        schema: {
          tags: ['federative-units'],
          summary: 'Lista as unidades federativas',
          querystring: z.object({
            onlyActive: z
              .enum(['true', 'false'])
              .optional()
              .transform((value) => value === 'true'),
          }),
          response: { 200: z.array(federativeUnitSchema) },
        },
      },
      async (request) => listFederativeUnits(deps, { onlyActive: request.query.onlyActive }),
    );
  };
}
