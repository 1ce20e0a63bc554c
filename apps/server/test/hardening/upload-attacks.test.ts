/**
 * The upload attacks of the security guide against every endpoint that takes
 * an image or a file: type confusion, pixel bombs, truncated files,
 * polyglots, EXIF payloads, huge dimensions, empty and oversized files, and
 * CSV formula injection on the import and on every CSV export. A refused file
 * answers a clean 4xx with `Error` and `code` and leaves rows and files as
 * they were; an accepted one is stored re-encoded, without metadata or
 * trailing data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { BIOMETRIC_CONSENT_VERSION, DEMO_UNIT } from '@exame/shared';
import type { InjectOptions } from 'fastify';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaceService } from '../../src/biometrics/face-pool';
import type { FaceService } from '../../src/biometrics/face-engine';
import {
  createApiKeyFor,
  createPost,
  createRoom,
  examPayload,
  postExams,
  sampleJpeg,
} from '../exams';
import { answeredChallenge, genuineBody, requestChallenge } from '../faces/takes';
import { buildTestApp, type TestApp } from '../helper';
import { nextCpf, seedSignedIn } from '../identity';
import { answerProblem, snapshotDiff, snapshotter, type Snapshot } from './state';

const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A PNG chunk with its CRC, to craft headers that libvips believes. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG whose header declares width x height over a few bytes of data. */
function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The JPEG with its frame header (SOF0/SOF2) rewritten to claim width x height. */
function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  for (let i = 2; i < copy.length - 9; i += 1) {
    if (copy[i] === 0xff && (copy[i + 1] === 0xc0 || copy[i + 1] === 0xc2)) {
      copy.writeUInt16BE(height, i + 5);
      copy.writeUInt16BE(width, i + 7);
      return copy;
    }
  }
  throw new Error('JPEG sem SOF');
}

/** A JPEG comment segment (COM) carrying `text`, right after the start marker. */
function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const payload = Buffer.from(text, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** A small ZIP archive (one stored file) as a polyglot tail. */
function zipArchive(): Buffer {
  const name = Buffer.from('payload.html');
  const content = Buffer.from('<script>alert(1)</script>');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(zlib.crc32(content), 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, content]);
}

type Attack = {
  name: string;
  /** What is sent in the image field (base64, with or without a lying data-URL prefix). */
  image: string;
};

type Hostile = Attack & {
  /** Bytes that must not survive into what is stored. */
  forbidden: string[];
};

/** Codes a refused file may answer with (which one depends on the layer that stops it). */
const REFUSAL_CODES = new Set([
  'IMAGE_INVALID',
  'IMAGE_UNSUPPORTED_TYPE',
  'IMAGE_TOO_LARGE',
  'IMAGE_TOO_MANY_PIXELS',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
]);

async function buildAttacks(jpeg: Buffer): Promise<Attack[]> {
  const png = await sharp(jpeg).png().toBuffer();
  const bomb = await sharp({
    create: { width: 5000, height: 5000, channels: 3, background: { r: 255, g: 255, b: 255 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const huge = Buffer.alloc(6 * 1024 * 1024, 0x41);
  huge.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return [
    {
      name: 'PDF como imagem',
      image: `data:image/jpeg;base64,${b64(Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF'))}`,
    },
    {
      name: 'HTML como imagem',
      image: b64(Buffer.from('<!doctype html><html><script>alert(1)</script></html>')),
    },
    {
      name: 'SVG com script',
      image: `data:image/png;base64,${b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'))}`,
    },
    { name: 'ZIP como imagem', image: b64(zipArchive()) },
    { name: 'CSV como imagem', image: b64(Buffer.from('=cmd|" /C calc"!A0;nome\n1;2\n')) },
    {
      name: 'GIF/JS poliglota',
      image: b64(Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(1)//;')),
    },
    {
      name: 'assinatura JPEG com lixo',
      image: b64(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4096, 0x55)])),
    },
    { name: 'JPEG truncado', image: b64(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))) },
    { name: 'PNG truncado', image: b64(png.subarray(0, Math.floor(png.length * 0.5))) },
    { name: 'PNG declarando 50000x50000', image: b64(pngDeclaring(50_000, 50_000)) },
    { name: 'JPEG declarando 65000x65000', image: b64(jpegDeclaring(jpeg, 65_000, 65_000)) },
    { name: 'bomba de descompressão (PNG 5000x5000)', image: b64(bomb) },
    { name: 'arquivo de 6 MB', image: b64(huge) },
    { name: 'arquivo vazio', image: '' },
    { name: 'base64 inválido', image: '@@@@####$$$$%%%%' },
  ];
}

