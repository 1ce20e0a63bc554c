/**
 * Stored files (exam photos, face images): encrypted at rest with AES-256-GCM
 * before they leave the process, kept by a `FileStore`: DATA_DIR/files by
 * default (outside any served folder), or S3-compatible object storage
 * (FILE_STORAGE_URL, lib/object-storage.ts), both with the same layout
 * `<2 first characters>/<key>.bin`. Keys are random UUIDs made here, so a
 * stored key can never point outside the folder or the prefix. Addresses
 * handed to browsers are short-lived HMAC signatures bound to the viewing
 * user and to the route they are for.
 *
 * Every sealed value is bound to what it is (associated data): a file to its
 * key, a face template to its unit and CPF. Moving sealed bytes to another
 * place (another file, another person's row) makes them fail to open, so a
 * writer of the database or the disk cannot swap one person's data for
 * another's. Format: "EXA2" | iv (12) | tag (16) | ciphertext.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_ERRORS } from '@exame/shared';
import { AppError } from './app-error';

/**
 * A write the disk refused for want of room (ENOSPC, or the quota: EDQUOT)
 * becomes 507 STORAGE_FULL; anything else is left as it is.
 */
function storageFailure(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  const full = AppError.from(SERVER_ERRORS, 'STORAGE_FULL');
  full.cause = error;
  return full;
}

/** A temporary file of a write (`<name>.<8 hex>.tmp`), kept only while the write runs. */
const TEMPORARY_NAME = /^[0-9a-f-]{36}\.bin\.[0-9a-f]{8}\.tmp$/;

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAGIC = Buffer.from('EXA2', 'latin1');

/** What a sealed value is bound to; see the file comment. */
export type SealPurpose = `file:${string}` | `template:${string}:${string}`;
export const fileAad = (key: string): SealPurpose => `file:${key}`;
export const templateAad = (unit: string, cpf: string): SealPurpose => `template:${unit}:${cpf}`;

/**
 * What a signature is for: the image route a signed address is made for; a
 * signature for one is refused by the others.
 */
export type SignedRoute = 'face-image' | 'exam-photo' | 'check-in-face';

/** The configured key, or one generated once and kept (mode 0600) in DATA_DIR/secrets. */
/** The key in use without making one: the configured key, the kept one, or undefined. */
export function existingFileKey(
  dataDir: string,
  configured: Buffer | undefined,
): Buffer | undefined {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets', 'file-encryption.key');
  return existsSync(file) ? Buffer.from(readFileSync(file, 'utf8').trim(), 'base64') : undefined;
}

export function resolveFileKey(dataDir: string, configured: Buffer | undefined): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets', 'file-encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

/** A stored file's key and when it was last written. */
export type StoredFile = { key: string; modifiedAt: Date };

/**
 * Where the sealed bytes are kept. `read` answers null for a key that has no
 * file; a store that cannot be reached throws (the object store: AppError
 * FILE_STORAGE_UNAVAILABLE, 503).
 */
export type FileStore = {
  /** For logs and the start-up banner: the folder or the bucket and prefix. */
  readonly location: string;
  /** Whole or nothing: the file is there complete (and on disk) or not at all. */
  write: (key: string, sealed: Buffer) => Promise<void>;
  read: (key: string) => Promise<Buffer | null>;
  remove: (key: string) => Promise<void>;
  list: () => Promise<StoredFile[]>;
  /**
   * Removes temporary files older than `olderThan` that a write killed
   * half-way (the process, the machine) left behind; answers how many. Only
   * the disk store has them (an object store's PUT is whole or nothing).
   */
  removeStrayTemporaries?: (olderThan: Date) => Promise<number>;
};

/** The relative name of a key's file: `<2 first characters>/<key>.bin` (disk and object storage alike). */
export function storedName(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error('chave de arquivo inválida');
  return `${key.slice(0, 2)}/${key}.bin`;
}

/** The key a stored name stands for, or null for anything else found there. */
export function keyOfStoredName(name: string): string | null {
  const match = /^([0-9a-f]{2})\/([0-9a-f-]{36})\.bin$/.exec(name);
  if (!match?.[2] || !KEY_PATTERN.test(match[2]) || !match[2].startsWith(match[1]!)) return null;
  return match[2];
}

/**
 * Files under a folder (DATA_DIR/files), each written whole: into a
 * temporary file, flushed to the disk (fsync), then renamed to its name. A
 * failed write (the disk full: 507 STORAGE_FULL) removes its temporary file
 * and leaves nothing under the key, so the caller's transaction, rolled
 * back by the error, records nothing either.
 */
