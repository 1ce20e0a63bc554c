/** The audit queue and the auditors' claims (auditor and ADMIN; ADMIN reads, auditors audit). */
import {
  auditClaimSchema,
  auditQueuePageSchema,
  auditQueueQuerySchema,
  errorBodySchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth';
import { claimExam, myClaims, releaseExam, searchQueue, type AuditDeps } from './audits.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const tags = ['audits'];
const examParams = z.object({ examId: z.uuid('Exame inválido.') });

export function auditRoutes(deps: AuditDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/Audit/queue',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags,
          summary: 'Exames aguardando auditoria na unidade, do mais antigo ao mais novo',
          querystring: auditQueueQuerySchema,
          response: { 200: auditQueuePageSchema, ...errors },
        },
      },
      async (request) => searchQueue(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/Audit/mine',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary: 'Minha auditoria: os exames que o auditor está auditando agora',
          response: { 200: z.array(auditClaimSchema), ...errors },
        },
      },
      async (request) => myClaims(deps, currentUser(request)),
    );

    routes.post(
      '/api/Audit/:examId/claim',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary:
            'Assumir a auditoria de um exame (load_audit); 409 com o alerta do auditor quando outro o audita',
          params: examParams,
          response: { 200: auditClaimSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => claimExam(deps, currentUser(request), request.params.examId),
    );

    routes.post(
      '/api/Audit/:examId/release',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary: 'Devolver o exame à fila de auditoria',
          params: examParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await releaseExam(deps, currentUser(request), request.params.examId);
        return reply.status(204).send(null);
      },
    );
  };
}
