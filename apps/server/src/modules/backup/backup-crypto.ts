/**
 * The encryption of a backup file (backup.service.ts): the backup (the gzip
 * stream of backup-format.ts) is sealed with a key the operator passes
 * (BACKUP_KEY or `--key-file`), which is never written with it.
 *
 *   header   "EXAMEBKE" | version (1) | scrypt log2 N | r | p | salt (16)
 *            | nonce prefix (7) | key check (16)
 *   chunks   flag and length (u32: top bit = last chunk, the rest = length of
 *            the ciphertext) | AES-256-GCM ciphertext | tag (16)
 *
 * The passphrase goes through scrypt with the file's random salt, and
 * HKDF-SHA256 splits the result into the encryption key and a check key.
 * The key check (HMAC of the header before it) tells a wrong key apart from
 * a damaged file before anything is decrypted. Each chunk holds at most
 * 64 KiB, is authenticated with the whole header as associated data, and has
 * its own nonce (prefix | chunk number | last flag): a chunk changed, moved,
 * dropped or added after the last one fails, and a file cut short lacks the
 * last one (the STREAM construction of online authenticated encryption).
 * Nothing is handed on before its chunk is authenticated.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupError, CORRUPTED } from './backup-format';

const MAGIC = Buffer.from('EXAMEBKE', 'latin1');
/** The first bytes of an unencrypted backup of an earlier version (gzip). */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const VERSION = 1;
const SALT_BYTES = 16;
const PREFIX_BYTES = 7;
const CHECK_BYTES = 16;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + 4 + SALT_BYTES + PREFIX_BYTES + CHECK_BYTES;
const CHUNK_BYTES = 64 * 1024;
const LAST = 0x8000_0000;
/** scrypt cost of new backups: 32 MiB and about a tenth of a second. */
const SCRYPT = { log2N: 15, r: 8, p: 1 };

export const BACKUP_MESSAGES = {
  BACKUP_KEY_MISSING:
    'Falta a chave da cópia de segurança: defina BACKUP_KEY (ou use --key-file <arquivo>) com a chave guardada à parte, a mesma de quando a cópia foi feita.',
  BACKUP_KEY_WRONG:
    'A chave informada não abre esta cópia de segurança: use a BACKUP_KEY (ou o --key-file) de quando a cópia foi feita; se a chave é essa, o cabeçalho do arquivo foi modificado. Nada foi mudado na pasta de dados.',
  BACKUP_TAMPERED:
    'A cópia de segurança foi alterada ou danificada depois de gravada (a verificação de autenticidade falhou) e não foi usada; nada foi alterado.',
  BACKUP_NOT_A_BACKUP: 'O arquivo não é uma cópia de segurança do Exame Teórico.',
  BACKUP_UNENCRYPTED:
    'Esta cópia foi gravada sem criptografia por uma versão anterior e não é aceita: restaure-a com a versão que a fez e grave uma cópia nova, cifrada, com esta versão.',
} as const;

const fail = (code: keyof typeof BACKUP_MESSAGES) => new BackupError(BACKUP_MESSAGES[code], code);
const corrupted = () => new BackupError(CORRUPTED, 'BACKUP_CORRUPTED');

type Keys = { encryption: Buffer; check: Buffer };

function deriveKeys(
  passphrase: string,
  salt: Buffer,
  cost: { log2N: number; r: number; p: number },
): Promise<Keys> {
  const N = 2 ** cost.log2N;
  return new Promise((resolve, reject) => {
    scrypt(
      passphrase.normalize('NFC'),
      salt,
      32,
      { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r },
      (error, master) => {
        if (error) return reject(error);
        const expand = (info: string) =>
          Buffer.from(hkdfSync('sha256', master, salt, `exame-backup/${info}`, 32));
        resolve({ encryption: expand('aes-256-gcm'), check: expand('key-check') });
      },
    );
  });
}

const keyCheck = (keys: Keys, headerStart: Buffer) =>
  createHmac('sha256', keys.check).update(headerStart).digest().subarray(0, CHECK_BYTES);

function nonce(prefix: Buffer, index: number, last: boolean): Buffer {
  const value = Buffer.alloc(12);
  prefix.copy(value, 0);
  value.writeUInt32BE(index, PREFIX_BYTES);
  value.writeUInt8(last ? 1 : 0, PREFIX_BYTES + 4);
  return value;
}

/** The header's fields, checked; throws BackupError for a file that is not a current backup. */
function parseHeader(header: Buffer) {
  if (header.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) throw fail('BACKUP_UNENCRYPTED');
  if (!header.subarray(0, MAGIC.length).equals(MAGIC)) throw fail('BACKUP_NOT_A_BACKUP');
  if (header.length < HEADER_BYTES) throw corrupted();
  let at = MAGIC.length;
  const version = header.readUInt8(at);
  const cost = {
    log2N: header.readUInt8(at + 1),
    r: header.readUInt8(at + 2),
    p: header.readUInt8(at + 3),
  };
  // Bounded, so that a forged header cannot ask for gigabytes of scrypt memory.
  const sane = cost.log2N >= 14 && cost.log2N <= 20 && cost.r >= 1 && cost.r <= 16;
  if (version !== VERSION || !sane || cost.p < 1 || cost.p > 4) throw corrupted();
  at += 4;
  const salt = header.subarray(at, (at += SALT_BYTES));
  const prefix = header.subarray(at, (at += PREFIX_BYTES));
  return { cost, salt, prefix, check: header.subarray(at, at + CHECK_BYTES) };
}

