/**
 * `npm run backup` and `npm run restore` for the embedded installation: seed
 * users, exams and photos into PGlite on disk, back up, wipe, restore, and
 * the row count and content digest of every table and the bytes of every
 * stored file are the same, but for the credentials the backup neutralises
 * (backup-credentials.test.ts). The file is sealed with BACKUP_KEY; a
 * restore without it, with another, of an altered, truncated, older or
 * foreign file is refused with a pt-BR message and a code, and nothing
 * changes; so is a restore over a running server, over existing data without
 * --force, or with another file key. With the server running, the backup is
 * made by the server. (Backups exist for the embedded database only: with
 * TEST_DATABASE_URL this file runs on PGlite all the same.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createApiKeyFor, examPayload, sampleJpeg } from '../../../test/exams';
import { testConfig } from '../../../test/helper';
import { lastMailTo, seedSignedIn, seedUser } from '../../../test/identity';
import type { AppConfig } from '../../config/env';
import { acquireDataDir } from '../../lib/data-dir-lock';
import { BackupError, backupToFile } from './backup.service';
import { SCRUBBED_TABLES } from './backup-scrub.repository';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { selectRows } from '../../db/select-rows';
import { restoreFromFile } from './restore.service';
import { ensureReferenceData } from '../../db/seed/reference-data';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');

type Snapshot = {
  tables: Record<string, { rows: number; digest: string }>;
  files: Record<string, string>;
};

/** Every table's rows and content (order-free), and every stored file's hash. */
async function snapshot(database: DatabaseHandle, filesRoot: string): Promise<Snapshot> {
  const tables: Snapshot['tables'] = {};
  const names = await selectRows<{ schema: string; name: string }>(
    database.db,
    sql`select schemaname as schema, tablename as name from pg_tables
         where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  for (const { schema, name } of names) {
    const [row] = await selectRows<{ rows: number; digest: string }>(
      database.db,
      sql`select count(*)::int as rows,
                 md5(coalesce(string_agg(md5(t::text), ',' order by md5(t::text)), '')) as digest
            from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
    );
    tables[`${schema}.${name}`] = row!;
  }
  const files: Snapshot['files'] = {};
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        files[path.relative(filesRoot, full)] = createHash('sha256')
          .update(fs.readFileSync(full))
          .digest('hex');
    }
  };
  walk(filesRoot);
  return { tables, files };
}

/** The tables as they must come back: every one but those whose credentials a backup neutralises. */
function withoutScrubbed(state: Snapshot): Snapshot {
  const tables = Object.fromEntries(
    Object.entries(state.tables).filter(
      ([name]) => !(SCRUBBED_TABLES as readonly string[]).includes(name),
    ),
  );
  return { ...state, tables };
}

/** Each test opens, dumps and loads whole databases (PGlite on disk): minutes on a busy machine. */
const SLOW = 180_000;

