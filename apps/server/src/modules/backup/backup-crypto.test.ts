/**
 * The encryption of backup files: what goes in comes out with the same key,
 * and nothing of it is in the clear; a missing key, a wrong key, an older
 * unencrypted backup and a foreign file are each refused with their own
 * pt-BR message and code; a chunk changed, moved, added, dropped or flagged
 * last, and a file cut short, are refused before any of their bytes is handed
 * on.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBackupKey, decryptBackup, encryptBackup } from './backup-crypto';
import { BackupError } from './backup-format';

const KEY = 'chave-da-copia-de-seguranca-2026';
const HEADER = 8 + 4 + 16 + 7 + 16;
const CHUNK = 64 * 1024;

async function encrypt(plain: Buffer, key = KEY): Promise<Buffer> {
  return buffer(Readable.from([plain]).pipe(encryptBackup(key)));
}
/** `null`: no key given. */
async function decrypt(sealed: Buffer, key: string | null = KEY): Promise<Buffer> {
  const out = decryptBackup(key ?? undefined);
  // Fed in odd pieces: the reader never depends on how the file is read.
  const pieces = [];
  for (let at = 0; at < sealed.length; at += 7_777) pieces.push(sealed.subarray(at, at + 7_777));
  Readable.from(pieces).pipe(out);
  return buffer(out);
}
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BackupError);
  const { code, message } = error as BackupError;
  return { code, message };
}
/** The offsets of each chunk's frame in a sealed file. */
function frames(sealed: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = HEADER; at < sealed.length;) {
    offsets.push(at);
    at += 4 + (sealed.readUInt32BE(at) & 0x7fff_ffff) + 16;
  }
  return offsets;
}

describe('backup encryption', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-backup-crypto-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('round-trips any length, with a fresh salt and nonce each time, nothing in the clear', async () => {
    for (const length of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 12_345]) {
      const plain = randomBytes(length);
      const sealed = await encrypt(plain);
      expect(await decrypt(sealed), `${length} bytes`).toEqual(plain);
    }
    const text = Buffer.from('usuario@exame.gov.br '.repeat(5000), 'utf8');
    const [one, two] = [await encrypt(text), await encrypt(text)];
    expect(one.subarray(0, 8).toString('latin1')).toBe('EXAMEBKE');
    expect(one.equals(two)).toBe(false);
    expect(one.includes(Buffer.from('usuario@exame.gov.br'))).toBe(false);
    expect(one.includes(Buffer.from(KEY))).toBe(false);
  });

  it('says what is missing: the key, the right key, an encrypted backup, a backup at all', async () => {
    const sealed = await encrypt(randomBytes(1000));
    expect(await refusal(decrypt(sealed, null))).toMatchObject({
      code: 'BACKUP_KEY_MISSING',
      message: expect.stringMatching(/Falta a chave.*BACKUP_KEY.*--key-file/),
    });
    expect(await refusal(decrypt(sealed, 'outra-chave-qualquer-2026'))).toMatchObject({
      code: 'BACKUP_KEY_WRONG',
      message: expect.stringMatching(/A chave informada não abre esta cópia/),
    });
    const legacy = zlib.gzipSync(Buffer.concat([Buffer.from('EXAMEBK1'), randomBytes(100)]));
    expect(await refusal(decrypt(legacy))).toMatchObject({
      code: 'BACKUP_UNENCRYPTED',
      message: expect.stringMatching(/sem criptografia por uma versão anterior/),
    });
    expect((await refusal(decrypt(Buffer.from('não sou uma cópia de segurança')))).code).toBe(
      'BACKUP_NOT_A_BACKUP',
    );
    expect((await refusal(decrypt(Buffer.from('EXA')))).code).toBe('BACKUP_NOT_A_BACKUP');

    // The header alone tells it, before a restore does anything.
    const file = path.join(work, 'sealed.backup');
    fs.writeFileSync(file, sealed);
    await expect(checkBackupKey(file, KEY)).resolves.toBeUndefined();
    expect((await refusal(checkBackupKey(file, undefined))).code).toBe('BACKUP_KEY_MISSING');
    expect((await refusal(checkBackupKey(file, 'outra-chave-qualquer-2026'))).code).toBe(
      'BACKUP_KEY_WRONG',
    );
  });

  it('refuses a file altered, reordered, extended or cut short, handing on nothing unchecked', async () => {
    const plain = randomBytes(3 * CHUNK + 500);
    const sealed = await encrypt(plain);
    const at = frames(sealed);
    expect(at).toHaveLength(4);
    const flip = (offset: number) => {
      const copy = Buffer.from(sealed);
      copy[offset]! ^= 0x01;
      return copy;
    };
    const cases: Array<[string, Buffer, string]> = [
      ['a byte of the second chunk', flip(at[1]! + 100), 'BACKUP_TAMPERED'],
      ['a tag', flip(at[2]! - 1), 'BACKUP_TAMPERED'],
      ['the last-chunk flag', flip(at[0]!), 'BACKUP_TAMPERED'],
      ['the salt', flip(12), 'BACKUP_KEY_WRONG'],
      ['the nonce prefix', flip(12 + 16), 'BACKUP_KEY_WRONG'],
      [
        'two chunks swapped',
        Buffer.concat([
          sealed.subarray(0, at[1]!),
          sealed.subarray(at[2]!, at[3]!),
          sealed.subarray(at[1]!, at[2]!),
          sealed.subarray(at[3]!),
        ]),
        'BACKUP_TAMPERED',
      ],
      ['bytes after the last chunk', Buffer.concat([sealed, randomBytes(40)]), 'BACKUP_TAMPERED'],
      ['cut at a chunk', sealed.subarray(0, at[3]!), 'BACKUP_CORRUPTED'],
      ['cut inside a chunk', sealed.subarray(0, at[2]! + 1000), 'BACKUP_CORRUPTED'],
      ['cut inside the header', sealed.subarray(0, 20), 'BACKUP_CORRUPTED'],
      [
        'a chunk dropped',
        Buffer.concat([sealed.subarray(0, at[1]!), sealed.subarray(at[2]!)]),
        'BACKUP_TAMPERED',
      ],
    ];
    for (const [what, bytes, code] of cases) {
      const out = decryptBackup(KEY);
      const handed: Buffer[] = [];
      out.on('data', (chunk: Buffer) => handed.push(chunk));
      const failed = new Promise<unknown>((resolve) => {
        out.on('error', resolve);
        out.on('end', () => resolve(null));
      });
      Readable.from([bytes]).pipe(out);
      const error = await failed;
      expect(error, what).toBeInstanceOf(BackupError);
      expect((error as BackupError).code, what).toBe(code);
      // Whatever was handed on before the refusal is a prefix of the real content.
      const prefix = Buffer.concat(handed);
      expect(plain.subarray(0, prefix.length).equals(prefix), what).toBe(true);
    }
  });
});