async function buildHostile(jpeg: Buffer): Promise<Hostile[]> {
  const withExif = await sharp(jpeg)
    .withExif({
      IFD0: { ImageDescription: '<script>alert("exif")</script>', Artist: 'EXIFPAYLOAD' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '15/1 47/1 0/1', GPSLongitudeRef: 'W' },
    })
    .jpeg()
    .toBuffer();
  // Mirrored: the same picture re-encoded would be the same stored photo (kept once).
  const png = await sharp(jpeg).flop().png().toBuffer();
  return [
    {
      name: 'EXIF com script e GPS',
      image: b64(withJpegComment(withExif, '<html><script>alert(1)</script>')),
      forbidden: ['<script', 'EXIFPAYLOAD', 'Exif'],
    },
    {
      name: 'poliglota JPEG+ZIP',
      image: b64(Buffer.concat([jpeg, zipArchive()])),
      forbidden: ['PK\u0003\u0004', 'payload.html', '<script'],
    },
    {
      name: 'PNG declarado como JPEG',
      image: `data:image/jpeg;base64,${b64(png)}`,
      forbidden: ['\u0089PNG'],
    },
  ];
}

/** Stored content must be a clean JPEG: no EXIF, XMP, ICC or comment, none of `forbidden`. */
async function expectClean(content: Buffer, forbidden: string[], label: string): Promise<void> {
  expect(content.subarray(0, 3).toString('hex'), label).toBe('ffd8ff');
  const metadata = await sharp(content).metadata();
  expect(metadata.format, label).toBe('jpeg');
  expect(metadata.exif, label).toBeUndefined();
  expect(metadata.xmp, label).toBeUndefined();
  expect(metadata.comments ?? [], label).toEqual([]);
  const text = content.toString('latin1');
  for (const needle of forbidden) expect(text.includes(needle), `${label}: ${needle}`).toBe(false);
  // Nothing after the end-of-image marker.
  expect(content.subarray(-2).toString('hex'), label).toBe('ffd9');
}

