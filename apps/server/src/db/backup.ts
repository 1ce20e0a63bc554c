/**
 * Backups of the embedded installation (`npm run backup`, `npm run restore`):
 * the PGlite database and the stored files of DATA_DIR/files, in one file
 * (db/backup-format.ts). Never the encryption key: it stays where it is
 * (FILE_ENCRYPTION_KEY, or DATA_DIR/secrets/file-encryption.key) and must be
 * kept apart from the backups; a restore checks that the key in place is the
 * one the files were sealed with.
 *
 * Backup: with the server running, the server makes it (GET /internal/backup,
 * operator token over loopback), because only one process may open PGlite's
 * files; with the server stopped, this process opens them. The database is
 * copied between statements after a checkpoint, then the files: a file
 * deleted in between (a retention purge) is missing from the copy, a file
 * written in between is an orphan of it; both are harmless (the first is
 * data already due for deletion, the second is swept). The copy is opened
 * once in memory to record every table's rows and digest, and the whole file
 * is read back and checked before it gets its final name.
 *
 * Restore: refused while a server (or another backup or restore) holds the
 * folder, and over existing data without `--force`. Everything is written
 * and checked in a folder beside the data first (entries' SHA-256, the
 * database opened and every table's rows and digest compared), then swapped
 * in by renaming; the data it replaces is removed only once the swap is done.
 *
 * With DATABASE_URL (PostgreSQL) neither applies: PostgreSQL has its own
 * backups (pg_dump, or the provider's), and object storage its own versions.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppConfig } from '../config/env';
import { acquireDataDir, DataDirBusyError, lockHolder } from '../lib/data-dir-lock';
import {
  createDiskStore,
  existingFileKey,
  keyOfStoredName,
  storedName,
  type FileStore,
} from '../lib/file-storage';
import { OPERATOR_TOKEN_HEADER, operatorTokenFile } from '../lib/operator-token';
import {
  BackupError,
  backupWriter,
  CORRUPTED,
  readBackup,
  verifyBackupFile,
  type BackupManifest,
  type TableDigest,
} from './backup-format';
import { tableDigests } from './backup.repository';
import { openDatabase, type DatabaseHandle } from './client';

export { BackupError, type BackupManifest };

const DATABASE_ENTRY = 'pgdata.tar';

/** Names the key without giving it away (HMAC of a constant). */
export function keyFingerprint(key: Buffer | undefined): string {
  if (!key) return '';
  return createHmac('sha256', key).update('exame-backup-key-check').digest('hex').slice(0, 24);
}

