/**
 * `api/Integration/...`: the exam-delivery system pushes exams, status
 * changes, occurrences and photos with an `x-api-key` of its unit; ADMINs
 * manage those keys.
 */
import {
  apiKeySchema,
  batchResultSchema,
  createApiKeySchema,
  errorBodySchema,
  examSchema,
  idParamsSchema,
  integrationBatchSchema,
  occurrenceInputSchema,
  photoInputSchema,
  referencePhotoInputSchema,
  statusUpdateSchema,
  schedulingIdParamsSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentIntegration, currentUser } from '../../lib/current-user';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';
import {
  addOccurrences,
  addPhoto,
  pushExams,
  putReferencePhoto,
  updateExamStatus,
  type IntegrationDeps,
} from './integration.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const IMAGE_BODY_LIMIT = 12 * 1024 * 1024;

export function integrationRoutes(deps: IntegrationDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/Integration/keys',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['integration'],
          summary: 'Chaves de integração da unidade',
          response: { 200: z.array(apiKeySchema), ...errors },
        },
      },
      async (request) => listApiKeys(deps, currentUser(request)),
    );

    routes.post(
      '/api/Integration/keys',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['integration'],
          summary: 'Criar uma chave de integração (exibida uma única vez)',
          body: createApiKeySchema,
          response: { 201: z.object({ apiKey: apiKeySchema, key: z.string() }), ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createApiKey(deps, currentUser(request), request.body)),
    );

    routes.delete(
      '/api/Integration/keys/:id',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['integration'],
          summary: 'Revogar uma chave de integração',
          params: idParamsSchema,
          response: { 200: apiKeySchema, ...errors },
        },
      },
      async (request) => revokeApiKey(deps, currentUser(request), request.params.id),
    );

    routes.post(
      '/api/Integration/exams',
      {
        config: { access: 'integration' },
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags: ['integration'],
          summary: 'Criar ou atualizar exames em lote (idempotente por schedulingId; tudo ou nada)',
          security: [{ apiKey: [] }],
          body: integrationBatchSchema,
          response: { 200: batchResultSchema, ...errors },
        },
      },
      async (request) => pushExams(deps, currentIntegration(request), request.body.exams),
    );

    routes.patch(
      '/api/Integration/exams/:schedulingId/status',
      {
        config: { access: 'integration' },
        schema: {
          tags: ['integration'],
          summary: 'Mudar a situação e o resultado de um exame (pela máquina de estados)',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          body: statusUpdateSchema,
          response: { 200: examSchema, ...errors },
        },
      },
      async (request) =>
        updateExamStatus(
          deps,
          currentIntegration(request),
          request.params.schedulingId,
          request.body,
        ),
    );

    routes.post(
      '/api/Integration/exams/:schedulingId/occurrences',
      {
        config: { access: 'integration' },
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['integration'],
          summary: 'Anexar ocorrências (idempotente por externalId), com foto opcional',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          body: z.object({ occurrences: z.array(occurrenceInputSchema).min(1).max(100) }),
          response: {
            200: z.object({ created: z.number().int(), unchanged: z.number().int() }),
            ...errors,
          },
        },
      },
      async (request) =>
        addOccurrences(
          deps,
          currentIntegration(request),
          request.params.schedulingId,
          request.body.occurrences,
        ),
    );

    routes.post(
      '/api/Integration/exams/:schedulingId/photos',
      {
        config: { access: 'integration' },
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['integration'],
          summary: 'Anexar uma foto capturada durante o exame (validada e recodificada)',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          body: photoInputSchema,
          response: { 200: z.object({ id: z.string(), created: z.boolean() }), ...errors },
        },
      },
      async (request) =>
        addPhoto(deps, currentIntegration(request), request.params.schedulingId, request.body),
    );

    routes.put(
      '/api/Integration/exams/:schedulingId/reference-photo',
      {
        config: { access: 'integration' },
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['integration'],
          summary:
            'Enviar a foto de referência do candidato (a foto cadastrada), com que a auditoria compara as capturas; substitui a anterior',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          body: referencePhotoInputSchema,
          response: { 200: z.object({ id: z.string(), created: z.boolean() }), ...errors },
        },
      },
      async (request) =>
        putReferencePhoto(
          deps,
          currentIntegration(request),
          request.params.schedulingId,
          request.body,
        ),
    );
  };
}
