/**
 * The federative units: the public list (unit picker, themes), and the
 * ADMIN's own unit settings (`api/FederativeUnit/settings`).
 */
import {
  errorBodySchema,
  federativeUnitSchema,
  unitSettingsSchema,
  unitSettingsUpdateSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  changeUnitSettings,
  getUnitSettings,
  listFederativeUnits,
  type FederativeUnitDeps,
} from './federative-units.service';

const tags = ['federative-units'];
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

export function federativeUnitRoutes(deps: FederativeUnitDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    routes.get(
      '/api/FederativeUnit',
      {
        config: { access: 'public' },
        schema: {
          tags,
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

    routes.get(
      '/api/FederativeUnit/settings',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Configurações da unidade do administrador',
          response: { 200: unitSettingsSchema, ...errors },
        },
      },
      async (request) => getUnitSettings(deps, currentUser(request)),
    );

    routes.put(
      '/api/FederativeUnit/settings',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Alterar as configurações da unidade do administrador',
          description:
            '`faceAloneAllowed`: permite que um examinador que não está conectado entre na sala só com a validação facial, sem digitar a própria senha (desligado por padrão). A unidade é sempre a do administrador conectado.',
          body: unitSettingsUpdateSchema,
          response: { 200: unitSettingsSchema, ...errors },
        },
      },
      async (request) => changeUnitSettings(deps, currentUser(request), request.body),
    );
  };
}
