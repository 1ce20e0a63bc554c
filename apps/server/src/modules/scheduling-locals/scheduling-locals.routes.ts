/** Scheduling locals: management (ADMIN) and the list by unit used by the check-in screens. */
import {
  createSchedulingLocalSchema,
  errorBodySchema,
  idParamsSchema,
  ROLES,
  schedulingLocalPageSchema,
  schedulingLocalQuerySchema,
  schedulingLocalSchema,
  updateSchedulingLocalSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  createLocal,
  editLocal,
  localsOfUnit,
  searchLocals,
  type SchedulingLocalDeps,
} from './scheduling-locals.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

export function schedulingLocalRoutes(deps: SchedulingLocalDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/:unit',
      {
        config: { access: ROLES },
        schema: {
          tags: ['scheduling-locals'],
          summary: 'Postos ativos da unidade (apenas a unidade do usuário)',
          params: z.object({ unit: z.string().trim().min(2).max(4) }),
          response: { 200: z.array(schedulingLocalSchema), ...errors },
        },
      },
      async (request) => localsOfUnit(deps, currentUser(request), request.params.unit),
    );

    routes.get(
      '/api/SchedulingLocal',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags: ['scheduling-locals'],
          summary: 'Postos da unidade, paginados, com busca',
          querystring: schedulingLocalQuerySchema,
          response: { 200: schedulingLocalPageSchema, ...errors },
        },
      },
      async (request) => searchLocals(deps, currentUser(request), request.query),
    );

    routes.post(
      '/api/SchedulingLocal',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['scheduling-locals'],
          summary:
            'Criar um posto na unidade do administrador (hífen no identificador só no CE, onde o exame guarda o local inteiro)',
          body: createSchedulingLocalSchema,
          response: { 201: schedulingLocalSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLocal(deps, currentUser(request), request.body)),
    );

    routes.put(
      '/api/SchedulingLocal/:id',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['scheduling-locals'],
          summary: 'Editar, desativar ou reativar um posto',
          params: idParamsSchema,
          body: updateSchedulingLocalSchema,
          response: { 200: schedulingLocalSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => editLocal(deps, currentUser(request), request.params.id, request.body),
    );
  };
}
