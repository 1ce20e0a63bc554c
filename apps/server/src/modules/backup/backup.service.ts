/**
 * `npm run backup` for the embedded installation: the PGlite database and the
 * stored files of DATA_DIR/files in one file (backup-format.ts), encrypted
 * as a whole with the operator's key (BACKUP_KEY or `--key-file`,
 * backup-crypto.ts): without it no backup is written. The restore is
 * restore.service.ts.
 *
 * Never a key in it: the backup key stays with the operator, the files' key
 * where it is (FILE_ENCRYPTION_KEY, or DATA_DIR/secrets/file-encryption.key),
 * both apart from the backups. Never a usable credential either: the copy's
 * sessions, links, trusted devices and challenges are neutralised
 * (backup-scrub.repository.ts).
 *
 * With the server running, the server makes the copy (GET /internal/backup,
 * operator token over loopback), because only one process may open PGlite's
 * files, and this process encrypts what it sends; with the server stopped,
 * this process opens them. The database is copied between statements after
 * a checkpoint, opened in memory to neutralise its credentials and record
 * every table's rows and digest, and dumped again; then the files: a file
 * deleted in between (a retention purge) is missing from the copy, a file
 * written in between is an orphan of it; both are harmless (the first is
 * data already due for deletion, the second is swept). The whole file is
 * read back, decrypted and checked before it gets its final name.
 *
 * With DATABASE_URL (PostgreSQL) this does not apply: PostgreSQL has its own
 * backups (pg_dump, or the provider's), and object storage its own versions.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppConfig } from '../../config/env';
import { acquireDataDir, DataDirBusyError, lockHolder } from '../../lib/data-dir-lock';
import {
  createDiskStore,
  existingFileKey,
  storedName,
  type FileStore,
} from '../../lib/file-storage';
import { OPERATOR_TOKEN_HEADER, operatorTokenFile } from '../../lib/operator-token';
import { encryptBackup, openBackupFile } from './backup-crypto';
import {
  BackupError,
  backupWriter,
  verifyBackup,
  type BackupManifest,
  type TableDigest,
} from './backup-format';
import { scrubCredentials, type ScrubCounts } from './backup-scrub.repository';
import { tableDigests } from './backup.repository';
import { openDatabase, type DatabaseHandle } from '../../db/client';

export { BackupError, type BackupManifest };

export const DATABASE_ENTRY = 'pgdata.tar';

/** Names the key without giving it away (HMAC of a constant). */
export function keyFingerprint(key: Buffer | undefined): string {
  if (!key) return '';
  return createHmac('sha256', key).update('exame-backup-key-check').digest('hex').slice(0, 24);
}

/**
 * The copy as it goes into the backup: the data folder opened in memory, its
 * credentials neutralised, every table's rows and digest, dumped again.
 */
async function scrubbedCopy(dump: Uint8Array): Promise<{
  dump: Uint8Array;
  tables: Record<string, TableDigest>;
  scrubbed: ScrubCounts;
}> {
  const copy = await openDatabase({ kind: 'pglite', dataDir: 'memory', loadDataDir: dump });
  try {
    const scrubbed = await scrubCredentials(copy.db, new Date());
    const tables = await tableDigests(copy.db);
    if (!copy.dumpDataDir) throw new Error('PGlite without dumpDataDir');
    return { dump: await copy.dumpDataDir(), tables, scrubbed };
  } finally {
    await copy.close();
  }
}

export type BackupSource = {
  database: Pick<DatabaseHandle, 'dumpDataDir'>;
  /** The files' store; null when they are in object storage (which keeps its own copies). */
  files: FileStore | null;
  key: Buffer | undefined;
};

