/** "Possíveis fraudes": the unit's cases of possible proxy test-takers (ADMIN and auditors). */
import {
  closeFraudCaseSchema,
  errorBodySchema,
  FRAUD_CASE_ROLES,
  fraudCaseDetailSchema,
  fraudCasePageSchema,
  fraudCaseQuerySchema,
  fraudCaseSentSchema,
  idParamsSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../lib/current-user';
import {
  closeCase,
  getCase,
  searchCases,
  sendCaseToAudit,
  type FraudCaseDeps,
} from './fraud-cases.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const tags = ['fraud-cases'];
const access = [...FRAUD_CASE_ROLES];

export function fraudCaseRoutes(deps: FraudCaseDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/FraudCase',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Casos de possível fraude da unidade (mesmo rosto em exames de CPFs diferentes)',
          querystring: fraudCaseQuerySchema,
          response: { 200: fraudCasePageSchema, ...errors },
        },
      },
      async (request) => searchCases(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/FraudCase/:id',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Um caso: exames, capturas semelhantes lado a lado e fotos de referência',
          params: idParamsSchema,
          response: { 200: fraudCaseDetailSchema, ...errors },
        },
      },
      async (request) => getCase(deps, currentUser(request), request.params.id),
    );

    routes.post(
      '/api/FraudCase/:id/send-to-audit',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Enviar os exames do caso à fila de auditoria, com o caso anexado',
          params: idParamsSchema,
          response: { 200: fraudCaseSentSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => sendCaseToAudit(deps, currentUser(request), request.params.id),
    );

    routes.post(
      '/api/FraudCase/:id/close',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Encerrar o caso como fraude confirmada ou descartado, com uma nota',
          params: idParamsSchema,
          body: closeFraudCaseSchema,
          response: { 200: fraudCaseDetailSchema, 409: errorBodySchema, ...errors },
        },
      },
      async (request) => closeCase(deps, currentUser(request), request.params.id, request.body),
    );
  };
}