export function createDiskStore(root: string): FileStore {
  const locate = (key: string) => path.join(root, storedName(key));
  return {
    location: root,
    async write(key, sealed) {
      const file = locate(key);
      const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        const handle = await fs.open(temporary, 'wx', 0o600);
        try {
          await handle.writeFile(sealed);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true }).catch(() => undefined);
        throw storageFailure(error);
      }
    },
    async removeStrayTemporaries(olderThan) {
      let removed = 0;
      const shards = await fs.readdir(root).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await fs.readdir(path.join(root, shard)).catch(() => [] as string[]);
        for (const name of names) {
          if (!TEMPORARY_NAME.test(name)) continue;
          const target = path.join(root, shard, name);
          const stat = await fs.stat(target).catch(() => null);
          if (!stat || stat.mtime >= olderThan) continue;
          await fs.rm(target, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
    async read(key) {
      try {
        return await fs.readFile(locate(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(locate(key), { force: true });
    },
    async list() {
      const found: StoredFile[] = [];
      const shards = await fs.readdir(root).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await fs.readdir(path.join(root, shard)).catch(() => [] as string[]);
        for (const name of names) {
          const key = keyOfStoredName(`${shard}/${name}`);
          if (!key) continue;
          const stat = await fs.stat(path.join(root, shard, name)).catch(() => null);
          if (stat) found.push({ key, modifiedAt: stat.mtime });
        }
      }
      return found;
    },
  };
}

export type FileStorageOptions = { key: Buffer } & ({ root: string } | { store: FileStore });

export function createFileStorage(options: FileStorageOptions) {
  if (options.key.length !== 32)
    throw new Error('A chave de criptografia de arquivos precisa de 32 bytes.');
  const signingKey = createHmac('sha256', options.key).update('url-signing').digest();
  const store = 'store' in options ? options.store : createDiskStore(options.root);

  /** The sealed bytes of a key; a missing file is FILE_UNAVAILABLE (404). */
  const fetchSealed = async (key: string): Promise<Buffer> => {
    storedName(key);
    const stored = await store.read(key);
    if (!stored) throw AppError.of('FILE_UNAVAILABLE', 404);
    return stored;
  };

  const sign = (payload: string) =>
    createHmac('sha256', signingKey).update(payload).digest('base64url');

  const seal = (content: Buffer, purpose: SealPurpose): Buffer => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', options.key, iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const encrypted = Buffer.concat([cipher.update(content), cipher.final()]);
    return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), encrypted]);
  };
  const decrypt = (body: Buffer, aad: string | null): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', options.key, body.subarray(0, IV_BYTES));
    if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  };
  /** Throws unless the value was sealed by this key for exactly this purpose. */
  const open = (stored: Buffer, purpose: SealPurpose): Buffer => {
    if (!stored.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new Error('valor cifrado sem vínculo (formato anterior)');
    }
    return decrypt(stored.subarray(MAGIC.length), purpose);
  };
  /**
   * A value of the earlier format (no associated data), for the one-time
   * upgrade only (see sealed-data-upgrade.ts); null when it is not one.
   */
  const openLegacy = (stored: Buffer): Buffer | null => {
    try {
      return decrypt(stored, null);
    } catch {
      return null;
    }
  };
  const isCurrent = (stored: Buffer, purpose: SealPurpose): boolean => {
    try {
      open(stored, purpose);
      return true;
    } catch {
      return false;
    }
  };

  return {
    /** Encrypts a small value kept in the database (e.g. a face template), bound to `purpose`. */
    seal,
    open,
    openLegacy,
    isCurrent,
    /** Where the files are (a folder or `s3://bucket/prefix`). */
    location: store.location,

    async put(content: Buffer): Promise<string> {
      const key = randomUUID();
      await store.write(key, seal(content, fileAad(key)));
      return key;
    },

    /** The file's content; throws when it is missing or does not open with this key. */
    async get(key: string): Promise<Buffer> {
      return open(await fetchSealed(key), fileAad(key));
    },

    /**
     * Like get, but a file that is missing or does not decrypt (key changed)
     * is a clear 404; a store that cannot be reached stays a 503.
     */
    async read(key: string): Promise<Buffer> {
      const stored = await fetchSealed(key);
      try {
        return open(stored, fileAad(key));
      } catch {
        throw AppError.of('FILE_UNAVAILABLE', 404);
      }
    },

    /** The stored (sealed) bytes and their replacement, for the one-time format upgrade. */
    readSealed: fetchSealed,
    async replaceSealed(key: string, sealed: Buffer): Promise<void> {
      storedName(key);
      await store.write(key, sealed);
    },
    /** Every stored key with the time its file was last written. */
    list: (): Promise<StoredFile[]> => store.list(),
    /** Temporary files left by writes killed half-way, older than `olderThan` (see FileStore). */
    removeStrayTemporaries: async (olderThan: Date): Promise<number> =>
      (await store.removeStrayTemporaries?.(olderThan)) ?? 0,

    async remove(key: string): Promise<void> {
      storedName(key);
      await store.remove(key);
    },

    /** A signature for `subject` (e.g. a photo id) on `route`, for `viewer`, valid until `expiresAt`. */
    signAccess(route: SignedRoute, subject: string, viewer: string, expiresAt: number): string {
      return sign(`${route}.${subject}.${viewer}.${expiresAt}`);
    },

    verifyAccess(
      route: SignedRoute,
      subject: string,
      viewer: string,
      expiresAt: number,
      signature: string,
      now = Date.now(),
    ): boolean {
      if (!Number.isFinite(expiresAt) || expiresAt < now) return false;
      const expected = Buffer.from(sign(`${route}.${subject}.${viewer}.${expiresAt}`));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
