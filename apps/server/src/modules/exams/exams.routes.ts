/** `api/Exam`: the exam list and detail, exam photos by signed address, and the CSV import. */
import {
  batchResultSchema,
  errorBodySchema,
  examDetailSchema,
  examListQuerySchema,
  examPageSchema,
  schedulingIdParamsSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPrivateImage, signedAccessQuery } from '../../lib/signed-access';
import { currentUser } from '../../lib/current-user';
import { importExamCsv } from './exam-import.service';
import { openExamPhoto } from './exam-photo-links.service';
import { getExamDetail, searchExams, type ExamDeps } from './exams.service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const READERS = ['ADMIN', 'auditor'] as const;
const CSV_LIMIT = 10 * 1024 * 1024;

export function examRoutes(deps: ExamDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    app.addContentTypeParser(
      ['text/csv', 'text/plain'],
      { parseAs: 'string', bodyLimit: CSV_LIMIT },
      (_request, body, done) => done(null, body),
    );

    routes.get(
      '/api/Exam',
      {
        config: { access: READERS },
        schema: {
          tags: ['exams'],
          summary:
            'Exames da unidade, com filtros, paginação e ordenação no servidor; período em dias de São Paulo, inclusivos',
          querystring: examListQuerySchema,
          response: { 200: examPageSchema, ...errors },
        },
      },
      async (request) => searchExams(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/Exam/:schedulingId',
      {
        config: { access: READERS },
        schema: {
          tags: ['exams'],
          summary: 'Detalhe do exame: candidato, linha do tempo, ocorrências, fotos e resultado',
          params: schedulingIdParamsSchema,
          response: { 200: examDetailSchema, ...errors },
        },
      },
      async (request) => getExamDetail(deps, currentUser(request), request.params.schedulingId),
    );

    // An <img> cannot send the bearer header: the detail hands out addresses
    // signed for the viewing user that expire in minutes; each view is logged.
    routes.get(
      '/api/ExamPhoto/:photoId',
      {
        config: { access: 'public' },
        schema: {
          tags: ['exams'],
          summary: 'Foto do exame por endereço assinado e temporário',
          params: z.object({ photoId: z.uuid() }),
          querystring: signedAccessQuery,
          response: { 403: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const content = await openExamPhoto(deps, request.query, request.params);
        return sendPrivateImage(reply, content, 'private, max-age=300');
      },
    );

    routes.post(
      '/api/Exam/import',
      {
        config: { access: ['ADMIN'] },
        bodyLimit: CSV_LIMIT,
        schema: {
          tags: ['exams'],
          summary: 'Importar exames agendados de um CSV (tudo ou nada)',
          body: z.string().max(CSV_LIMIT),
          response: { 200: batchResultSchema.extend({ rows: z.number().int() }), ...errors },
        },
      },
      async (request) => importExamCsv(deps, currentUser(request), request.body),
    );
  };
}
