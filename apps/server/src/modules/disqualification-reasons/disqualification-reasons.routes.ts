/** Disqualification reasons (`justificativas`): ADMIN manages them, auditors read them. */
import {
  createDisqualificationReasonSchema,
  disqualificationReasonPageSchema,
  disqualificationReasonQuerySchema,
  disqualificationReasonSchema,
  errorBodySchema,
  idParamsSchema,
  updateDisqualificationReasonSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../lib/current-user';
import {
  createReason,
  editReason,
  searchReasons,
  type DisqualificationReasonDeps,
} from './disqualification-reasons.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const tags = ['disqualification-reasons'];

export function disqualificationReasonRoutes(deps: DisqualificationReasonDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/DisqualificationReason',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags,
          summary: 'Justificativas de desclassificação da unidade, por código, com busca',
          querystring: disqualificationReasonQuerySchema,
          response: { 200: disqualificationReasonPageSchema, ...errors },
        },
      },
      async (request) => searchReasons(deps, currentUser(request), request.query),
    );

    routes.post(
      '/api/DisqualificationReason',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Criar uma justificativa na unidade do administrador',
          body: createDisqualificationReasonSchema,
          response: { 201: disqualificationReasonSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createReason(deps, currentUser(request), request.body)),
    );

    routes.put(
      '/api/DisqualificationReason/:id',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags,
          summary: 'Editar, desativar ou reativar uma justificativa (nunca apagada)',
          params: idParamsSchema,
          body: updateDisqualificationReasonSchema,
          response: { 200: disqualificationReasonSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => editReason(deps, currentUser(request), request.params.id, request.body),
    );
  };
}
