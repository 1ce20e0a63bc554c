/**
 * Disk full while storing a photo: the files live on a real filesystem of
 * 1 MB (a tmpfs mounted for the test); once it is full a photo sent through
 * the integration API is answered 507 STORAGE_FULL (pt-BR) and leaves no
 * row and no file, whole or partial; with room again the same photo is
 * stored and recorded. A temporary file a killed write left behind is
 * removed by the operational retention once it is old.
 *
 * Needs to mount a tmpfs (root, as in CI's container); skipped, saying so,
 * where that is refused.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ERRORS } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOperationalData } from '../../src/modules/retention/retention.service';
import { createApiKeyFor, examPayload, postExams, sampleJpeg } from '../exams';
import { buildTestApp, type TestApp } from '../helper';
import { seedSignedIn } from '../identity';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-disk-full-'));

function mountSmallDisk(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

const mounted = mountSmallDisk();
if (!mounted) {
  console.warn(`disk-full tests SKIPPED: could not mount a tmpfs at ${mountPoint} (needs root)`);
}

/** Every file under a folder, relative. */
function filesUnder(root: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) found.push(path.relative(root, path.join(entry.parentPath, entry.name)));
  }
  return found.sort();
}

/** Fills the disk to the last byte with one file; returns its name. */
function fillDisk(root: string): string {
  const filler = path.join(root, 'filler');
  const fd = fs.openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  // What is left is smaller than a block: try byte by byte.
  const small = fs.openSync(filler, 'a');
  try {
    for (;;) fs.writeSync(small, Buffer.alloc(1, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(small);
  }
  return 'filler';
}

describe.skipIf(!mounted)('disco cheio ao gravar uma foto', () => {
  const root = path.join(mountPoint, 'files');
  let t: TestApp;
  let key = '';

  beforeAll(async () => {
    fs.mkdirSync(root);
    t = await buildTestApp({ config: { fileStorage: { kind: 'disk', root } } });
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    key = (await createApiKeyFor(t.app, admin.auth)).key;
  });

  afterAll(async () => {
    await t?.close();
    if (mounted) execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  const photos = async (examId: string) =>
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from exam_photos where exam_id = ${examId}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]?.n;

  it('answers 507 STORAGE_FULL and leaves no row and no file; with room again the photo is stored', async () => {
    const exam = examPayload();
    const pushed = await postExams(t.app, key, [exam]);
    expect(pushed.statusCode).toBe(200);
    const [{ id: examId }] = (
      (await t.database.db.execute(
        sql`select id from exams where scheduling_id = ${exam.schedulingId}`,
      )) as unknown as { rows: Array<{ id: string }> }
    ).rows as [{ id: string }];
    const send = async () =>
      t.app.inject({
        method: 'POST',
        url: `/api/Integration/exams/${exam.schedulingId}/photos`,
        headers: { 'x-api-key': key },
        payload: {
          image: (await sampleJpeg(480, 7)).toString('base64'),
          capturedAt: '2026-11-20T10:20:00-03:00',
        },
      });

    const filler = fillDisk(mountPoint);
    const before = filesUnder(root);
    const refused = await send();
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toMatchObject({
      code: 'STORAGE_FULL',
      Error: SERVER_ERRORS.STORAGE_FULL.message,
    });
    expect(await photos(examId)).toBe(0);
    // No file, whole or partial (no temporary file either).
    expect(filesUnder(root)).toEqual(before);

    fs.rmSync(path.join(mountPoint, filler));
    const stored = await send();
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ created: true });
    expect(await photos(examId)).toBe(1);
    const files = filesUnder(root);
    expect(files).toHaveLength(before.length + 1);
    expect(files.every((name) => name.endsWith('.bin'))).toBe(true);
  });

  it('the operational retention removes old temporary files of writes killed half-way', async () => {
    const key = randomUUID();
    const shard = path.join(root, key.slice(0, 2));
    fs.mkdirSync(shard, { recursive: true });
    const stray = path.join(shard, `${key}.bin.0badc0de.tmp`);
    const fresh = path.join(shard, `${key}.bin.00c0ffee.tmp`);
    fs.writeFileSync(stray, 'meio arquivo');
    fs.writeFileSync(fresh, 'gravação em andamento');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(stray, twoDaysAgo, twoDaysAgo);
    const stored = filesUnder(root).filter((name) => name.endsWith('.bin'));

    const counts = await purgeOperationalData({
      db: t.database.db,
      files: t.app.files,
      pseudonym: t.app.pseudonym,
    });
    expect(counts.strayTemporaryFiles).toBe(1);
    expect(fs.existsSync(stray)).toBe(false);
    // A write in progress (recent) and the stored files are left alone.
    expect(fs.existsSync(fresh)).toBe(true);
    expect(filesUnder(root).filter((name) => name.endsWith('.bin'))).toEqual(stored);
  });
});
