/**
 * Stored files (exam photos, face images): encrypted at rest with AES-256-GCM
 * under DATA_DIR/files, outside any served folder. Keys are random UUIDs made
 * here, so a stored key can never point outside the folder. Addresses handed
 * to browsers are short-lived HMAC signatures bound to the viewing user.
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

  const seal = (content: Buffer): Buffer => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', options.key, iv);
    const encrypted = Buffer.concat([cipher.update(content), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), encrypted]);
  };
  const open = (stored: Buffer): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', options.key, stored.subarray(0, IV_BYTES));
    decipher.setAuthTag(stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(stored.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]);
  };

  return {
    /** Encrypts a small value kept in the database (e.g. a face template). */
    seal,
    open,

    async put(content: Buffer): Promise<string> {
      const key = randomUUID();
      const file = locate(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, seal(content), { mode: 0o600 });
      return key;
    },

    async get(key: string): Promise<Buffer> {
      return open(await fs.readFile(locate(key)));
    },

    /** Like get, but a file that is missing or does not decrypt (key changed) is a clear 404. */
    async read(key: string): Promise<Buffer> {
      try {
        return open(await fs.readFile(locate(key)));
      } catch {
        throw AppError.notFound('O arquivo da imagem não está disponível.', 'FILE_UNAVAILABLE');
      }
    },

    async remove(key: string): Promise<void> {
      await fs.rm(locate(key), { force: true });
    },

    /** A signature for `subject` (e.g. a photo id) and `viewer`, valid until `expiresAt`. */
    signAccess(subject: string, viewer: string, expiresAt: number): string {
      return sign(`${subject}.${viewer}.${expiresAt}`);
    },

    verifyAccess(
      subject: string,
      viewer: string,
      expiresAt: number,
      signature: string,
      now = Date.now(),
    ): boolean {
      if (!Number.isFinite(expiresAt) || expiresAt < now) return false;
      const expected = Buffer.from(sign(`${subject}.${viewer}.${expiresAt}`));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
