/**
 * GET /internal/backup: the backup of the embedded installation made by the
 * running server (only it may open PGlite's files), for `npm run backup` on
 * the server's own machine (operator token over loopback). See backup.service.ts.
 */
import { PassThrough } from 'node:stream';
import { errorBodySchema, SERVER_ERRORS } from '@exame/shared';
import type { FastifyInstance } from 'fastify';
import type { FileStorageTarget } from '../../config/env';
import type { DatabaseHandle } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { createDiskStore } from '../../lib/file-storage';
import { writeBackup } from './backup.service';

export type BackupDeps = {
  database: Pick<DatabaseHandle, 'kind' | 'dumpDataDir'>;
  fileStorage: FileStorageTarget;
  key: Buffer;
};

export function backupRoutes(deps: BackupDeps) {
  return async (app: FastifyInstance) => {
    app.get(
      '/internal/backup',
      {
        config: { access: 'operator' },
        schema: {
          tags: ['operator'],
          summary:
            'Cópia de segurança do banco embutido e dos arquivos (comando do operador, só na máquina do servidor)',
          response: { 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        if (deps.database.kind !== 'pglite') {
          throw AppError.from(SERVER_ERRORS, 'BACKUP_EMBEDDED_ONLY');
        }
        const out = new PassThrough();
        const files =
          deps.fileStorage.kind === 'disk' ? createDiskStore(deps.fileStorage.root) : null;
        writeBackup({ database: deps.database, files, key: deps.key }, out).catch(
          (error: unknown) => {
            request.log.error({ err: error }, 'falha ao gerar a cópia de segurança');
            out.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        );
        return reply
          .type('application/octet-stream')
          .header('content-disposition', 'attachment; filename="exame.backup"')
          .header('cache-control', 'no-store')
          .send(out);
      },
    );
  };
}
