/**
 * Sealed values are bound to what they are: a file to its key, a template to
 * its unit and CPF. Sealed bytes moved elsewhere no longer open, and the
 * format without that binding is refused.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacySeal } from '../../test/sealing';
import { createFileStorage, templateAad, type FileStorage } from './file-storage';

describe('file storage sealing', () => {
  const key = randomBytes(32);
  let root: string;
  let files: FileStorage;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'exame-files-'));
    files = createFileStorage({ root, key });
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  const fileOf = (storageKey: string) =>
    path.join(root, storageKey.slice(0, 2), `${storageKey}.bin`);

  it('a file copied over another key does not open there', async () => {
    const alice = await files.put(Buffer.from('foto de Alice'));
    const bob = await files.put(Buffer.from('foto de Bob'));
    expect((await files.read(alice)).toString()).toBe('foto de Alice');
    await fs.copyFile(fileOf(alice), fileOf(bob));
    await expect(files.read(bob)).rejects.toMatchObject({ code: 'FILE_UNAVAILABLE' });
  });

  it("a template sealed for one person does not open as another's", () => {
    const sealed = files.seal(Buffer.from('[[0.1,0.2]]'), templateAad('DF', '52998224725'));
    expect(files.open(sealed, templateAad('DF', '52998224725')).toString()).toBe('[[0.1,0.2]]');
    expect(() => files.open(sealed, templateAad('DF', '11144477735'))).toThrow();
    expect(() => files.open(sealed, templateAad('SP', '52998224725'))).toThrow();
  });

  it('the unbound format is refused, and opens only through the one-time upgrade path', async () => {
    const legacy = legacySeal(key, Buffer.from('antigo'));
    expect(() => files.open(legacy, templateAad('DF', '52998224725'))).toThrow();
    expect(files.openLegacy(legacy)?.toString()).toBe('antigo');
    const storageKey = await files.put(Buffer.from('x'));
    await fs.writeFile(fileOf(storageKey), legacy);
    await expect(files.read(storageKey)).rejects.toMatchObject({ code: 'FILE_UNAVAILABLE' });
  });

  it('a signature made for one route is refused by another', () => {
    const expires = Date.now() + 60_000;
    const viewer = '00000000-0000-4000-8000-000000000001';
    const signature = files.signAccess('face-image', 'assunto', viewer, expires);
    expect(files.verifyAccess('face-image', 'assunto', viewer, expires, signature)).toBe(true);
    expect(files.verifyAccess('exam-photo', 'assunto', viewer, expires, signature)).toBe(false);
  });
});
