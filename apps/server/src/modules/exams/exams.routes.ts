/** `api/Exam`: the exam list and detail, exam photos by signed address, and the CSV import. */
import {
  EXAM_RESULTS,
  EXAM_STATUSES,
  errorBodySchema,
  examSchema,
  batchResultSchema,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import type { FileStorage } from '../../lib/file-storage';
import { sendPrivateImage, signedAccessQuery } from '../../lib/signed-access';
import { currentUser } from '../../plugins/auth';
import { insertActivity } from '../activity/activity.repository';
import { readExamCsv } from './csv-import';
import { findExamsForUpdate, findPhotoWithUnit } from './exams.repository';
import { getExamDetail, searchExams, upsertExams } from './exams.service';

/** The line number in a problem's place ("linha 12, schedulingDate" -> 12), to list problems in file order. */
function lineOf(path: string): number {
  const match = /linha (\d+)/.exec(path);
  return match ? Number(match[1]) : 0;
}

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};
const READERS = ['ADMIN', 'AUDITOR'] as const;

/** `a` or `a,b` or repeated `a[]=`: the API client sends bracket arrays. */
const listOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values), z.array(z.enum(values))])
    .optional()
    .transform((value) =>
      value === undefined ? undefined : Array.isArray(value) ? value : [value],
    );

const isoDate = z.iso.datetime({ offset: true, message: 'Data inválida (ISO 8601 com fuso).' });

const historyEntry = z.object({
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  fromResult: z.string().nullable(),
  toResult: z.string().nullable(),
  source: z.string(),
  at: z.string(),
});

