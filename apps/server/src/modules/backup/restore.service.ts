/**
 * `npm run restore` of a backup made by `npm run backup` (backup.service.ts):
 * refused while a server (or another backup or restore) holds the folder,
 * over existing data without `--force`, and without the key that opens the
 * file (checked first, on the header alone: a missing key, a wrong key, a
 * file altered or not a backup are each told in their own words, with a
 * stable code). Everything is written and checked in a folder beside the
 * data first (each chunk authenticated, entries' SHA-256, the database opened
 * and every table's rows and digest compared), then swapped in by renaming;
 * the data it replaces is removed only once the swap is done.
 *
 * The sessions, password links and trusted devices of a backup were
 * neutralised when it was made: after a restore everyone signs in again.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AppConfig } from '../../config/env';
import { acquireDataDir, DataDirBusyError, lockHolder } from '../../lib/data-dir-lock';
import { existingFileKey, keyOfStoredName } from '../../lib/file-storage';
import {
  DATABASE_ENTRY,
  embeddedOnly,
  keyFingerprint,
  pgdataOf,
  type BackupKeyOption,
} from './backup.service';
import { checkBackupKey, openBackupFile } from './backup-crypto';
import {
  BackupError,
  CORRUPTED,
  readBackup,
  type BackupManifest,
  type TableDigest,
} from './backup-format';
import { tableDigests } from './backup.repository';
import { openDatabase } from '../../db/client';

export { BackupError };

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
      if (!dump) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
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
      throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
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
  options: { force?: boolean } & BackupKeyOption = {},
): Promise<RestoreResult> {
  embeddedOnly(config);
  if (!fs.existsSync(file)) throw new BackupError(`Arquivo não encontrado: ${file}`);
  // What the restore needs (the key that opens this file) is said before anything else.
  const key = options.key ?? config.backupKey;
  await checkBackupKey(file, key);
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
    const { dump, manifest, files } = await unpack(openBackupFile(file, key), stagingFiles);

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
      throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
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