describe('backup and restore of the embedded installation', () => {
  const key = randomBytes(32);
  const backupKey = 'chave-das-copias-de-seguranca-2026';
  let dataDir: string;
  let work: string;
  let config: AppConfig;
  let backupFile: string;
  let before: Snapshot;
  let photo: { key: string; bytes: Buffer };

  const pgdata = () => path.join(dataDir, 'pgdata');
  const filesRoot = () => path.join(dataDir, 'files');
  const openApp = async (): Promise<{ app: FastifyInstance; database: DatabaseHandle }> => {
    const database = await openDatabase({ kind: 'pglite', dataDir: pgdata() });
    await database.migrate();
    await ensureReferenceData(database.db);
    const app = await buildApp({ config, database, logger: false });
    await app.ready();
    return { app, database };
  };
  const close = async (opened: { app: FastifyInstance; database: DatabaseHandle }) => {
    await opened.app.close();
    await opened.database.close();
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-data-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-work-'));
    config = testConfig({
      dataDir,
      fileEncryptionKey: key,
      backupKey,
      fileStorage: { kind: 'disk', root: path.join(dataDir, 'files') },
    });
    backupFile = path.join(work, 'exame.backup');

    // Users, exams, photos: the installation as it is used.
    const opened = await openApp();
    const admin = await seedSignedIn(opened.app, { role: 'ADMIN', unit: 'DF' });
    const auditor = await seedUser(opened.app, { role: 'auditor', unit: 'DF' });
    // Without SMTP the reset link waits in the outbox (see backup-credentials.test.ts).
    await opened.app.inject({ method: 'POST', url: `/api/User/reset/${auditor.cpf}` });
    expect((await lastMailTo(opened.app, auditor.email))?.link?.token).toBeTruthy();
    await seedUser(opened.app, { role: 'VIEWER', unit: 'SP' });
    const apiKey = (await createApiKeyFor(opened.app, admin.auth)).key;
    const exams = [examPayload(), examPayload(), examPayload()];
    await opened.app.inject({
      method: 'POST',
      url: '/api/Integration/exams',
      headers: { 'x-api-key': apiKey },
      payload: { exams },
    });
    for (const [index, exam] of exams.entries()) {
      const uploaded = await opened.app.inject({
        method: 'POST',
        url: `/api/Integration/exams/${exam.schedulingId}/photos`,
        headers: { 'x-api-key': apiKey },
        payload: {
          image: (await sampleJpeg(240, 40 + index)).toString('base64'),
          capturedAt: '2026-11-20T10:05:00-03:00',
        },
      });
      expect(uploaded.statusCode).toBe(200);
    }
    const [stored] = await selectRows<{ key: string }>(
      opened.database.db,
      sql`select storage_key as key from exam_photos order by storage_key limit 1`,
    );
    photo = { key: stored!.key, bytes: await opened.app.files.read(stored!.key) };
    before = await snapshot(opened.database, filesRoot());
    await close(opened);
    expect(before.tables['public.users']!.rows).toBeGreaterThanOrEqual(3);
    expect(before.tables['public.exams']!.rows).toBe(3);
    expect(before.tables['public.exam_photos']!.rows).toBe(3);
    expect(Object.keys(before.files)).toHaveLength(3);
  }, SLOW);
  afterAll(() => {
    for (const dir of [dataDir, work]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'backup, wipe, restore: every table and every file as they were',
    async () => {
      const made = await backupToFile(config, backupFile);
      expect(made.via).toBe('files');
      expect(made.manifest.files).toBe('included');
      expect(made.manifest.entries.filter((entry) => entry.kind === 'file')).toHaveLength(3);
      expect(made.manifest.scrubbed).toMatchObject({ mailLinks: 1, passwordLinks: 1 });
      expect(made.manifest.scrubbed?.sessions).toBeGreaterThanOrEqual(1);
      // Neither key is in the backup; the file is sealed (not the gzip of the content).
      const written = fs.readFileSync(backupFile);
      expect(written.includes(key)).toBe(false);
      expect(written.includes(Buffer.from(backupKey))).toBe(false);
      expect(written.subarray(0, 8).toString('latin1')).toBe('EXAMEBKE');

      fs.rmSync(pgdata(), { recursive: true });
      fs.rmSync(filesRoot(), { recursive: true });
      const restored = await restoreFromFile(config, backupFile);
      expect(restored).toMatchObject({ files: 3, replaced: false });
      expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('.restore-'))).toEqual([]);

      const opened = await openApp();
      try {
        expect(withoutScrubbed(await snapshot(opened.database, filesRoot()))).toEqual(
          withoutScrubbed(before),
        );
        // The files open with the key in place: the same photo as before.
        expect(await opened.app.files.read(photo.key)).toEqual(photo.bytes);
      } finally {
        await close(opened);
      }
    },
    SLOW,
  );

  it(
    'no key, another key, an altered, truncated, older or foreign file: refused with a clear message; nothing changes',
    async () => {
      if (!fs.existsSync(backupFile)) await backupToFile(config, backupFile);
      const good = fs.readFileSync(backupFile);
      const damaged = Buffer.from(good);
      damaged[Math.floor(damaged.length / 2)]! ^= 0xff;
      const noKey = { ...config, backupKey: undefined };
      const otherKey = { ...config, backupKey: 'outra-chave-de-copias-2026' };
      const cases: Array<[string, Buffer, string, RegExp, AppConfig?]> = [
        ['no-key.backup', good, 'BACKUP_KEY_MISSING', /Falta a chave.*BACKUP_KEY/, noKey],
        ['other-key.backup', good, 'BACKUP_KEY_WRONG', /A chave informada não abre/, otherKey],
        ['damaged.backup', damaged, 'BACKUP_TAMPERED', /foi alterada ou danificada/],
        [
          'truncated.backup',
          good.subarray(0, Math.floor(good.length * 0.7)),
          'BACKUP_CORRUPTED',
          /corrompida ou incompleta/,
        ],
        [
          'older.backup',
          zlib.gzipSync(Buffer.from('EXAMEBK1 de uma versão anterior')),
          'BACKUP_UNENCRYPTED',
          /sem criptografia por uma versão anterior/,
        ],
        [
          'foreign.backup',
          Buffer.from('não sou uma cópia de segurança'),
          'BACKUP_NOT_A_BACKUP',
          /não é uma cópia/,
        ],
      ];
      const state = await (async () => {
        const opened = await openApp();
        try {
          return await snapshot(opened.database, filesRoot());
        } finally {
          await close(opened);
        }
      })();
      for (const [name, bytes, code, message, as = config] of cases) {
        const file = path.join(work, name);
        fs.writeFileSync(file, bytes);
        const refused = restoreFromFile(as, file, { force: true });
        await expect(refused, name).rejects.toBeInstanceOf(BackupError);
        await expect(refused, name).rejects.toThrow(message);
        await expect(refused, name).rejects.toMatchObject({ code });
      }
      expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('.restore-'))).toEqual([]);
      const opened = await openApp();
      try {
        expect(await snapshot(opened.database, filesRoot())).toEqual(state);
      } finally {
        await close(opened);
      }

      // The command itself: exit code 1 and the message, in Portuguese.
      const cli = run(
        process.execPath,
        [
          '--import',
          'tsx',
          'apps/server/src/cli/restore.ts',
          path.join(work, 'damaged.backup'),
          '--force',
        ],
        {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: dataDir,
            FILE_ENCRYPTION_KEY: key.toString('base64'),
            BACKUP_KEY: backupKey,
            LOG_LEVEL: 'silent',
          },
        },
      );
      await expect(cli).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(
          'A cópia de segurança foi alterada ou danificada depois de gravada',
        ),
      });
      await expect(cli).rejects.toMatchObject({
        stderr: expect.stringContaining('(BACKUP_TAMPERED)'),
      });
    },
    SLOW,
  );

  it(
    'refuses a running server, existing data without --force, and another key',
    async () => {
      if (!fs.existsSync(backupFile)) await backupToFile(config, backupFile);
      await expect(restoreFromFile(config, backupFile)).rejects.toThrow(
        /já tem um banco ou arquivos.*--force/,
      );
      const server = acquireDataDir(dataDir, 'server', 3999);
      try {
        await expect(restoreFromFile(config, backupFile, { force: true })).rejects.toThrow(
          /Um servidor \(processo \d+, porta 3999\) está usando esta pasta de dados\. Pare-o antes de restaurar/,
        );
      } finally {
        server.release();
      }
      const otherKey = { ...config, fileEncryptionKey: randomBytes(32) };
      await expect(restoreFromFile(otherKey, backupFile, { force: true })).rejects.toThrow(
        /chave de criptografia configurada não é a que cifrou esta cópia/,
      );
      // With --force and the right key, the copy replaces what is there.
      const replaced = await restoreFromFile(config, backupFile, { force: true });
      expect(replaced.replaced).toBe(true);
      const opened = await openApp();
      try {
        expect(withoutScrubbed(await snapshot(opened.database, filesRoot()))).toEqual(
          withoutScrubbed(before),
        );
      } finally {
        await close(opened);
      }
    },
    SLOW,
  );

  it(
    'with the server running, the server makes the backup',
    async () => {
      const opened = await openApp();
      const address = await opened.app.listen({ host: '127.0.0.1', port: 0 });
      const lock = acquireDataDir(dataDir, 'server', Number(new URL(address).port));
      try {
        const made = await backupToFile(config, path.join(work, 'live.backup'));
        expect(made.via).toBe('server');
        const live = await snapshot(opened.database, filesRoot());
        expect(made.manifest.tables['public.exams']!.rows).toBe(live.tables['public.exams']!.rows);
        expect(made.manifest.tables['public.users']!.rows).toBe(live.tables['public.users']!.rows);
        expect(made.manifest.entries.filter((entry) => entry.kind === 'file')).toHaveLength(3);
      } finally {
        lock.release();
        await close(opened);
      }
      // The server's backup restores like any other.
      const restored = await restoreFromFile(config, path.join(work, 'live.backup'), {
        force: true,
      });
      expect(restored.files).toBe(3);
    },
    SLOW,
  );
});