describe('upload attacks', () => {
  let t: TestApp;
  let face: FaceService;
  let dataDir = '';
  let filesRoot: string;
  let snapshot: () => Promise<Snapshot>;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;
  let demoAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  let examiner: Awaited<ReturnType<typeof seedSignedIn>>;
  let apiKey = '';
  let schedulingId = '';
  let roomId = '';
  let attacks: Attack[] = [];
  const demoCpf = nextCpf();

  beforeAll(async () => {
    face = await createFaceService({ inProcess: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-upload-'));
    filesRoot = path.join(dataDir, 'files');
    t = await buildTestApp({
      faceService: face,
      linkRequests: 'manual',
      config: { dataDir, fileStorage: { kind: 'disk', root: filesRoot } },
      rateLimits: {
        verifyPerUser: { limit: 100_000 },
        verifyPerCpf: { limit: 100_000 },
        enrolPerUser: { limit: 100_000 },
        enrolPerCpf: { limit: 100_000 },
        challengePerUser: { limit: 100_000 },
      },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    demoAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: DEMO_UNIT });
    examiner = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    apiKey = (await createApiKeyFor(t.app, admin.auth)).key;
    await createPost(t.app, admin.auth, 'DF.POSTO01', 'Posto central');
    const exam = examPayload();
    schedulingId = exam.schedulingId;
    const created = await postExams(t.app, apiKey, [exam]);
    expect(created.statusCode, created.body).toBeLessThan(300);
    const room = await createRoom(t.app, admin.auth, 'DF.POSTO01');
    expect(room.statusCode, room.body).toBeLessThan(300);
    roomId = (room.json() as { id: string }).id;
    const demo = await t.app.inject({
      method: 'POST',
      url: '/api/Demo/candidates',
      headers: demoAdmin.auth,
      payload: { name: 'Candidata Demonstração', cpf: demoCpf, birthDate: '1990-01-01' },
    });
    expect(demo.statusCode, demo.body).toBeLessThan(300);
    const consent = await t.app.inject({
      method: 'PUT',
      url: `/api/Demo/candidates/${demoCpf}/contact`,
      headers: demoAdmin.auth,
      payload: {
        email: 'candidata.demo@exemplo.com.br',
        phone: '(61) 99999-1234',
        consent: true,
        consentVersion: BIOMETRIC_CONSENT_VERSION,
      },
    });
    expect(consent.statusCode, consent.body).toBeLessThan(300);
    // The face routes check the picture after the person and the challenge: enrol the examiner.
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Create',
      headers: admin.auth,
      payload: {
        cpf: examiner.user.cpf,
        ...(await answeredChallenge(
          t.app,
          face,
          admin.token,
          { purpose: 'enrolment', cpf: examiner.user.cpf },
          'p01-1.jpg',
        )),
      },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    const picture = await sampleJpeg(320);
    attacks = await buildAttacks(picture);
    snapshot = await snapshotter(t, filesRoot);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await face?.close();
  });

  type Endpoint = {
    name: string;
    /**
     * The request carrying `image` as the file under test (a face take: as
     * its first picture, with a challenge asked for it beforehand). A refused
     * take writes nothing, not even the record of a verification.
     */
    request: (image: string) => InjectOptions | Promise<InjectOptions>;
    /** Whether the picture is stored as sent (no face needed). */
    storesWithoutFace?: boolean;
  };

  /**
   * A face take of `image` for every picture (the first refused is named):
   * a fresh challenge of `who`, and as many pictures as it asks for.
   */
  const take = async (
    who: Awaited<ReturnType<typeof seedSignedIn>>,
    purpose: 'enrolment' | 'verification' | 'check-in',
    cpf: string,
    image: string,
  ) => {
    const challenge = await requestChallenge(t.app, who.token, { purpose, cpf });
    const frames = Array.from({ length: challenge.pictures - 1 }, () => image);
    return { challengeId: challenge.challengeId, image, frames };
  };

  const integration = { 'x-api-key': '' };
  const endpoints = (): Endpoint[] => {
    integration['x-api-key'] = apiKey;
    return [
      {
        name: 'POST /api/Integration/exams/:id/photos',
        request: (image) => ({
          method: 'POST',
          url: `/api/Integration/exams/${schedulingId}/photos`,
          headers: integration,
          payload: { image, capturedAt: new Date().toISOString() },
        }),
        storesWithoutFace: true,
      },
      {
        name: 'PUT /api/Integration/exams/:id/reference-photo',
        request: (image) => ({
          method: 'PUT',
          url: `/api/Integration/exams/${schedulingId}/reference-photo`,
          headers: integration,
          payload: { image },
        }),
        storesWithoutFace: true,
      },
      {
        name: 'POST /api/Integration/exams/:id/occurrences (photo)',
        request: (image) => ({
          method: 'POST',
          url: `/api/Integration/exams/${schedulingId}/occurrences`,
          headers: integration,
          payload: {
            occurrences: [
              {
                externalId: `OC-${Math.random().toString(36).slice(2)}`,
                type: 'Ruído',
                description: 'Ruído na sala',
                occurredAt: new Date().toISOString(),
                photo: image,
              },
            ],
          },
        }),
        storesWithoutFace: true,
      },
      {
        name: 'POST /api/ExamRoom/:id/exams/:examId/occurrences (photo)',
        request: (image) => ({
          method: 'POST',
          url: `/api/ExamRoom/${roomId}/exams/${schedulingId}/occurrences`,
          headers: admin.auth,
          payload: { type: 'Ruído', description: 'Ruído na sala', photo: image },
        }),
      },
      {
        name: 'POST /api/BiopassID/Create',
        request: async (image) => ({
          method: 'POST',
          url: '/api/BiopassID/Create',
          headers: admin.auth,
          payload: {
            cpf: examiner.user.cpf,
            ...(await take(admin, 'enrolment', examiner.user.cpf, image)),
          },
        }),
      },
      {
        name: 'POST /api/BiopassID/Verify',
        request: async (image) => ({
          method: 'POST',
          url: '/api/BiopassID/Verify',
          headers: admin.auth,
          payload: {
            cpf: examiner.user.cpf,
            ...(await take(admin, 'verification', examiner.user.cpf, image)),
          },
        }),
      },
      {
        name: 'POST /api/Auth/biometric-viewer-checkin',
        request: async (image) => ({
          method: 'POST',
          url: '/api/Auth/biometric-viewer-checkin',
          headers: examiner.auth,
          payload: {
            cpf: examiner.user.cpf,
            ...(await take(examiner, 'check-in', examiner.user.cpf, image)),
          },
        }),
      },
      {
        name: 'POST /api/Demo/candidates/:cpf/enrol',
        request: async (image) => ({
          method: 'POST',
          url: `/api/Demo/candidates/${demoCpf}/enrol`,
          headers: demoAdmin.auth,
          payload: await take(demoAdmin, 'enrolment', demoCpf, image),
        }),
      },
    ];
  };

  it('every attack file is refused with a clean 4xx on every endpoint, and nothing is stored', async () => {
    const failures: string[] = [];
    const seen = new Map<string, Set<string>>();
    for (const endpoint of endpoints()) {
      for (const attack of attacks) {
        const label = `${endpoint.name} [${attack.name}]`;
        // A face take's challenge is asked for first: what the attempt writes is compared after.
        const request = await endpoint.request(attack.image);
        const before = await snapshot();
        const response = await t.app.inject(request);
        const after = await snapshot();
        const problem = answerProblem(response);
        if (problem) failures.push(`${label}: ${problem}`);
        if (response.statusCode < 400 || response.statusCode >= 500) {
          failures.push(`${label}: aceito com ${response.statusCode}`);
          continue;
        }
        const code = (response.json() as { code: string }).code;
        if (!REFUSAL_CODES.has(code))
          failures.push(`${label}: recusado com ${code}, não pela imagem`);
        seen.set(code, (seen.get(code) ?? new Set()).add(endpoint.name));
        const changes = snapshotDiff(before, after);
        if (changes.length > 0) failures.push(`${label}: gravou ${changes.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // Each layer of the intake was reached: type, decoding, pixel cap, size.
    for (const code of ['IMAGE_UNSUPPORTED_TYPE', 'IMAGE_INVALID', 'IMAGE_TOO_MANY_PIXELS'])
      expect(seen.get(code)?.size ?? 0, code).toBeGreaterThanOrEqual(4);
  }, 300_000);

  it('polyglots, EXIF payloads and lying prefixes are stored re-encoded, without what rode along', async () => {
    let seed = 0;
    for (const endpoint of endpoints().filter((e) => e.storesWithoutFace)) {
      // A different picture each time: a photo already stored is not stored twice.
      for (const file of await buildHostile(await sampleJpeg(320, (seed += 7)))) {
        const label = `${endpoint.name} [${file.name}]`;
        const before = new Set((await t.app.files.list()).map((stored) => stored.key));
        const response = await t.app.inject(await endpoint.request(file.image));
        expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(300);
        const added = (await t.app.files.list()).filter((stored) => !before.has(stored.key));
        expect(added.length, label).toBe(1);
        await expectClean(await t.app.files.get(added[0]!.key), file.forbidden, label);
      }
    }
  }, 120_000);

  it('a face enrolled from a take whose pictures carry EXIF, GPS and a ZIP tail keeps none of it', async () => {
    const cpf = examiner.user.cpf;
    const before = new Set((await t.app.files.list()).map((stored) => stored.key));
    // The hostile copies are pictures changed after the take was made: a take
    // the check then refuses (as it may refuse a real one) is made again.
    let response: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    let exifFirst: Awaited<ReturnType<typeof buildHostile>>[number] | undefined;
    let zipLast: Awaited<ReturnType<typeof buildHostile>>[number] | undefined;
    for (let attempt = 1; attempt <= 4 && response?.statusCode !== 201; attempt++) {
      const challenge = await requestChallenge(t.app, admin.token, { purpose: 'enrolment', cpf });
      const { image, frames } = await genuineBody(face, 'p01-1.jpg', challenge.steps, attempt);
      // The two pictures that look at the camera (the first and the last) are the ones kept.
      [exifFirst] = await buildHostile(Buffer.from(image, 'base64'));
      [, zipLast] = await buildHostile(Buffer.from(frames.at(-1)!, 'base64'));
      response = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: admin.auth,
        payload: {
          cpf,
          challengeId: challenge.challengeId,
          image: exifFirst!.image,
          frames: [...frames.slice(0, -1), zipLast!.image],
        },
      });
      expect(response.json().code ?? 'FACE_CHALLENGE_', response.body).toMatch(/^FACE_CHALLENGE_/);
    }
    if (!response) throw new Error('sem resposta');
    expect(response.statusCode, response.body).toBe(201);
    const added = (await t.app.files.list()).filter((stored) => !before.has(stored.key));
    expect(added.length).toBe(2);
    for (const stored of added)
      await expectClean(
        await t.app.files.get(stored.key),
        [...exifFirst!.forbidden, ...zipLast!.forbidden],
        'biopass',
      );
  }, 120_000);

  it('the CSV import refuses files that are not a CSV of exams, and writes nothing', async () => {
    const picture = await sampleJpeg(64);
    const files: Array<[string, Buffer | string, string]> = [
      ['PNG como CSV', await sharp(picture).png().toBuffer(), 'text/csv'],
      ['JPEG como CSV', picture, 'text/csv'],
      ['ZIP (XLSX) como CSV', zipArchive(), 'text/csv'],
      [
        'UTF-16 com BOM',
        Buffer.from('\ufeffschedulingId;candidateName\r\n', 'utf16le'),
        'text/csv',
      ],
      ['vazio', '', 'text/csv'],
      ['só o cabeçalho errado', 'a;b;c\r\n1;2;3\r\n', 'text/csv'],
      ['acima de 10 MB', 'x'.repeat(10 * 1024 * 1024 + 10), 'text/csv'],
      ['CSV como JSON', '"schedulingId;candidateName"', 'application/json'],
      ['CSV como imagem', 'schedulingId;candidateName\r\n', 'image/png'],
    ];
    const failures: string[] = [];
    for (const [name, payload, contentType] of files) {
      const before = await snapshot();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/Exam/import',
        headers: { ...admin.auth, 'content-type': contentType },
        payload,
      });
      const problem = answerProblem(response);
      if (problem) failures.push(`${name}: ${problem}`);
      if (response.statusCode < 400) failures.push(`${name}: aceito com ${response.statusCode}`);
      const changes = snapshotDiff(before, await snapshot());
      if (changes.length > 0) failures.push(`${name}: gravou ${changes.join(', ')}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  describe('CSV formula injection', () => {
    /** Cells a spreadsheet would run as a formula (OWASP CSV injection). */
    const FORMULAS = [
      '=HYPERLINK("http://x.invalid";"clique")',
      '+SUM(1;2)',
      '-2+3+cmd|" /C calc"!A0',
      '@SUM(A1:A2)',
      '\t=1+1',
      '\r=1+1',
    ];
    const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`;

    it('imported cells that look like formulas are stored as text, and every export neutralises them', async () => {
      const locals = FORMULAS.map((formula, index) => ({
        identifier: `DF.FORMULA${index}`,
        description: `${formula} posto`,
      }));
      for (const local of locals) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/SchedulingLocal',
          headers: admin.auth,
          payload: local,
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      const header =
        'schedulingId;candidateName;candidateCpf;schedulingDate;schedulingLocal;room;station';
      const rows = FORMULAS.map((formula, index) =>
        [
          `CSV-F${index}`,
          csvCell(`${formula} Nome`),
          '529.982.247-25',
          '21/11/2026 09:30',
          `DF.FORMULA${index}-S1`,
          csvCell(`${formula} sala`),
          csvCell(`${formula} estação`),
        ].join(';'),
      );
      const imported = await t.app.inject({
        method: 'POST',
        url: '/api/Exam/import',
        headers: { ...admin.auth, 'content-type': 'text/csv' },
        payload: [header, ...rows].join('\r\n'),
      });
      expect(imported.statusCode, imported.body).toBeLessThan(300);
      for (const [index, formula] of FORMULAS.entries()) {
        const detail = await t.app.inject({
          method: 'GET',
          url: `/api/Exam/CSV-F${index}`,
          headers: admin.auth,
        });
        expect(detail.statusCode, detail.body).toBe(200);
        // Stored as the text that was sent (trimmed), never evaluated nor altered.
        expect((detail.json() as { exam: { candidateName: string } }).exam.candidateName).toBe(
          `${formula} Nome`.trim(),
        );
      }

      const period = { startDate: '2026-11-01', endDate: '2026-11-30', localId: 'all' };
      const csv = await t.app.inject({
        method: 'GET',
        url: '/api/ExamReport/export',
        headers: admin.auth,
        query: { ...period, format: 'csv' },
      });
      expect(csv.statusCode, csv.body).toBe(200);
      const text = csv.rawPayload.toString('utf8').replace(/^\uFEFF/, '');
      const fields = text
        .split('\r\n')
        .flatMap((line) => line.split(';'))
        .map((field) => field.replace(/^"/, ''));
      const named = fields.filter((field) => field.includes(' posto'));
      expect(named.length).toBeGreaterThanOrEqual(FORMULAS.length);
      for (const field of named) expect(field, field).toMatch(/^'?[^=+\-@\t\r]/);

      const xlsx = await t.app.inject({
        method: 'GET',
        url: '/api/ExamReport/export',
        headers: admin.auth,
        query: { ...period, format: 'xlsx' },
      });
      expect(xlsx.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const cells: ExcelJS.Cell[] = [];
      workbook
        .getWorksheet('Relatório')!
        .eachRow((row) => row.eachCell((cell) => cells.push(cell)));
      const formulaCells = cells.filter((cell) => String(cell.value).includes(' posto'));
      expect(formulaCells.length).toBeGreaterThanOrEqual(FORMULAS.length);
      for (const cell of formulaCells) {
        // A string cell, never a formula the spreadsheet would run.
        expect(cell.type, String(cell.value)).toBe(ExcelJS.ValueType.String);
        expect(cell.formula).toBeUndefined();
      }
    }, 60_000);
  });
});