/** Writes a backup of `source` into `out`; the manifest. */
export async function writeBackup(source: BackupSource, out: Writable): Promise<BackupManifest> {
  if (!source.database.dumpDataDir) {
    throw new BackupError('Só o banco embutido (PGlite) tem cópia de segurança por este comando.');
  }
  const writer = backupWriter(out);
  try {
    const { dump, tables, scrubbed } = await scrubbedCopy(await source.database.dumpDataDir());
    await writer.add('database', DATABASE_ENTRY, dump);
    if (source.files) {
      for (const { key } of await source.files.list()) {
        const sealed = await source.files.read(key);
        // Deleted since the list was read: not part of the copy.
        if (sealed) await writer.add('file', storedName(key), sealed);
      }
    }
    return await writer.finish({
      format: 1,
      createdAt: new Date().toISOString(),
      keyFingerprint: keyFingerprint(source.key),
      files: source.files ? 'included' : 'object-storage',
      tables,
      scrubbed,
    });
  } catch (error) {
    writer.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

export function embeddedOnly(config: AppConfig): void {
  if (config.databaseUrl) {
    throw new BackupError(
      'Com DATABASE_URL o banco é um PostgreSQL: use as cópias do próprio PostgreSQL (pg_dump, ou as do provedor). Este comando copia o banco embutido.',
    );
  }
}

export const pgdataOf = (config: AppConfig) => path.join(config.dataDir, 'pgdata');
const filesStoreOf = (config: AppConfig) =>
  config.fileStorage.kind === 'disk' ? createDiskStore(config.fileStorage.root) : null;

async function fromRunningServer(config: AppConfig, port: number, into: Writable): Promise<void> {
  const token = fs.readFileSync(operatorTokenFile(config.dataDir), 'utf8').trim();
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}/internal/backup`, {
      headers: { [OPERATOR_TOKEN_HEADER]: token },
    });
  } catch {
    throw new BackupError(
      `O servidor que usa esta pasta de dados (porta ${port}) não respondeu; tente de novo, ou pare-o e rode o comando outra vez.`,
    );
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { Error?: string };
    throw new BackupError(body.Error ?? `O servidor respondeu ${response.status}.`);
  }
  await pipeline(Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]), into);
}

/** Without the operator's key no backup is written: it would hold the data in the clear. */
function requireKey(key: string | undefined): string {
  if (key) return key;
  throw new BackupError(
    'Defina BACKUP_KEY (ou use --key-file <arquivo>) com a chave que cifra a cópia de segurança, ao menos 16 caracteres (ex.: openssl rand -base64 32). Guarde-a longe das cópias: sem ela, nenhuma cópia pode ser restaurada.',
    'BACKUP_KEY_MISSING',
  );
}

export type BackupKeyOption = {
  /** The operator's key (`--key-file`); BACKUP_KEY of the configuration otherwise. */
  key?: string;
};

export type BackupResult = {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  via: 'server' | 'files';
};

/**
 * `npm run backup`: writes the backup to `outFile` (through a temporary
 * name), reads it back to check it, and only then gives it its name.
 */
export async function backupToFile(
  config: AppConfig,
  outFile: string,
  options: BackupKeyOption = {},
): Promise<BackupResult> {
  embeddedOnly(config);
  const key = requireKey(options.key ?? config.backupKey);
  const target = path.resolve(outFile);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${randomBytes(4).toString('hex')}.partial`;
  let via: BackupResult['via'] = 'files';
  // What is written goes through the encryption into the file: nothing lands in the clear.
  const encrypted = encryptBackup(key);
  const written = pipeline(encrypted, fs.createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => undefined);
  try {
    const holder = lockHolder(config.dataDir);
    if (holder?.role === 'server' && holder.port) {
      via = 'server';
      await fromRunningServer(config, holder.port, encrypted);
    } else {
      if (holder) throw new BackupError(new DataDirBusyError(holder).message);
      if (!fs.existsSync(path.join(pgdataOf(config), 'PG_VERSION'))) {
        throw new BackupError(`Não há banco embutido em ${pgdataOf(config)}.`);
      }
      const lock = acquireDataDir(config.dataDir, 'backup');
      let database: DatabaseHandle | undefined;
      try {
        database = await openDatabase({ kind: 'pglite', dataDir: pgdataOf(config) });
        await writeBackup(
          {
            database,
            files: filesStoreOf(config),
            key: existingFileKey(config.dataDir, config.fileEncryptionKey),
          },
          encrypted,
        );
      } finally {
        await database?.close();
        lock.release();
      }
    }
    await written;
    const manifest = await verifyBackup(openBackupFile(partial, key));
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, manifest, via };
  } catch (error) {
    encrypted.destroy();
    await written.catch(() => undefined);
    fs.rmSync(partial, { force: true });
    if (error instanceof DataDirBusyError) throw new BackupError(error.message);
    throw error;
  }
}
