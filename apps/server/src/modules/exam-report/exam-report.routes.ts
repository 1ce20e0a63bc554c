/**
 * `api/ExamReport`: the dashboard with the exams behind each counter (ADMIN and
 * AUDITOR) and the per-post report with its exports (ADMIN only — the
 * admin-guarded `/exam-report/:id` screen is enforced here). Any unit in the request is ignored: the unit is
 * the session's.
 */
import {
  errorBodySchema,
  localReportDetailSchema,
  localReportSchema,
  reportExamPageSchema,
  reportExamsQuerySchema,
  reportExportQuerySchema,
  reportOccurrencePageSchema,
  reportOccurrencesQuerySchema,
  reportQuerySchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import {
  exportExamReport,
  getCounterExams,
  getExamReport,
  getLocalReport,
  getReportOccurrences,
  type ExamReportDeps,
} from './exam-report.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
const localParams = z.object({
  localId: z.string().min(1).max(200).describe('Id do posto (ex.: DF.POSTO01) ou all'),
});

export function examReportRoutes(deps: ExamReportDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/ExamReport',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags: ['exam-report'],
          summary: 'Contadores de exames de cada posto da unidade no período (datas inclusivas)',
          querystring: reportQuerySchema,
          response: { 200: z.array(localReportSchema), ...errors },
        },
      },
      async (request) => getExamReport(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/ExamReport/occurrences',
      {
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags: ['exam-report'],
          summary: 'Ocorrências dos exames do período, das mais recentes às mais antigas',
          querystring: reportOccurrencesQuerySchema,
          response: { 200: reportOccurrencePageSchema, ...errors },
        },
      },
      async (request) => getReportOccurrences(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/ExamReport/export',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['exam-report'],
          summary:
            'Relatório de um posto (localId) ou de todos, em CSV (separador ;, UTF-8 com BOM) ou XLSX',
          querystring: reportExportQuerySchema,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await exportExamReport(deps, currentUser(request), request.query);
        return (
          reply
            .header('content-type', file.contentType)
            .header(
              'content-disposition',
              `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
            )
            .header('cache-control', 'no-store')
            // Raw bytes: there is no 200 schema, so no JSON serializer touches them.
            .send(file.body as never)
        );
      },
    );

    routes.get(
      '/api/ExamReport/:localId',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['exam-report'],
          summary: 'Relatório de um posto, ou de todos os postos (all) com a soma',
          params: localParams,
          querystring: reportQuerySchema,
          response: { 200: localReportDetailSchema, ...errors },
        },
      },
      async (request) =>
        getLocalReport(deps, currentUser(request), request.params.localId, request.query),
    );

    routes.get(
      '/api/ExamReport/:localId/exams',
      {
        // The exams behind a counter: from the report (ADMIN) and the dashboard (ADMIN, AUDITOR).
        config: { access: ['ADMIN', 'auditor'] },
        schema: {
          tags: ['exam-report'],
          summary: 'Exames por trás de um contador do relatório, paginados',
          params: localParams,
          querystring: reportExamsQuerySchema,
          response: { 200: reportExamPageSchema, ...errors },
        },
      },
      async (request) =>
        getCounterExams(deps, currentUser(request), request.params.localId, request.query),
    );
  };
}
