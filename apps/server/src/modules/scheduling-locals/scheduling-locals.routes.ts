/** Scheduling locals: management (ADMIN) and the list by unit used by the check-in screens. */
import { errorBodySchema, ROLES, schedulingLocalSchema } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth';
import { createLocal, editLocal, localsOfUnit, searchLocals } from './scheduling-locals.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const identifier = z
  .string()
  .trim()
  .min(2, 'Informe o identificador do posto.')
  .max(80)
  // No dash: in an exam's local the text after the first dash is the room (DEMO.POSTO01-S2).
  .regex(
    /^[A-Za-z0-9._]+$/,
    'O identificador aceita letras, números, ponto e sublinhado (sem hífen).',
  );
const description = z.string().trim().min(3, 'Informe o nome do posto.').max(120);
const address = z.string().trim().max(240).nullable().optional();

export async function schedulingLocalRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

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
    async (request) => localsOfUnit(db, currentUser(request), request.params.unit),
  );

  routes.get(
    '/api/SchedulingLocal',
    {
      config: { access: ['ADMIN', 'AUDITOR'] },
      schema: {
        tags: ['scheduling-locals'],
        summary: 'Postos da unidade, paginados, com busca',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          pageSize: z.coerce.number().int().min(1).max(200).default(20),
          search: z.string().trim().max(120).optional(),
          onlyActive: z
            .enum(['true', 'false'])
            .optional()
            .transform((value) => value === 'true'),
        }),
        response: {
          200: z.object({
            items: z.array(schedulingLocalSchema),
            total: z.number().int(),
            page: z.number().int(),
            pageSize: z.number().int(),
          }),
          ...errors,
        },
      },
    },
    async (request) => searchLocals(db, currentUser(request), request.query),
  );

  routes.post(
    '/api/SchedulingLocal',
    {
      config: { access: ['ADMIN'] },
      schema: {
        tags: ['scheduling-locals'],
        summary: 'Criar um posto na unidade do administrador',
        body: z.object({ identifier, description, address }),
        response: { 201: schedulingLocalSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createLocal(db, currentUser(request), request.body)),
  );

  routes.put(
    '/api/SchedulingLocal/:id',
    {
      config: { access: ['ADMIN'] },
      schema: {
        tags: ['scheduling-locals'],
        summary: 'Editar, desativar ou reativar um posto',
        params: z.object({ id: z.uuid('Identificador inválido.') }),
        body: z.object({
          identifier: identifier.optional(),
          description: description.optional(),
          address,
          isActive: z.boolean().optional(),
        }),
        response: { 200: schedulingLocalSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => editLocal(db, currentUser(request), request.params.id, request.body),
  );
}