/** Opens the header with `passphrase`: the keys, or BackupError (missing or wrong key). */
async function openHeader(header: Buffer, passphrase: string | undefined) {
  const fields = parseHeader(header);
  if (!passphrase) throw fail('BACKUP_KEY_MISSING');
  const keys = await deriveKeys(passphrase, fields.salt, fields.cost);
  if (
    !timingSafeEqual(keyCheck(keys, header.subarray(0, HEADER_BYTES - CHECK_BYTES)), fields.check)
  ) {
    throw fail('BACKUP_KEY_WRONG');
  }
  return { keys, prefix: fields.prefix };
}

/** A stream that encrypts what is written to it into the backup file's format. */
export function encryptBackup(passphrase: string): Transform {
  let keys: Keys;
  let header: Buffer;
  let prefix: Buffer;
  let index = 0;
  let pending: Buffer = Buffer.alloc(0);
  let headerSent = false;
  const seal = (stream: Transform, plain: Buffer, last: boolean) => {
    if (!headerSent) {
      stream.push(header);
      headerSent = true;
    }
    const cipher = createCipheriv('aes-256-gcm', keys.encryption, nonce(prefix, index, last));
    cipher.setAAD(header);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(((last ? LAST : 0) | body.length) >>> 0, 0);
    stream.push(Buffer.concat([head, body, cipher.getAuthTag()]));
    index += 1;
  };
  return new Transform({
    construct(callback) {
      const salt = randomBytes(SALT_BYTES);
      prefix = randomBytes(PREFIX_BYTES);
      deriveKeys(passphrase, salt, SCRYPT).then((derived) => {
        keys = derived;
        const start = Buffer.concat([
          MAGIC,
          Buffer.from([VERSION, SCRYPT.log2N, SCRYPT.r, SCRYPT.p]),
          salt,
          prefix,
        ]);
        header = Buffer.concat([start, keyCheck(keys, start)]);
        callback();
      }, callback);
    },
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // The last chunk is sealed in flush: a full chunk goes only when more follows it.
      while (pending.length > CHUNK_BYTES) {
        seal(this, pending.subarray(0, CHUNK_BYTES), false);
        pending = pending.subarray(CHUNK_BYTES);
      }
      callback();
    },
    flush(callback) {
      seal(this, pending, true);
      callback();
    },
  });
}

/**
 * A stream that decrypts a backup file written by encryptBackup; it fails
 * with BackupError (missing or wrong key, a file altered, cut short or not a
 * backup) and hands on only authenticated bytes.
 */
export function decryptBackup(passphrase: string | undefined): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let opened: { keys: Keys; prefix: Buffer; header: Buffer } | undefined;
  let index = 0;
  let ended = false;
  const open = (stream: Transform): void => {
    while (opened && buffered.length >= 4) {
      if (ended) throw fail('BACKUP_TAMPERED');
      const word = buffered.readUInt32BE(0);
      const last = (word & LAST) !== 0;
      const length = word & ~LAST;
      if (length > CHUNK_BYTES) throw fail('BACKUP_TAMPERED');
      if (buffered.length < 4 + length + TAG_BYTES) return;
      const body = buffered.subarray(4, 4 + length);
      const tag = buffered.subarray(4 + length, 4 + length + TAG_BYTES);
      const decipher = createDecipheriv(
        'aes-256-gcm',
        opened.keys.encryption,
        nonce(opened.prefix, index, last),
      );
      decipher.setAAD(opened.header);
      decipher.setAuthTag(tag);
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(body), decipher.final()]);
      } catch {
        throw fail('BACKUP_TAMPERED');
      }
      buffered = buffered.subarray(4 + length + TAG_BYTES);
      index += 1;
      ended = last;
      if (plain.length > 0) stream.push(plain);
    }
    if (ended && buffered.length > 0) throw fail('BACKUP_TAMPERED');
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      if (opened) {
        try {
          open(this);
          callback();
        } catch (error) {
          callback(error as Error);
        }
        return;
      }
      // Enough to tell an older, unencrypted backup; then the whole header.
      if (buffered.length < HEADER_BYTES && !buffered.subarray(0, 2).equals(GZIP_MAGIC)) {
        return callback();
      }
      const header = Buffer.from(buffered.subarray(0, HEADER_BYTES));
      openHeader(header, passphrase).then(
        ({ keys, prefix }) => {
          opened = { keys, prefix, header };
          buffered = buffered.subarray(HEADER_BYTES);
          try {
            open(this);
            callback();
          } catch (error) {
            callback(error as Error);
          }
        },
        (error: unknown) => callback(error as Error),
      );
    },
    flush(callback) {
      if (!opened) {
        // Shorter than a header: not a backup (or the start of one, cut short).
        try {
          parseHeader(buffered);
        } catch (error) {
          return callback(error as Error);
        }
      }
      callback(ended ? null : corrupted());
    },
  });
}

/**
 * Reads only the header of `file` and checks `passphrase` against it: what a
 * restore needs is said before anything else is done.
 */
export async function checkBackupKey(file: string, passphrase: string | undefined): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    await openHeader(header.subarray(0, bytesRead), passphrase);
  } finally {
    await handle.close();
  }
}

/** The decrypted content of a backup file, as a stream (errors as BackupError). */
export function openBackupFile(file: string, passphrase: string | undefined): Readable {
  const decrypted = decryptBackup(passphrase);
  // A failure reaches the reader through `decrypted`; the file is closed either way.
  pipeline(fs.createReadStream(file), decrypted).catch(() => undefined);
  return decrypted;
}
