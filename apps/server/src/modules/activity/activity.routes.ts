/** `api/ActivityLog`: the web client's events, and the ADMIN's search, export and chain check. */
import { Readable } from 'node:stream';
import {
  activityBatchResultSchema,
  activityBatchSchema,
  activityFilterSchema,
  activityPageSchema,
  activityQuerySchema,
  activityVerifySchema,
  errorBodySchema,
  ROLES,
} from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../lib/current-user';
import { parseAnchor, verifyAllChains, type ChainAnchor } from './activity-chain';
import {
  exportActivity,
  ingestWebEvents,
  searchActivity,
  verifyUnitChain,
  type ActivityDeps,
} from './activity.service';

/** Every chain's report, as `npm run activity:verify` prints it. */
export const chainReportsSchema = z.array(
  activityVerifySchema.extend({
    chain: z.string(),
    unit: z.string().nullable(),
    headHash: z.string(),
  }),
);

/** `anchor=<chain>:<seq>:<hash>`, once or more: heads kept outside the database. */
export const anchorQuerySchema = z.object({
  anchor: z
    .union([z.string(), z.array(z.string()).max(1000)])
    .optional()
    .transform((value, context): ChainAnchor[] => {
      const anchors: ChainAnchor[] = [];
      for (const text of value === undefined ? [] : [value].flat()) {
        const anchor = parseAnchor(text);
        if (!anchor) {
          context.addIssue({
            code: 'custom',
            message: `Âncora inválida: "${text.slice(0, 100)}" (esperado <cadeia>:<nº>:<hash de 64 dígitos>).`,
          });
          return z.NEVER;
        }
        anchors.push(anchor);
      }
      return anchors;
    }),
});

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  429: errorBodySchema,
};

export function activityRoutes(deps: ActivityDeps) {
  return async (app: FastifyInstance) => {
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/ActivityLog/events',
      {
        config: { access: ROLES },
        schema: {
          tags: ['activity'],
          summary:
            'Eventos do navegador (page_view, error, stream_log) em lotes de 1 a 100; um clientId já recebido do usuário não é gravado de novo',
          body: activityBatchSchema,
          response: { 200: activityBatchResultSchema, ...errors },
        },
      },
      async (request) => ingestWebEvents(deps, currentUser(request), request.body),
    );

    routes.get(
      '/api/ActivityLog',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['activity'],
          summary:
            'Eventos da unidade por tipo, usuário, alvo (um CPF acha os eventos sobre a pessoa) e período, dos mais recentes aos mais antigos',
          querystring: activityQuerySchema,
          response: { 200: activityPageSchema, ...errors },
        },
      },
      async (request) => searchActivity(deps, currentUser(request), request.query),
    );

    routes.get(
      '/api/ActivityLog/export',
      {
        config: { access: ['ADMIN'], reauth: true },
        schema: {
          tags: ['activity'],
          summary:
            'Os eventos da busca em CSV (separador ;, UTF-8 com BOM), até 100 000 eventos por arquivo',
          querystring: activityFilterSchema,
          response: errors,
        },
      },
      async (request, reply) => {
        const file = await exportActivity(deps, currentUser(request), request.query);
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header(
              'content-disposition',
              `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
            )
            .header('cache-control', 'no-store')
            // Streamed: there is no 200 schema, so no JSON serializer touches it.
            .send(Readable.from(file.lines) as never)
        );
      },
    );

    routes.get(
      '/api/ActivityLog/verify',
      {
        config: { access: ['ADMIN'] },
        schema: {
          tags: ['activity'],
          summary:
            'Confere a cadeia de hashes dos eventos da unidade e aponta o primeiro elo quebrado',
          response: { 200: activityVerifySchema, ...errors },
        },
      },
      async (request) => verifyUnitChain(deps, currentUser(request)),
    );

    routes.get(
      '/internal/activity-verify',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['operator'],
          summary:
            'Confere a cadeia de hashes de todas as unidades, e contra as âncoras guardadas fora do banco (comando do operador, só na máquina do servidor)',
          querystring: anchorQuerySchema,
          response: { 200: chainReportsSchema, 400: errorBodySchema, 401: errorBodySchema },
        },
      },
      async (request) => verifyAllChains(deps.db, request.query.anchor),
    );
  };
}
