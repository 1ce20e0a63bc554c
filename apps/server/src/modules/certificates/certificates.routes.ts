/**
 * Certificates: issued from the finished exams view (ADMIN, and the examiners
 * who held the exam's room while it ran) or by the integration, read as a
 * PDF in the unit (examiners only those they may issue), and checked by
 * anyone with the code on the public page.
 */
import {
  certificateCheckSchema,
  certificateCodeSchema,
  certificateSchema,
  certificateVerifyQuerySchema,
  errorBodySchema,
  schedulingIdParamsSchema,
} from '@exame/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentIntegration, currentUser } from '../../lib/current-user';
import {
  integrationCertificatePdf,
  issueCertificate,
  issueCertificateForIntegration,
  readCertificatePdf,
  verifyCertificate,
  type CertificateDeps,
} from './certificates.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const tags = ['certificates'];

function sendPdf(reply: FastifyReply, file: { pdf: Buffer; filename: string }) {
  return (
    reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        `inline; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      )
      .header('cache-control', 'no-store')
      // Raw bytes: there is no 200 schema, so no JSON serializer touches them.
      .send(file.pdf as never)
  );
}

export function certificateRoutes(deps: CertificateDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/Certificate/:examId',
      {
        config: { access: ['ADMIN', 'VIEWER', 'ROOM_INSPECTOR'] },
        schema: {
          tags,
          summary:
            'Emitir o certificado de um exame finalizado com resultado liberado (ou obter o já emitido)',
          params: z.object({ examId: z.uuid('Exame inválido.') }),
          response: { 200: certificateSchema, ...errors },
        },
      },
      async (request) => issueCertificate(deps, currentUser(request), request.params.examId),
    );

    routes.get(
      '/api/Certificate/:id/pdf',
      {
        config: { access: ['ADMIN', 'VIEWER', 'ROOM_INSPECTOR', 'auditor'] },
        schema: {
          tags,
          summary: 'O certificado em PDF',
          params: z.object({ id: z.uuid('Certificado inválido.') }),
          response: errors,
        },
      },
      async (request, reply) =>
        sendPdf(reply, await readCertificatePdf(deps, currentUser(request), request.params.id)),
    );

    routes.get(
      '/api/Certificate/verify/:code',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'Conferir um certificado pelo código (público, limitado por endereço): autêntico e válido, ou revogado',
          params: z.object({ code: certificateCodeSchema }),
          querystring: certificateVerifyQuerySchema,
          response: { 200: certificateCheckSchema, 429: errorBodySchema, ...errors },
        },
      },
      async (request) =>
        verifyCertificate(deps, {
          code: request.params.code,
          schedulingId: request.query.schedulingId,
          ip: request.ip,
        }),
    );

    routes.post(
      '/api/Integration/exams/:schedulingId/certificate',
      {
        config: { access: 'integration' },
        schema: {
          tags: ['integration'],
          summary: 'Emitir o certificado de um exame finalizado (ou obter o já emitido)',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          response: { 200: certificateSchema, ...errors },
        },
      },
      async (request) =>
        issueCertificateForIntegration(
          deps,
          currentIntegration(request),
          request.params.schedulingId,
        ),
    );

    routes.get(
      '/api/Integration/exams/:schedulingId/certificate/pdf',
      {
        config: { access: 'integration' },
        schema: {
          tags: ['integration'],
          summary: 'O último certificado emitido do exame, em PDF',
          security: [{ apiKey: [] }],
          params: schedulingIdParamsSchema,
          response: errors,
        },
      },
      async (request, reply) =>
        sendPdf(
          reply,
          await integrationCertificatePdf(
            deps,
            currentIntegration(request),
            request.params.schedulingId,
          ),
        ),
    );
  };
}
