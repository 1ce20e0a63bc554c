/** The audit queue and the auditors' claims (auditor and ADMIN; ADMIN reads, auditors audit). */
import {
  auditClaimSchema,
  auditConfirmationInputSchema,
  auditDecisionInputSchema,
  auditDecisionResultSchema,
  auditDetailSchema,
  auditQueuePageSchema,
  auditQueueQuerySchema,
  auditReopenInputSchema,
  errorBodySchema,
  myAuditSchema,
  myPhotoAuditSchema,
  photoMarkInputSchema,
  PHOTO_VERDICTS,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  claimExam,
  myAudit,
  myPhotoAudit,
  releaseExam,
  type AuditDeps,
} from './audit-claims.service';
import { confirmDecision, decideExam, reopenDecision } from './audit-decisions.service';
import { getAuditDetail } from './audit-detail.service';
import { markPhoto } from './photo-marks.service';
import { searchQueue } from './audit-queue.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const tags = ['audits'];
const examParams = z.object({ examId: z.uuid('Exame inválido.') });
const photoParams = examParams.extend({ photoId: z.uuid('Captura inválida.') });
const judged = { 200: auditDecisionResultSchema, 409: errorBodySchema, ...errors };

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
          summary: 'Minha auditoria: os exames que o auditor audita agora e as decisões que tomou',
          response: { 200: myAuditSchema, ...errors },
        },
      },
      async (request) => myAudit(deps, currentUser(request)),
    );

    routes.get(
      '/api/Audit/photo-audits/mine',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary: 'Minha auditoria de fotos: os exames cujas capturas o auditor marcou',
          response: { 200: myPhotoAuditSchema, ...errors },
        },
      },
      async (request) => myPhotoAudit(deps, currentUser(request)),
    );

    routes.get(
      '/api/Audit/:examId',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags,
          summary:
            'O exame como o auditor o julga: candidato, linha do tempo, ocorrências, foto de referência e capturas com a semelhança facial, decisões',
          params: examParams,
          response: { 200: auditDetailSchema, ...errors },
        },
      },
      async (request) => getAuditDetail(deps, currentUser(request), request.params.examId),
    );

    routes.post(
      '/api/Audit/:examId/decision',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary:
            'Decidir (send_result): liberar o resultado pela nota ou desclassificar com motivo e observação',
          params: examParams,
          body: auditDecisionInputSchema,
          response: judged,
        },
      },
      async (request) =>
        decideExam(deps, currentUser(request), request.params.examId, request.body),
    );

    routes.post(
      '/api/Audit/:examId/confirmation',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary:
            'Confirmar ou não a decisão de outro auditor (regra de duas pessoas, reverificação)',
          params: examParams,
          body: auditConfirmationInputSchema,
          response: judged,
        },
      },
      async (request) =>
        confirmDecision(deps, currentUser(request), request.params.examId, request.body),
    );

    routes.post(
      '/api/Audit/:examId/reopen',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags,
          summary: 'Reabrir a decisão em vigor, com o motivo; o exame volta à fila de auditoria',
          params: examParams,
          body: auditReopenInputSchema,
          response: judged,
        },
      },
      async (request) =>
        reopenDecision(deps, currentUser(request), request.params.examId, request.body),
    );

    routes.put(
      '/api/Audit/:examId/photos/:photoId/mark',
      {
        config: { access: ['auditor'] },
        schema: {
          tags,
          summary: 'Auditoria de fotos: marcar a captura como compatível ou incompatível',
          params: photoParams,
          body: photoMarkInputSchema,
          response: {
            200: z.object({
              verdict: z.enum(PHOTO_VERDICTS),
              auditorName: z.string(),
              markedAt: z.string(),
            }),
            409: errorBodySchema,
            ...errors,
          },
        },
      },
      async (request) => markPhoto(deps, currentUser(request), request.params, request.body),
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
          response: { 204: z.null(), 409: errorBodySchema, ...errors },
        },
      },
      async (request, reply) => {
        await releaseExam(deps, currentUser(request), request.params.examId);
        return reply.status(204).send(null);
      },
    );
  };
}
