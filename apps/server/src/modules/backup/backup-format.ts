/**
 * The content of a backup of the embedded installation (sealed, as a whole,
 * with the operator's key: backup-crypto.ts): one gzip stream holding
 *
 *   "EXAMEBK1"
 *   entry*       kind (1 byte: D database, F stored file, M manifest)
 *                | name length (u16) | name (UTF-8) | size (u64) | bytes
 *
 * in this order: the database's data folder (a tar of PGlite's PGDATA), then
 * each stored file as it is on disk (sealed: the backup never holds an image
 * in the clear, nor the key), then the manifest (JSON): every entry with its
 * size and SHA-256, the row count and content digest of every table, and a
 * fingerprint of the encryption key the files were sealed with, and what
 * was neutralised in the copy (backup-scrub.repository.ts).
 *
 * Reading checks everything before anything is used: gzip's CRC, the magic,
 * each entry against the manifest, nothing missing or extra. A damaged or
 * truncated file fails with BackupError (a pt-BR message for the operator).
 */
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import zlib from 'node:zlib';

const MAGIC = Buffer.from('EXAMEBK1', 'latin1');
export const BACKUP_FORMAT = 1;

export type EntryKind = 'database' | 'file' | 'manifest';
const KIND_BYTE: Record<EntryKind, number> = { database: 0x44, file: 0x46, manifest: 0x4d };
const KIND_OF = new Map(Object.entries(KIND_BYTE).map(([kind, byte]) => [byte, kind as EntryKind]));

/** Rows and a digest of the content of one table (independent of row order). */
export type TableDigest = { rows: number; digest: string };

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  /** HMAC of a constant with the file encryption key: tells the key, never gives it. */
  keyFingerprint: string;
  /** Where the files were: in the backup (disk), or left to the object storage's own copies. */
  files: 'included' | 'object-storage';
  tables: Record<string, TableDigest>;
  /** Credentials neutralised in the copy, by kind (sessions, links...); absent before they were. */
  scrubbed?: Record<string, number>;
  entries: Array<{ kind: EntryKind; name: string; size: number; sha256: string }>;
};

export type BackupErrorCode =
  | 'BACKUP_FAILED'
  | 'BACKUP_CORRUPTED'
  | 'BACKUP_FORMAT_UNKNOWN'
  | 'BACKUP_KEY_MISSING'
  | 'BACKUP_KEY_WRONG'
  | 'BACKUP_NOT_A_BACKUP'
  | 'BACKUP_TAMPERED'
  | 'BACKUP_UNENCRYPTED';

/** What an operator reads when a backup cannot be made or used, with a stable code. */
export class BackupError extends Error {
  override name = 'BackupError';
  readonly code: BackupErrorCode;
  constructor(message: string, code: BackupErrorCode = 'BACKUP_FAILED') {
    super(message);
    this.code = code;
  }
}

export const CORRUPTED =
  'A cópia de segurança está corrompida ou incompleta e não foi usada; nada foi alterado.';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Writes a backup, entry by entry, into `out` (gzip). */
