/** The mail outbox as the operator reads it (`npm run mail:outbox`), from the server's own machine. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@exame/shared';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { listPendingMail } from './mailer';

export const pendingMailSchema = z.array(
  z.object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    createdAt: z.string(),
    linkExpiresAt: z.string().nullable(),
    text: z.string(),
  }),
);

export type MailDeps = { db: Database };

export function mailRoutes(deps: MailDeps) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/internal/mail-outbox',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['operator'],
          summary:
            'E-mails pendentes com seus links (comando do operador, só na máquina do servidor)',
          response: { 200: pendingMailSchema, 401: errorBodySchema },
        },
      },
      async () => listPendingMail(deps.db),
    );
  };
}