/** Every table's rows and digest in a copy of the data folder, opened in memory. */
async function digestsOfCopy(dump: Uint8Array): Promise<Record<string, TableDigest>> {
  const copy = await openDatabase({ kind: 'pglite', dataDir: 'memory', loadDataDir: dump });
  try {
    return await tableDigests(copy.db);
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
    const dump = await source.database.dumpDataDir();
    const tables = await digestsOfCopy(dump);
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
    });
  } catch (error) {
    writer.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

function embeddedOnly(config: AppConfig): void {
  if (config.databaseUrl) {
    throw new BackupError(
      'Com DATABASE_URL o banco é um PostgreSQL: use as cópias do próprio PostgreSQL (pg_dump, ou as do provedor). Este comando copia o banco embutido.',
    );
  }
}

const pgdataOf = (config: AppConfig) => path.join(config.dataDir, 'pgdata');
const filesStoreOf = (config: AppConfig) =>
  config.fileStorage.kind === 'disk' ? createDiskStore(config.fileStorage.root) : null;

async function fromRunningServer(config: AppConfig, port: number, into: string): Promise<void> {
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
  await pipeline(
    Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]),
    fs.createWriteStream(into, { mode: 0o600 }),
  );
}

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
export async function backupToFile(config: AppConfig, outFile: string): Promise<BackupResult> {
  embeddedOnly(config);
  const target = path.resolve(outFile);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${randomBytes(4).toString('hex')}.partial`;
  let via: BackupResult['via'] = 'files';
  try {
    const holder = lockHolder(config.dataDir);
    if (holder?.role === 'server' && holder.port) {
      via = 'server';
      await fromRunningServer(config, holder.port, partial);
    } else {
      if (holder) throw new BackupError(new DataDirBusyError(holder).message);
      if (!fs.existsSync(path.join(pgdataOf(config), 'PG_VERSION'))) {
        throw new BackupError(`Não há banco embutido em ${pgdataOf(config)}.`);
      }
      const lock = acquireDataDir(config.dataDir, 'backup');
      let database: DatabaseHandle | undefined;
      try {
        database = await openDatabase({ kind: 'pglite', dataDir: pgdataOf(config) });
        const out = fs.createWriteStream(partial, { mode: 0o600 });
        await writeBackup(
          {
            database,
            files: filesStoreOf(config),
            key: existingFileKey(config.dataDir, config.fileEncryptionKey),
          },
          out,
        );
      } finally {
        await database?.close();
        lock.release();
      }
    }
    const manifest = await verifyBackupFile(partial);
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, manifest, via };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (error instanceof DataDirBusyError) throw new BackupError(error.message);
    throw error;
  }
}

/** Stored files of a files folder (any `.bin` of the layout counts). */
function hasStoredFiles(root: string): boolean {
  if (!fs.existsSync(root)) return false;
  return fs.readdirSync(root).some((shard) => {
    const dir = path.join(root, shard);
    return fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length > 0;
  });
}

function hasDatabase(pgdata: string): boolean {
  return fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0;
}

export type RestoreResult = {
  tables: number;
  rows: number;
  files: number;
  createdAt: string;
  /** The data that was there before and was replaced (with --force). */
  replaced: boolean;
};

/** Reads the backup into `staging`: the database's tar (returned) and the files. */
async function unpack(
  input: Readable,
  stagingFiles: string | null,
): Promise<{ dump: Uint8Array; manifest: BackupManifest; files: number }> {
  let dump: Uint8Array | undefined;
  let files = 0;
  const entries = readBackup(input);
  for (;;) {
    const next = await entries.next();
    if (next.done) {
      if (!dump) throw new BackupError(CORRUPTED);
      return { dump, manifest: next.value, files };
    }
    const entry = next.value;
    if (entry.kind === 'database' && entry.name === DATABASE_ENTRY && !dump) {
      dump = entry.bytes;
    } else if (entry.kind === 'file' && keyOfStoredName(entry.name)) {
      if (!stagingFiles) {
        throw new BackupError(
          'A cópia traz os arquivos que estavam no disco, e FILE_STORAGE_URL aponta um armazenamento de objetos: restaure sem FILE_STORAGE_URL e depois copie DATA_DIR/files para o bucket (mesma organização de pastas).',
        );
      }
      const file = path.join(stagingFiles, entry.name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, entry.bytes, { mode: 0o600 });
      files += 1;
    } else {
      throw new BackupError(CORRUPTED);
    }
  }
}

/** Renames `from` to `to`, moving what is at `to` into `aside` first; the undo. */
function swapIn(from: string, to: string, aside: string): () => void {
  const had = fs.existsSync(to);
  if (had) fs.renameSync(to, aside);
  try {
    if (fs.existsSync(from)) fs.renameSync(from, to);
  } catch (error) {
    if (had) fs.renameSync(aside, to);
    throw error;
  }
  return () => {
    fs.rmSync(to, { recursive: true, force: true });
    if (had) fs.renameSync(aside, to);
  };
}

/** `npm run restore -- <file> [--force]`. */
export async function restoreFromFile(
  config: AppConfig,
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  embeddedOnly(config);
  if (!fs.existsSync(file)) throw new BackupError(`Arquivo não encontrado: ${file}`);
  const holder = lockHolder(config.dataDir);
  if (holder) {
    throw new BackupError(
      `${new DataDirBusyError(holder).message} Pare-o antes de restaurar uma cópia de segurança.`,
    );
  }
  const pgdata = pgdataOf(config);
  const filesRoot = config.fileStorage.kind === 'disk' ? config.fileStorage.root : null;
  const occupied = hasDatabase(pgdata) || (filesRoot !== null && hasStoredFiles(filesRoot));
  if (occupied && !options.force) {
    throw new BackupError(
      `A pasta de dados ${config.dataDir} já tem um banco ou arquivos. Para substituí-los pela cópia, rode de novo com --force (o que está lá será apagado depois que a cópia for conferida).`,
    );
  }

  const lock = acquireDataDir(config.dataDir, 'restore');
  const staging = path.join(config.dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  try {
    fs.mkdirSync(staging, { mode: 0o700 });
    const stagingPgdata = path.join(staging, 'pgdata');
    const stagingFiles = filesRoot ? path.join(staging, 'files') : null;
    const { dump, manifest, files } = await unpack(fs.createReadStream(file), stagingFiles);

    const current = existingFileKey(config.dataDir, config.fileEncryptionKey);
    if (manifest.keyFingerprint && keyFingerprint(current) !== manifest.keyFingerprint) {
      throw new BackupError(
        current
          ? 'A chave de criptografia configurada não é a que cifrou esta cópia: fotos e modelos faciais não abririam. Restaure com a mesma chave (FILE_ENCRYPTION_KEY, ou DATA_DIR/secrets/file-encryption.key) usada quando a cópia foi feita.'
          : 'Falta a chave de criptografia que cifrou esta cópia: defina FILE_ENCRYPTION_KEY ou coloque o arquivo DATA_DIR/secrets/file-encryption.key guardado à parte, e rode de novo.',
      );
    }

    // The database is unpacked where it will live and opened once: every table as recorded.
    const restored = await openDatabase({
      kind: 'pglite',
      dataDir: stagingPgdata,
      loadDataDir: dump,
    });
    let digests: Record<string, TableDigest>;
    try {
      digests = await tableDigests(restored.db);
    } finally {
      await restored.close();
    }
    if (JSON.stringify(digests) !== JSON.stringify(manifest.tables)) {
      throw new BackupError(CORRUPTED);
    }

    // Swap: the checked copy takes the place of what was there; undone if a step fails.
    const aside = path.join(staging, 'replaced');
    fs.mkdirSync(aside);
    const undoDatabase = swapIn(stagingPgdata, pgdata, path.join(aside, 'pgdata'));
    if (filesRoot && stagingFiles) {
      try {
        if (!fs.existsSync(stagingFiles)) fs.mkdirSync(stagingFiles);
        swapIn(stagingFiles, filesRoot, path.join(aside, 'files'));
      } catch (error) {
        undoDatabase();
        throw error;
      }
    }
    const rows = Object.values(digests).reduce((sum, table) => sum + table.rows, 0);
    return {
      tables: Object.keys(digests).length,
      rows,
      files,
      createdAt: manifest.createdAt,
      replaced: occupied,
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