export function backupWriter(out: Writable) {
  const gzip = zlib.createGzip({ level: 6 });
  const done = pipeline(gzip, out);
  const entries: BackupManifest['entries'] = [];
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      gzip.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
  const entry = async (kind: EntryKind, name: string, bytes: Uint8Array) => {
    const nameBytes = Buffer.from(name, 'utf8');
    const head = Buffer.alloc(1 + 2 + nameBytes.length + 8);
    head.writeUInt8(KIND_BYTE[kind], 0);
    head.writeUInt16BE(nameBytes.length, 1);
    nameBytes.copy(head, 3);
    head.writeBigUInt64BE(BigInt(bytes.length), 3 + nameBytes.length);
    await write(head);
    await write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
  let started = false;
  const start = async () => {
    if (!started) {
      started = true;
      await write(MAGIC);
    }
  };
  return {
    async add(kind: Exclude<EntryKind, 'manifest'>, name: string, bytes: Uint8Array) {
      await start();
      await entry(kind, name, bytes);
      entries.push({ kind, name, size: bytes.length, sha256: sha256(bytes) });
    },
    /** Writes the manifest (the entries are filled in) and ends the stream. */
    async finish(manifest: Omit<BackupManifest, 'entries'>) {
      await start();
      const full: BackupManifest = { ...manifest, entries };
      await entry('manifest', 'manifest.json', Buffer.from(JSON.stringify(full), 'utf8'));
      gzip.end();
      await done;
      return full;
    },
    /** Gives up: the output is left incomplete (the caller removes it). */
    abort(error: Error) {
      gzip.destroy(error);
    },
  };
}

/** Exactly `n` bytes at a time out of a stream of chunks. */
function byteReader(source: AsyncIterable<Buffer>) {
  const iterator = source[Symbol.asyncIterator]();
  let buffered: Buffer[] = [];
  let length = 0;
  let ended = false;
  const fill = async (n: number) => {
    while (length < n && !ended) {
      const next = await iterator.next();
      if (next.done) ended = true;
      else {
        buffered.push(next.value);
        length += next.value.length;
      }
    }
  };
  return {
    /** `n` bytes, or null at the clean end of the stream (nothing left at all). */
    async read(n: number): Promise<Buffer | null> {
      await fill(n);
      if (length === 0 && ended) return null;
      if (length < n) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      const all = buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered);
      const out = all.subarray(0, n);
      const rest = all.subarray(n);
      buffered = rest.length > 0 ? [rest] : [];
      length = rest.length;
      return Buffer.from(out);
    },
  };
}

export type BackupEntry = { kind: EntryKind; name: string; bytes: Buffer };

/**
 * The entries of a backup, in order, the manifest last and checked against
 * every entry read before it. Throws BackupError when the file is not a
 * backup, is damaged or is incomplete.
 */
export async function* readBackup(input: Readable): AsyncGenerator<BackupEntry, BackupManifest> {
  const gunzip = zlib.createGunzip();
  const stream = new PassThrough();
  const piping = pipeline(input, gunzip, stream).catch((error: unknown) => {
    stream.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const reader = byteReader(stream as AsyncIterable<Buffer>);
  const seen: BackupManifest['entries'] = [];
  let complete = false;
  try {
    const magic = await reader.read(MAGIC.length);
    if (!magic?.equals(MAGIC)) {
      throw new BackupError(
        'O arquivo não é uma cópia de segurança do Exame Teórico.',
        'BACKUP_NOT_A_BACKUP',
      );
    }
    for (;;) {
      const head = await reader.read(3);
      if (!head) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      const kind = KIND_OF.get(head.readUInt8(0));
      if (!kind) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      const name = (await reader.read(head.readUInt16BE(1)))?.toString('utf8');
      const sizeBytes = await reader.read(8);
      if (name === undefined || !sizeBytes) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      const size = sizeBytes.readBigUInt64BE(0);
      if (size > BigInt(Number.MAX_SAFE_INTEGER))
        throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      const bytes = (await reader.read(Number(size))) ?? Buffer.alloc(0);
      if (kind !== 'manifest') {
        seen.push({ kind, name, size: bytes.length, sha256: sha256(bytes) });
        yield { kind, name, bytes };
        continue;
      }
      let manifest: BackupManifest;
      try {
        manifest = JSON.parse(bytes.toString('utf8')) as BackupManifest;
      } catch {
        throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      }
      if (manifest.format !== BACKUP_FORMAT) {
        throw new BackupError(
          `Formato de cópia de segurança desconhecido (${String(manifest.format)}); use a versão do Exame Teórico que a fez.`,
          'BACKUP_FORMAT_UNKNOWN',
        );
      }
      if (JSON.stringify(manifest.entries) !== JSON.stringify(seen)) {
        throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      }
      if ((await reader.read(1)) !== null) throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
      complete = true;
      return manifest;
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    // zlib: a damaged or truncated stream (CRC, length, invalid data).
    throw new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');
  } finally {
    // Left early (an error, or the reader stopped): the file is let go.
    if (!complete) {
      input.destroy();
      stream.destroy();
    }
    await piping;
  }
}

/** Reads a whole backup (decrypted: backup-crypto.ts) through, checking it; the manifest. */
export async function verifyBackup(input: Readable): Promise<BackupManifest> {
  const entries = readBackup(input);
  for (;;) {
    const next = await entries.next();
    if (next.done) return next.value;
  }
}
