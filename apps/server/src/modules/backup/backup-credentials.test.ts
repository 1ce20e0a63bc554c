/**
 * A backup never holds a usable credential (issue: a password link taken
 * from a backup set a password). An embedded installation on disk, without
 * SMTP, with a reset link waiting in the outbox (usable for 30 minutes) and
 * a signed-in ADMIN, is backed up and restored into another folder, as
 * someone holding the backup and its key would: the outbox has no link and
 * no token, the token sets no password, the session is refused, and no
 * session, trusted device or password link is open. Without BACKUP_KEY no
 * backup is written at all, by the function or by `npm run backup`.
 * (Backups exist for the embedded database only: with TEST_DATABASE_URL this
 * file runs on PGlite all the same; backup-scrub.test.ts runs the scrub on
 * both engines.)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../../test/helper';
import { lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';
import type { AppConfig } from '../../config/env';
import { backupToFile } from './backup.service';
import { openDatabase } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { restoreFromFile } from './restore.service';
import { ensureReferenceData } from '../../db/seed/reference-data';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
/** Opens, dumps and loads whole databases (PGlite on disk): minutes on a busy machine. */
const SLOW = 180_000;

describe('a backup holds no usable link nor session', () => {
  const key = randomBytes(32);
  let dataDir: string;
  let work: string;
  let config: AppConfig;
  let backupFile: string;
  /** The reset link waiting in the outbox and the live session, when the backup was made. */
  let live: { cpf: string; token: string; auth: { authorization: string } };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-credentials-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-credentials-work-'));
    config = testConfig({
      dataDir,
      fileEncryptionKey: key,
      backupKey: 'chave-das-copias-de-seguranca-2026',
      fileStorage: { kind: 'disk', root: path.join(dataDir, 'files') },
    });
    backupFile = path.join(work, 'exame.backup');
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
    await database.migrate();
    await ensureReferenceData(database.db);
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    try {
      const admin = await seedSignedIn(app, { role: 'ADMIN', unit: 'DF' });
      const auditor = await seedUser(app, { role: 'auditor', unit: 'DF' });
      await app.inject({ method: 'POST', url: `/api/User/reset/${auditor.cpf}` });
      const token = (await lastMailTo(app, auditor.email))?.link?.token;
      expect(token).toBeTruthy();
      live = { cpf: auditor.cpf, token: token!, auth: admin.auth };
    } finally {
      await app.close();
      await database.close();
    }
  }, SLOW);
  afterAll(() => {
    for (const dir of [dataDir, work]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'a backup holds no usable password link nor session: restored, the link sets no password',
    async () => {
      const made = await backupToFile(config, backupFile);
      expect(made.manifest.scrubbed).toMatchObject({ mailLinks: 1, passwordLinks: 1 });
      expect(made.manifest.scrubbed?.sessions).toBeGreaterThanOrEqual(1);
      // Restored into a folder of its own, as someone holding the backup (and its key) would.
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-elsewhere-'));
      const there = {
        ...config,
        dataDir: elsewhere,
        fileStorage: { kind: 'disk' as const, root: path.join(elsewhere, 'files') },
      };
      try {
        await restoreFromFile(there, backupFile);
        const database = await openDatabase({
          kind: 'pglite',
          dataDir: path.join(elsewhere, 'pgdata'),
        });
        const app = await buildApp({ config: there, database, logger: false });
        await app.ready();
        try {
          const [message] = await selectRows<{ link: string | null; text: string }>(
            database.db,
            sql`select link, text from mail_outbox where text like '%{{link}}%'`,
          );
          expect(message?.link).toBeNull();
          expect(
            JSON.stringify(await selectRows(database.db, sql`select * from mail_outbox`)),
          ).not.toContain(live.token);
          const used = await app.inject({
            method: 'PATCH',
            url: '/api/User/password',
            payload: { cpf: live.cpf, token: live.token, password: 'Nova#Senha-da-Copia-2026' },
          });
          expect(used.statusCode, used.body).toBeGreaterThanOrEqual(400);
          const [row] = await selectRows<{ hash: string | null }>(
            database.db,
            sql`select password_hash as hash from users where cpf = ${live.cpf}`,
          );
          expect(row?.hash).not.toBeNull();
          const signedIn = await app.inject({
            method: 'GET',
            url: '/api/Auth/me',
            headers: live.auth,
          });
          expect(signedIn.statusCode).toBe(401);
          const open = await selectRows(
            database.db,
            sql`select 1 from sessions where revoked_at is null
                union all select 1 from trusted_devices
                union all select 1 from password_links where used_at is null and voided_at is null`,
          );
          expect(open).toEqual([]);
        } finally {
          await app.close();
          await database.close();
        }
      } finally {
        fs.rmSync(elsewhere, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it(
    'without BACKUP_KEY no backup is written, by the function or the command',
    async () => {
      const target = path.join(work, 'sem-chave.backup');
      const refused = backupToFile({ ...config, backupKey: undefined }, target);
      await expect(refused).rejects.toMatchObject({
        code: 'BACKUP_KEY_MISSING',
        message: expect.stringMatching(/Defina BACKUP_KEY \(ou use --key-file <arquivo>\)/),
      });
      const cli = run(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/cli/backup.ts', '--out', target],
        {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: dataDir,
            FILE_ENCRYPTION_KEY: key.toString('base64'),
            LOG_LEVEL: 'silent',
          },
        },
      );
      await expect(cli).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('Defina BACKUP_KEY'),
      });
      expect(fs.readdirSync(work).filter((name) => name.startsWith('sem-chave'))).toEqual([]);
    },
    SLOW,
  );
});
