/**
 * Stored files (exam photos, face images): encrypted at rest with AES-256-GCM
 * under DATA_DIR/files, outside any served folder. Keys are random UUIDs made
 * here, so a stored key can never point outside the folder. Addresses handed
 * to browsers are short-lived HMAC signatures bound to the viewing user and
 * to the route they are for.
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
import { AppError } from './app-error';

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAGIC = Buffer.from('EXA2', 'latin1');

/** What a sealed value is bound to; see the file comment. */
export type SealPurpose = `file:${string}` | `template:${string}:${string}`;
export const fileAad = (key: string): SealPurpose => `file:${key}`;
export const templateAad = (unit: string, cpf: string): SealPurpose => `template:${unit}:${cpf}`;

/**
 * What a signature is for: an image route a signed address is made for, or
 * examiner 2's confirmed identity (`proctoring`); a signature for one is
 * refused by the others.
 */
export type SignedRoute = 'face-image' | 'exam-photo' | 'check-in-face' | 'proctoring';

/** The configured key, or one generated once and kept (mode 0600) in DATA_DIR/secrets. */
export function resolveFileKey(dataDir: string, configured: Buffer | undefined): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets', 'file-encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}

export function createFileStorage(options: { root: string; key: Buffer }) {
  if (options.key.length !== 32)
    throw new Error('A chave de criptografia de arquivos precisa de 32 bytes.');
  const signingKey = createHmac('sha256', options.key).update('url-signing').digest();

  const locate = (key: string) => {
    if (!KEY_PATTERN.test(key)) throw new Error('chave de arquivo inválida');
    return path.join(options.root, key.slice(0, 2), `${key}.bin`);
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
    root: options.root,

    async put(content: Buffer): Promise<string> {
      const key = randomUUID();
      const file = locate(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, seal(content, fileAad(key)), { mode: 0o600 });
      return key;
    },

    async get(key: string): Promise<Buffer> {
      return open(await fs.readFile(locate(key)), fileAad(key));
    },

    /** Like get, but a file that is missing or does not decrypt (key changed) is a clear 404. */
    async read(key: string): Promise<Buffer> {
      try {
        return open(await fs.readFile(locate(key)), fileAad(key));
      } catch {
        throw AppError.of('FILE_UNAVAILABLE', 404);
      }
    },

    /** The stored (sealed) bytes and their replacement, for the one-time format upgrade. */
    readSealed: (key: string): Promise<Buffer> => fs.readFile(locate(key)),
    async replaceSealed(key: string, sealed: Buffer): Promise<void> {
      const file = locate(key);
      const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await fs.writeFile(temporary, sealed, { mode: 0o600 });
      await fs.rename(temporary, file);
    },
    /** Every stored key with the time its file was last written. */
    async list(): Promise<Array<{ key: string; modifiedAt: Date }>> {
      const found: Array<{ key: string; modifiedAt: Date }> = [];
      const shards = await fs.readdir(options.root).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await fs.readdir(path.join(options.root, shard)).catch(() => [] as string[]);
        for (const name of names) {
          const key = name.endsWith('.bin') ? name.slice(0, -4) : '';
          if (!KEY_PATTERN.test(key)) continue;
          const stat = await fs.stat(path.join(options.root, shard, name)).catch(() => null);
          if (stat) found.push({ key, modifiedAt: stat.mtime });
        }
      }
      return found;
    },

    async remove(key: string): Promise<void> {
      await fs.rm(locate(key), { force: true });
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