export function examRoutes(files: FileStorage) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const db = app.database.db;
    app.addContentTypeParser(
      ['text/csv', 'text/plain'],
      { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );

    routes.get(
      '/api/Exam',
      {
        config: { access: READERS },
        schema: {
          tags: ['exams'],
          summary: 'Exames da unidade, com filtros, paginação e ordenação no servidor',
          querystring: z
            .object({
              startDate: isoDate.optional(),
              endDate: isoDate.optional(),
              schedulingLocal: z
                .union([z.string().max(80), z.array(z.string().max(80)).max(50)])
                .optional()
                .transform((value) =>
                  value === undefined ? undefined : Array.isArray(value) ? value : [value],
                ),
              status: listOf(EXAM_STATUSES),
              result: listOf(EXAM_RESULTS),
              search: z.string().trim().max(120).optional(),
              page: z.coerce.number().int().min(1).max(100_000).default(1),
              pageSize: z.coerce.number().int().min(1).max(200).default(20),
              sort: z
                .enum(['schedulingDate', 'candidateName', 'status', 'schedulingLocal'])
                .default('schedulingDate'),
              order: z.enum(['asc', 'desc']).default('desc'),
            })
            .refine(
              (query) => !query.startDate || !query.endDate || query.startDate <= query.endDate,
              {
                message: 'A data final precisa ser igual ou posterior à inicial.',
                path: ['endDate'],
              },
            ),
          response: {
            200: z.object({
              items: z.array(examSchema),
              total: z.number().int(),
              page: z.number().int(),
              pageSize: z.number().int(),
            }),
            ...errors,
          },
        },
      },
      async (request) => {
        const query = request.query;
        return searchExams(
          db,
          currentUser(request),
          {
            startDate: query.startDate ? new Date(query.startDate) : undefined,
            endDate: query.endDate ? new Date(query.endDate) : undefined,
            schedulingLocals: query.schedulingLocal,
            statuses: query.status,
            results: query.result,
            search: query.search,
          },
          { page: query.page, pageSize: query.pageSize, sort: query.sort, order: query.order },
        );
      },
    );

    routes.get(
      '/api/Exam/:schedulingId',
      {
        config: { access: READERS },
        schema: {
          tags: ['exams'],
          summary: 'Detalhe do exame: candidato, linha do tempo, ocorrências, fotos e resultado',
          params: z.object({ schedulingId: z.string().trim().min(1).max(64) }),
          response: {
            200: z.object({
              exam: examSchema,
              history: z.array(historyEntry),
              occurrences: z.array(
                z.object({
                  id: z.string(),
                  type: z.string(),
                  description: z.string(),
                  occurredAt: z.string(),
                  photoUrl: z.string().nullable(),
                }),
              ),
              photos: z.array(
                z.object({
                  id: z.string(),
                  capturedAt: z.string(),
                  url: z.string(),
                  width: z.number(),
                  height: z.number(),
                }),
              ),
            }),
            ...errors,
          },
        },
      },
      async (request) =>
        getExamDetail(
          db,
          files,
          app.config.signedUrlTtlMs,
          currentUser(request),
          request.params.schedulingId,
        ),
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
        const { photoId } = request.params;
        const { viewer, expires, signature } = request.query;
        if (!files.verifyAccess('exam-photo', photoId, viewer, expires, signature)) {
          throw AppError.forbidden('Endereço da foto inválido ou expirado. Recarregue a página.');
        }
        const found = await findPhotoWithUnit(db, photoId);
        if (!found) throw AppError.notFound('Foto não encontrada.', 'PHOTO_NOT_FOUND');
        const content = await files.read(found.photo.storageKey);
        await insertActivity(db, {
          type: 'photo_view',
          actorId: viewer,
          federativeUnit: found.federativeUnit,
          payload: { photoId, schedulingId: found.schedulingId },
        });
        return sendPrivateImage(reply, content, 'private, max-age=300');
      },
    );

    routes.post(
      '/api/Exam/import',
      {
        config: { access: ['ADMIN'] },
        bodyLimit: 10 * 1024 * 1024,
        schema: {
          tags: ['exams'],
          summary: 'Importar exames agendados de um CSV (tudo ou nada)',
          body: z.string().max(10 * 1024 * 1024),
          response: { 200: batchResultSchema.extend({ rows: z.number().int() }), ...errors },
        },
      },
      async (request) => {
        const actor = currentUser(request);
        const parsed = readExamCsv(request.body);
        // Agendamentos already stored are problems of the file too: report them with the rest.
        const stored = new Set(
          (
            await findExamsForUpdate(
              db,
              actor.federativeUnit,
              parsed.exams.map((exam) => exam.schedulingId),
            )
          ).map((row) => row.schedulingId),
        );
        const problems = [
          ...parsed.errors,
          ...parsed.exams.flatMap((exam, index) =>
            stored.has(exam.schedulingId)
              ? [
                  {
                    path: `linha ${parsed.lines[index]}, schedulingId`,
                    message: `O agendamento ${exam.schedulingId} já existe.`,
                  },
                ]
              : [],
          ),
        ].sort((a, b) => lineOf(a.path) - lineOf(b.path));
        if (problems.length > 0) {
          throw new AppError(
            'IMPORT_REJECTED',
            `Nenhum exame foi importado: ${problems.length} ${problems.length === 1 ? 'problema encontrado' : 'problemas encontrados'} no arquivo.`,
            400,
            problems.slice(0, 500),
          );
        }
        if (parsed.exams.length === 0) {
          throw new AppError('IMPORT_EMPTY', 'O arquivo não tem nenhuma linha de exame.', 400);
        }
        try {
          const result = await db.transaction(async (tx) => {
            const counts = await upsertExams(
              tx,
              actor.federativeUnit,
              parsed.exams,
              'import',
              actor.id,
              {
                createOnly: true,
              },
            );
            await insertActivity(tx, {
              type: 'exam_import',
              actorId: actor.id,
              federativeUnit: actor.federativeUnit,
              payload: { rows: parsed.rows, created: counts.created },
            });
            return counts;
          });
          return { ...result, rows: parsed.rows };
        } catch (error) {
          if (error instanceof AppError && error.details) {
            // Item positions become file lines: the header is line 1.
            throw new AppError(
              'IMPORT_REJECTED',
              `Nenhum exame foi importado: ${error.details.length} ${error.details.length === 1 ? 'problema encontrado' : 'problemas encontrados'} no arquivo.`,
              400,
              error.details.map((detail) => ({
                path: detail.path.replace(
                  /^exams\.(\d+)\.?(.*)$/,
                  (_m, index: string, field: string) =>
                    `linha ${Number(index) + 2}${field ? `, ${field}` : ''}`,
                ),
                message: detail.message,
              })),
            );
          }
          throw error;
        }
      },
    );
  };
}
