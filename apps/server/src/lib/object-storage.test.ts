/**
 * Files in S3-compatible object storage (FILE_STORAGE_URL), against a local
 * S3-compatible server (s3rver, in this process, on a temporary folder): two
 * instances on one database, each with its own data folder and the same
 * key, share the photos through the bucket; what goes up is sealed; a
 * missing object and a storage that does not answer give clean errors; the
 * retention purge and the orphan sweep delete objects.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, examPayload, postExams, sampleJpeg } from '../../test/exams';
import {
  buildTestApp,
  engineName,
  openSameDatabase,
  type TestApp,
  type TestDatabase,
} from '../../test/helper';
import { seedSignedIn } from '../../test/identity';
import { loadConfig, type ObjectStorageTarget } from '../config/env';
import { selectRows } from '../db/select-rows';
import { examPhotos } from '../db/schema/index';
import {
  purgeExpiredPersonalData,
  purgeOperationalData,
} from '../modules/retention/retention.service';
import { createObjectStore } from './object-storage';

const BUCKET = 'exame-fotos';
const PREFIX = 'instancias/teste';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

describe(`files in object storage, two instances (${engineName})`, () => {
  let s3: S3rver;
  let s3Dir: string;
  let target: ObjectStorageTarget;
  let client: S3Client;
  let a: TestApp;
  let b: TestApp;
  let second: TestDatabase;
  const dataDirs: string[] = [];

  const objectKeys = async () => {
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${PREFIX}/` }),
    );
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  };
  const objectName = (key: string) => `${PREFIX}/${key.slice(0, 2)}/${key}.bin`;

  /** An ADMIN of `unit`, an integration key, and one exam pushed through instance A. */
  const examOnA = async (unit: string) => {
    const admin = await seedSignedIn(a.app, { role: 'ADMIN', unit });
    const apiKey = (await createApiKeyFor(a.app, admin.auth)).key;
    const exam = examPayload();
    const pushed = await postExams(a.app, apiKey, [exam]);
    expect(pushed.statusCode).toBe(200);
    return { admin, apiKey, exam };
  };

  const startS3 = async (port = 0) => {
    s3 = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const address = await s3.run();
    return address.port;
  };

  beforeAll(async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-s3-'));
    const port = await startS3();
    target = {
      kind: 's3',
      bucket: BUCKET,
      prefix: PREFIX,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
    };
    client = new S3Client({
      endpoint: target.endpoint,
      region: target.region,
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    // The same key everywhere (FILE_ENCRYPTION_KEY), each instance its own data folder.
    const key = randomBytes(32);
    const instance = () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-instance-'));
      dataDirs.push(dataDir);
      return { dataDir, fileEncryptionKey: key, fileStorage: target };
    };
    a = await buildTestApp({ config: instance() });
    second = await openSameDatabase(a.database);
    b = await buildTestApp({ database: second, config: instance() });
  });
  afterAll(async () => {
    await b?.close();
    await second?.drop();
    await a?.close();
    client?.destroy();
    await s3?.close().catch(() => undefined);
    for (const dir of [s3Dir, ...dataDirs]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('FILE_STORAGE_URL names the bucket, prefix, endpoint and credentials', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      FILE_STORAGE_URL:
        's3://exame-fotos/producao/sp?endpoint=https://s3.exemplo.gov.br&region=sa-east-1&forcePathStyle=true',
      FILE_STORAGE_ACCESS_KEY_ID: 'AKIAEXEMPLO',
      FILE_STORAGE_SECRET_ACCESS_KEY: 'segredo',
    });
    expect(config.fileStorage).toEqual({
      kind: 's3',
      bucket: 'exame-fotos',
      prefix: 'producao/sp',
      endpoint: 'https://s3.exemplo.gov.br',
      region: 'sa-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAEXEMPLO', secretAccessKey: 'segredo' },
    });
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: '/srv/exame' }).fileStorage).toEqual({
      kind: 'disk',
      root: '/srv/exame/files',
    });
    expect(
      loadConfig({ NODE_ENV: 'test', FILE_STORAGE_URL: 's3://u%40x:p%2Fw@balde' }).fileStorage,
    ).toMatchObject({
      bucket: 'balde',
      credentials: { accessKeyId: 'u@x', secretAccessKey: 'p/w' },
    });
    for (const [url, problem] of [
      ['ftp://balde/x', /esquema ftp: não suportado/],
      ['s3://B_ruim', /nome de bucket inválido/],
      ['s3://balde?endpoint=nada', /endpoint precisa ser um endereço http/],
      ['s3://balde?regiao=sa', /parâmetro desconhecido: regiao/],
    ] as const) {
      expect(() => loadConfig({ NODE_ENV: 'test', FILE_STORAGE_URL: url })).toThrow(problem);
    }
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        FILE_STORAGE_URL: 's3://balde',
        FILE_STORAGE_ACCESS_KEY_ID: 'só-o-id',
      }),
    ).toThrow(/informe as duas/);
  });

  it('a photo uploaded through instance A is served by instance B from the bucket, sealed', async () => {
    const { admin, apiKey, exam } = await examOnA('DF');
    const jpeg = await sampleJpeg(300, 11);
    const uploaded = await a.app.inject({
      method: 'POST',
      url: `/api/Integration/exams/${exam.schedulingId}/photos`,
      headers: { 'x-api-key': apiKey },
      payload: { image: jpeg.toString('base64'), capturedAt: '2026-11-20T10:20:00-03:00' },
    });
    expect(uploaded.statusCode).toBe(200);

    // The object is in the bucket, under the prefix, sealed; nothing on either instance's disk.
    const [row] = await selectRows<{ storage_key: string }>(
      a.database.db,
      sql`select p.storage_key from exam_photos p join exams e on e.id = p.exam_id
          where e.scheduling_id = ${exam.schedulingId}`,
    );
    const storageKey = row!.storage_key;
    expect(await objectKeys()).toContain(objectName(storageKey));
    const stored = await client.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: objectName(storageKey) }),
    );
    const sealed = Buffer.from(await stored.Body!.transformToByteArray());
    expect(sealed.subarray(0, 4).toString('latin1')).toBe('EXA2');
    expect(sealed.includes(jpeg.subarray(200, 264))).toBe(false);
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'files'))).toBe(false);

    // Instance B hands out the signed address and serves the bytes.
    const detail = await b.app.inject({
      method: 'GET',
      url: `/api/Exam/${exam.schedulingId}`,
      headers: admin.auth,
    });
    expect(detail.statusCode).toBe(200);
    const photo = (detail.json() as { photos: Array<{ id: string; url: string }> }).photos.find(
      (item) => item.url.includes('/api/ExamPhoto/'),
    );
    const served = await b.app.inject({ method: 'GET', url: photo!.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Byte for byte the photo instance A stored (after its one re-encoding).
    expect(served.rawPayload.equals(await a.app.files.read(storageKey))).toBe(true);
    expect(served.rawPayload.length).toBeGreaterThan(1000);

    // An object gone from the bucket is a clear 404 on either instance.
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: objectName(storageKey) }));
    const lost = await b.app.inject({ method: 'GET', url: photo!.url });
    expect(lost.statusCode).toBe(404);
    expect(lost.json()).toMatchObject({ code: 'FILE_UNAVAILABLE', requestId: expect.any(String) });
  });

  it('a storage that does not answer is a clean 503, and an upload then writes nothing', async () => {
    const { admin, apiKey, exam } = await examOnA('DF');
    const upload = async (seed: number) =>
      a.app.inject({
        method: 'POST',
        url: `/api/Integration/exams/${exam.schedulingId}/photos`,
        headers: { 'x-api-key': apiKey },
        payload: {
          image: (await sampleJpeg(200, seed)).toString('base64'),
          capturedAt: '2026-11-20T10:25:00-03:00',
        },
      });
    expect((await upload(12)).statusCode).toBe(200);
    const detail = await b.app.inject({
      method: 'GET',
      url: `/api/Exam/${exam.schedulingId}`,
      headers: admin.auth,
    });
    const photoUrl = (detail.json() as { photos: Array<{ url: string }> }).photos.at(-1)!.url;
    const countPhotos = async () =>
      (
        await selectRows<{ n: number }>(
          a.database.db,
          sql`select count(*)::int as n from ${examPhotos}`,
        )
      )[0]!.n;
    const before = await countPhotos();

    const port = Number(new URL(target.endpoint!).port);
    await s3.close();
    try {
      const down = await b.app.inject({ method: 'GET', url: photoUrl });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        Error:
          'O armazenamento de arquivos está indisponível no momento. Tente novamente em instantes.',
        code: 'FILE_STORAGE_UNAVAILABLE',
        requestId: down.headers['x-request-id'],
      });
      const refused = await upload(13);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().code).toBe('FILE_STORAGE_UNAVAILABLE');
      expect(await countPhotos()).toBe(before);
      await expect(createObjectStore(target, { maxAttempts: 1 }).check()).rejects.toMatchObject({
        code: 'FILE_STORAGE_UNAVAILABLE',
        status: 503,
      });
    } finally {
      await startS3(port);
    }
    expect((await b.app.inject({ method: 'GET', url: photoUrl })).statusCode).toBe(200);
  });

  it('the retention purge and the orphan sweep delete objects', async () => {
    const files = a.app.files;
    const { exam } = await examOnA('SP');
    const [examRow] = await selectRows<{ id: string }>(
      a.database.db,
      sql`select id from exams where scheduling_id = ${exam.schedulingId}`,
    );
    const oldKey = await files.put(Buffer.from('foto antiga'));
    await a.database.db.insert(examPhotos).values({
      examId: examRow!.id,
      capturedAt: new Date(Date.now() - 400 * 86_400_000),
      storageKey: oldKey,
      contentType: 'image/jpeg',
      width: 1,
      height: 1,
      bytes: 1,
      sha256: 'a',
    });
    const orphanKey = await files.put(Buffer.from('arquivo de uma gravação desfeita'));
    expect(await objectKeys()).toEqual(
      expect.arrayContaining([objectName(oldKey), objectName(orphanKey)]),
    );
    const listed = await b.app.files.list();
    expect(listed.map((file) => file.key)).toEqual(expect.arrayContaining([oldKey, orphanKey]));

    const deps = { db: b.database.db, files: b.app.files, pseudonym: b.app.pseudonym };
    const counts = await purgeExpiredPersonalData(deps, { defaultDays: 365, byUnit: {} });
    expect(counts.SP).toMatchObject({ photos: 1 });
    expect(await objectKeys()).not.toContain(objectName(oldKey));

    // Two days from now the orphan is older than a day; referenced objects stay.
    const before = (await objectKeys()).length;
    const operational = await purgeOperationalData(deps, new Date(Date.now() + 2 * 86_400_000));
    expect(operational.orphanFiles).toBe(1);
    const after = await objectKeys();
    expect(after).not.toContain(objectName(orphanKey));
    expect(after).toHaveLength(before - 1);
  });
});
