/**
 * Enrolment and verification through the API, on the real engine and the dev
 * fixture photos (never holdout): the same person matches, another person
 * does not, a photo without a face and a group photo get clear errors, bad
 * images are refused, each picture is decoded, re-encoded and analysed once,
 * and every verification and image view is recorded. The rules decided
 * before the engine runs (the unit of the request, the burst's size) are
 * tested on both database tiers, without the engine.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FACE_CORE_OPTIONS,
  faceApiDescriptorVersionOf,
  FaceEngine,
  LEGACY_DESCRIPTOR_VERSION,
  type FaceService,
} from '../../biometrics/face-engine';
import { createFaceService } from '../../biometrics/face-pool';
import { templateAad } from '../../lib/file-storage';
import {
  FACE_BURST_MAX_FRAMES,
  FACE_CAPTURE_MAX_CHARS,
  FACE_VERIFY_BODY_LIMIT,
  similarityLevel,
} from '@exame/shared';
import {
  burstAround,
  devPhoto,
  photoWithoutFace,
  sideBySide,
  webcamFrame,
} from '../../../test/faces/captures';
import { countingFaceService, tally } from '../../../test/faces/counting-face-service';
import { faceFixturesDir, hasFaceFixtures } from '../../../test/faces/fixtures';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn, seedUser } from '../../../test/identity';

const skipReason = !hasFaceFixtures('dev')
  ? `SKIPPED: face fixtures not found at ${faceFixturesDir()}/dev (set FACE_FIXTURES_DIR)`
  : process.env.TEST_DATABASE_URL
    ? 'SKIPPED: the engine runs once, on the embedded database tier'
    : '';
if (skipReason) console.warn(`BiopassID tests ${skipReason}`);

const b64 = (buffer: Buffer) => buffer.toString('base64');

const countRows = async (t: TestApp, query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;

describe('api/BiopassID rules decided before the engine runs', () => {
  let t: TestApp;
  let dfAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  beforeAll(async () => {
    // No face service given: the app's own is started on first use, which these calls never reach.
    t = await buildTestApp();
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const picture = 'A'.repeat(64);

  it('a uf other than the caller’s unit, valid or not, is refused with a clear message and not recorded', async () => {
    const cpf = nextCpf();
    for (const uf of ['SP', 'XX', '<b>', '']) {
      const verify = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: dfAdmin.auth,
        payload: { cpf, image: picture, frames: [picture], uf },
      });
      expect(verify.statusCode, uf).toBe(403);
      expect(verify.json(), uf).toMatchObject({
        Error:
          'A unidade informada não é a sua unidade. A validação facial só pode ser feita na unidade do usuário conectado.',
        code: 'FACE_UNIT_MISMATCH',
      });
      const enrol = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: dfAdmin.auth,
        payload: { cpf, images: [picture], uf },
      });
      expect(enrol.statusCode, uf).toBe(403);
      expect(enrol.json().code, uf).toBe('FACE_UNIT_MISMATCH');
    }
    expect(await countRows(t, sql`select count(*)::int as n from biometric_verifications`)).toBe(0);
    // The caller's own unit, however it is written, or no uf at all, goes on to the next rule.
    for (const uf of ['DF', 'df', ' DF ', undefined]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: dfAdmin.auth,
        payload: { cpf, image: picture, uf },
      });
      expect(response.json().code, String(uf)).toBe('FACE_LIVENESS_REQUIRED');
    }
  });

  it('image and frames together form the burst: without another frame the verification is refused and recorded', async () => {
    const cpf = nextCpf();
    for (const frames of [undefined, []]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: dfAdmin.auth,
        payload: { cpf, image: picture, frames, uf: 'DF' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        Error:
          'A validação facial precisa da sequência de quadros capturada pela câmera. Capture novamente.',
        code: 'FACE_LIVENESS_REQUIRED',
      });
    }
    expect(
      await countRows(
        t,
        sql`select count(*)::int as n from biometric_verifications where cpf = ${cpf} and error_code = 'FACE_LIVENESS_REQUIRED' and match = false`,
      ),
    ).toBe(2);
    // `frames` carries the burst without `image`: at most FACE_BURST_MAX_FRAMES of them.
    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: dfAdmin.auth,
      payload: {
        cpf,
        image: picture,
        frames: Array.from({ length: FACE_BURST_MAX_FRAMES + 1 }, () => picture),
        uf: 'DF',
      },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().code).toBe('VALIDATION_ERROR');
  });

  it('x-device-id follows the rule of the body field, and a valid one is what the record keeps', async () => {
    const cpf = nextCpf();
    const verify = (headers: Record<string, string>, payload: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: { ...dfAdmin.auth, ...headers },
        payload: { cpf, image: picture, uf: 'DF', ...payload },
      });
    for (const device of [`<script>${'x'.repeat(500)}`, 'dispositivo-qualquer', '']) {
      const refused = await verify({ 'x-device-id': device });
      expect(refused.statusCode, device).toBe(400);
      expect(refused.json().code, device).toBe('VALIDATION_ERROR');
    }
    expect(
      (await verify({}, { deviceId: 'dispositivo-qualquer' })).json().code,
      'the body field',
    ).toBe('VALIDATION_ERROR');
    // Refused by the schema: nothing was recorded.
    expect(
      await countRows(
        t,
        sql`select count(*)::int as n from biometric_verifications where cpf = ${cpf}`,
      ),
    ).toBe(0);
    // A valid one passes the schema and is stored with the refusal that follows (no burst).
    const device = 'a3e0c9f2-5b1d-4c8e-9f7a-0123456789ab';
    const recorded = await verify({ 'x-device-id': device });
    expect(recorded.json().code).toBe('FACE_LIVENESS_REQUIRED');
    const rows = (
      (await t.database.db.execute(
        sql`select device_id from biometric_verifications where cpf = ${cpf}`,
      )) as unknown as { rows: Array<{ device_id: string | null }> }
    ).rows;
    expect(rows).toEqual([{ device_id: device }]);
  });
});

describe.skipIf(Boolean(skipReason))(`api/BiopassID ${skipReason}`.trim(), () => {
  let face: FaceService;
  let counting: ReturnType<typeof countingFaceService>;
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;
  let person: Awaited<ReturnType<typeof seedUser>>;
  let other: Awaited<ReturnType<typeof seedUser>>;

  beforeAll(async () => {
    face = await createFaceService({ inProcess: true });
    // The real engine, counted: every result is the engine's own.
    counting = countingFaceService(face);
    // This suite verifies the same people many times on purpose; the limits have their own test.
    t = await buildTestApp({
      faceService: counting.service,
      rateLimits: { verifyPerCpf: { limit: 1000 }, verifyPerUser: { limit: 1000 } },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    person = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Pessoa Um' });
    other = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Pessoa Três' });
  }, 180_000);
  afterAll(async () => {
    counting?.stop();
    await t?.close();
    await face?.close();
  });

  const enrol = (cpf: string, images: string[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Create',
      headers: admin.auth,
      payload: { cpf, images },
    });
  /**
   * The other frames the capture modal would send with `image` (for an image
   * sharp cannot read, another copy of it).
   */
  const burstOf = async (image: string) =>
    (await burstAround(Buffer.from(image, 'base64')).catch(() => null))?.slice(1).map(b64) ?? [
      image,
    ];
  const verify = async (
    cpf: string,
    image: string,
    extra: Record<string, unknown> = {},
    auth = admin.auth,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: auth,
      payload: {
        cpf,
        image,
        frames: 'frames' in extra ? undefined : await burstOf(image),
        uf: 'DF',
        local: 'DF.POSTO01',
        deviceId: 'c1f1a5f0-1111-4aaa-8bbb-222233334444',
        ...extra,
      },
    });

  it('enrols from several captures of the same person and stores nothing in the clear', async () => {
    const response = await enrol(person.cpf, [
      b64(await devPhoto('p01-1.jpg')),
      b64(await devPhoto('p01-3.jpg')),
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ cpf: person.cpf, captures: 2 });
    const [row] = (
      (await t.database.db.execute(
        sql`select template_sealed, image_keys from biometric_templates where cpf = ${person.cpf}`,
      )) as unknown as {
        rows: Array<{ template_sealed: string; image_keys: string[] }>;
      }
    ).rows;
    expect(row?.image_keys).toHaveLength(2);
    // Sealed: no JSON array of numbers is readable.
    expect(Buffer.from(row?.template_sealed ?? '', 'base64').toString('utf8')).not.toMatch(
      /\[\[-?0\.\d+/,
    );
  });

  it('the same person matches (a webcam-sized frame of another capture)', async () => {
    const response = await verify(person.cpf, b64(await webcamFrame('p01-2.jpg')));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      match: true,
      verified: true,
      message: 'Sua validação biométrica foi concluída.',
    });
    expect(body.distance).toBeLessThan(body.threshold);
    expect(body.liveness).toMatchObject({ checked: true, passed: true });
  });

  it('each picture is decoded, re-encoded and analysed once, and the burst check reads those analyses', async () => {
    const [image, ...frames] = await burstAround(await webcamFrame('p01-2.jpg'));
    counting.reset();
    const response = await verify(person.cpf, b64(image!), { frames: frames.map(b64) });
    expect(response.json()).toMatchObject({ verified: true, liveness: { passed: true } });
    const { normalised, analysed, burstChecks } = counting.passes;
    // Three pictures sent (image + 2 frames): three decodes and re-encodes, three analyses.
    expect(normalised).toHaveLength(3);
    expect(analysed).toHaveLength(3);
    // Each clean picture analysed exactly once, and nothing else analysed.
    expect([...tally(analysed).values()]).toEqual([1, 1, 1]);
    expect(new Set(analysed)).toEqual(new Set(normalised));
    // One burst check over the three analyses, `image` included.
    expect(burstChecks).toEqual([3]);
  });

  it('a still picture sent again as the only frame is checked and fails, never passes', async () => {
    const image = b64(await webcamFrame('p01-2.jpg'));
    const response = await verify(person.cpf, image, { frames: [image] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      match: true,
      verified: false,
      liveness: { checked: true, passed: false, checks: { notIdentical: false } },
    });
  });

  it('another person does not match', async () => {
    const response = await verify(person.cpf, b64(await devPhoto('p03-1.jpg')));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      match: false,
      verified: false,
      message: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    });
  });

  it('a photo without a face and a group photo get clear pt-BR errors', async () => {
    const none = await verify(person.cpf, b64(await photoWithoutFace('p01-1.jpg')));
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('FACE_NOT_FOUND');
    expect(none.json().Error).toMatch(/^Nenhum rosto foi encontrado/);
    const group = await verify(person.cpf, b64(await sideBySide('p01-2.jpg', 'p03-1.jpg')));
    expect(group.statusCode).toBe(422);
    expect(group.json().code).toBe('FACE_MULTIPLE');
  });

  it('bad images are refused cleanly', async () => {
    const jpeg = await devPhoto('p01-2.jpg');
    const cases: Record<string, string> = {
      'not an image': b64(Buffer.from('não sou uma foto, sou um texto qualquer')),
      truncated: b64(jpeg.subarray(0, Math.floor(jpeg.length / 3))),
      svg: b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
    };
    for (const [name, image] of Object.entries(cases)) {
      const response = await verify(person.cpf, image);
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, name).toBeLessThan(500);
      expect(response.json().code, name).toMatch(/^IMAGE_/);
    }
    // One picture above the cap of a camera capture: a validation error naming the limit.
    const oversize = await verify(person.cpf, 'A'.repeat(FACE_CAPTURE_MAX_CHARS + 4), {
      frames: [],
    });
    expect(oversize.statusCode).toBe(400);
    expect(JSON.stringify(oversize.json().details)).toMatch(/grande demais/);
    // A body above what a picture and its burst can weigh is refused before it is parsed.
    const huge = await verify(person.cpf, 'A'.repeat(FACE_VERIFY_BODY_LIMIT), { frames: [] });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(FACE_VERIFY_BODY_LIMIT).toBeLessThan(8 * 1024 * 1024);
  });

  it('a burst of frames is checked for liveness and reported; an identical burst fails the check', async () => {
    const frames = await Promise.all([
      webcamFrame('p01-2.jpg', 0, 0),
      webcamFrame('p01-2.jpg', 6, 3),
      webcamFrame('p01-2.jpg', 12, 5),
    ]);
    const live = await verify(person.cpf, b64(frames[0]!), { frames: frames.slice(1).map(b64) });
    expect(live.json().liveness).toMatchObject({ checked: true, passed: true });
    expect(live.json().liveness.checks).toHaveProperty('notIdentical');
    const still = b64(frames[0]!);
    const replay = await verify(person.cpf, still, { frames: [still, still] });
    expect(replay.json()).toMatchObject({
      match: true,
      verified: false,
      liveness: { checked: true, passed: false },
    });
    expect(replay.json().message).toMatch(/ao vivo/);
  });

  it('a live burst cannot vouch for another photo: the picture is the first frame of the burst', async () => {
    const frames = await Promise.all([
      webcamFrame('p01-2.jpg', 6, 3),
      webcamFrame('p01-2.jpg', 12, 5),
    ]);
    const photo = await devPhoto('p01-3.jpg');
    const response = await verify(person.cpf, b64(photo), { frames: frames.map(b64) });
    expect(response.json()).toMatchObject({
      verified: false,
      liveness: { checked: true, passed: false, checks: { naturalMotion: false } },
    });
  });

  it('a frame without a usable face fails the burst check, naming the frame', async () => {
    const image = await webcamFrame('p01-2.jpg');
    const response = await verify(person.cpf, b64(image), {
      frames: [b64(await webcamFrame('p01-2.jpg', 6, 3)), b64(await photoWithoutFace('p01-1.jpg'))],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      match: true,
      verified: false,
      liveness: { checked: true, passed: false, checks: null },
    });
    expect(response.json().liveness.note).toMatch(/^Nenhum rosto foi encontrado/);
    const notAPicture = await verify(person.cpf, b64(image), {
      frames: [b64(Buffer.from('não sou uma foto, sou um texto qualquer'))],
    });
    expect(notAPicture.statusCode).toBe(415);
    expect(notAPicture.json()).toMatchObject({
      code: 'IMAGE_UNSUPPORTED_TYPE',
      details: [{ path: 'frames.0' }],
    });
  });

  it('records every verification with who, device, result and score', async () => {
    const rows = (
      (await t.database.db.execute(
        sql`select requested_by, device_id, match, distance, error_code from biometric_verifications where cpf = ${person.cpf} order by created_at`,
      )) as unknown as {
        rows: Array<{
          requested_by: string;
          device_id: string;
          match: boolean;
          distance: number | null;
          error_code: string | null;
        }>;
      }
    ).rows;
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.every((row) => row.requested_by === admin.user.id)).toBe(true);
    expect(rows.every((row) => row.device_id === 'c1f1a5f0-1111-4aaa-8bbb-222233334444')).toBe(
      true,
    );
    expect(rows.some((row) => row.match && row.distance !== null)).toBe(true);
    expect(rows.map((row) => row.error_code)).toEqual(
      expect.arrayContaining(['FACE_NOT_FOUND', 'FACE_MULTIPLE']),
    );
  });

  it('enrolment refuses captures of different people and CPFs outside the unit', async () => {
    const mixed = await enrol(other.cpf, [
      b64(await devPhoto('p01-1.jpg')),
      b64(await devPhoto('p03-1.jpg')),
    ]);
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().code).toBe('FACE_ENROL_INCONSISTENT');
    const foreign = await seedUser(t.app, { role: 'VIEWER', unit: 'SP' });
    const outside = await enrol(foreign.cpf, [b64(await devPhoto('p02-1.jpg'))]);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().Error).toBe('Usuário não encontrado!');
    const notEnrolled = await verify(other.cpf, b64(await devPhoto('p03-1.jpg')));
    expect(notEnrolled.json().code).toBe('BIOMETRIC_NOT_ENROLLED');
  });

  it('outside DF the validation is not run', async () => {
    const spViewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    const response = await verify(
      spViewer.user.cpf,
      b64(await devPhoto('p01-2.jpg')),
      {},
      spViewer.auth,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      Error: 'A validação facial está disponível apenas para o Distrito Federal',
      code: 'FACE_VALIDATION_UNAVAILABLE',
    });
  });

  it('enrolment captures are served by signed address and every view is logged', async () => {
    const enrolment = await t.app.inject({
      method: 'GET',
      url: `/api/BiopassID/${person.cpf}`,
      headers: admin.auth,
    });
    expect(enrolment.statusCode).toBe(200);
    const url = enrolment.json().captures[0].url as string;
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('private, no-store');
    const tampered = await t.app.inject({
      method: 'GET',
      url: url.replace(/expires=\d+/, 'expires=99999999999999'),
    });
    expect(tampered.statusCode).toBe(403);
    const views = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from activity_log where type = 'face_image_view'`,
      )) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows[0]?.n;
    expect(views).toBe(1);
    // The LGPD question, asked of this real view with one filter: who saw this person's face?
    const whoSaw = await t.app.inject({
      method: 'GET',
      url: `/api/ActivityLog?target=${encodeURIComponent(person.cpf)}&type=face_image_view`,
      headers: admin.auth,
    });
    expect(whoSaw.statusCode, whoSaw.body).toBe(200);
    expect(whoSaw.json()).toMatchObject({
      total: 1,
      items: [{ type: 'face_image_view', actorName: admin.user.name, federativeUnit: 'DF' }],
    });
  });

  type TemplateRow = {
    id: string;
    template_sealed: string;
    descriptor_version: string | null;
    image_keys: string[];
  };
  const templateOf = async (cpf: string) =>
    (
      (await t.database.db.execute(
        sql`select id, template_sealed, descriptor_version, image_keys from biometric_templates where cpf = ${cpf}`,
      )) as unknown as { rows: TemplateRow[] }
    ).rows[0];
  const openSealed = (sealed: string, cpf: string): number[][] =>
    JSON.parse(
      t.app.files.open(Buffer.from(sealed, 'base64'), templateAad('DF', cpf)).toString('utf8'),
    ) as number[][];
  /**
   * Turns an enrolment into one made by an earlier engine: by default before
   * descriptor versions (one crop per face, version null); with `v1`, by
   * engine v1 (face-api's 128-d descriptor alone, 3 crops, its version).
   * Both stored face-api's 128 numbers per capture only.
   */
  const makeLegacy = async (cpf: string, engine: 'legacy' | 'v1' = 'legacy') => {
    const row = await templateOf(cpf);
    if (!row) throw new Error('sem cadastro');
    const jitterCrops = engine === 'v1' ? 3 : 1;
    const version = engine === 'v1' ? faceApiDescriptorVersionOf(DEFAULT_FACE_CORE_OPTIONS) : null;
    if (engine === 'legacy') {
      expect(faceApiDescriptorVersionOf({ jitterCrops, brightenFacesTo: 100 }, '1.7.15')).toBe(
        LEGACY_DESCRIPTOR_VERSION,
      );
    }
    const old = new FaceEngine({ jitterCrops });
    const descriptors = [];
    for (const key of row.image_keys) {
      const { descriptor } = await old.analyze(await t.app.files.read(key));
      expect(descriptor).toHaveLength(128);
      descriptors.push(descriptor);
    }
    await old.close();
    const sealed = t.app.files
      .seal(Buffer.from(JSON.stringify(descriptors)), templateAad('DF', cpf))
      .toString('base64');
    await t.database.db.execute(
      sql`update biometric_templates set template_sealed = ${sealed}, descriptor_version = ${version} where id = ${row.id}`,
    );
    return { ...row, template_sealed: sealed, descriptor_version: version };
  };

  it('a template of engine v1 (face-api alone) is upgraded to both descriptors from its captures', async () => {
    const subject = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect(
      (
        await enrol(subject.cpf, [
          b64(await devPhoto('p01-1.jpg')),
          b64(await devPhoto('p01-2.jpg')),
          b64(await devPhoto('p01-3.jpg')),
        ])
      ).statusCode,
    ).toBe(201);
    const current = await templateOf(subject.cpf);
    const expected = openSealed(current?.template_sealed ?? '', subject.cpf);
    expect(expected.map((entry) => entry.length)).toEqual([320, 320, 320]);
    const v1 = await makeLegacy(subject.cpf, 'v1');
    expect(v1.descriptor_version).not.toBe(face.descriptorVersion);
    expect(face.descriptorVersion.startsWith(`${v1.descriptor_version};`)).toBe(true);

    // The impostor v1 accepted for p01-1 (p05-1) is refused once upgraded...
    const impostor = await verify(subject.cpf, b64(await devPhoto('p05-1.jpg')));
    expect(impostor.statusCode).toBe(200);
    expect(impostor.json()).toMatchObject({ match: false, verified: false });
    const upgraded = await templateOf(subject.cpf);
    expect(upgraded?.descriptor_version).toBe(face.descriptorVersion);
    const after = openSealed(upgraded?.template_sealed ?? '', subject.cpf);
    expect(after.map((entry) => entry.length)).toEqual([320, 320, 320]);
    after.forEach((entry, i) =>
      entry.forEach((value, j) => expect(value).toBeCloseTo(expected[i]?.[j] ?? NaN, 5)),
    );
    const log = (
      (await t.database.db.execute(
        sql`select payload from activity_log where type = 'biometric_template_upgrade' and payload->>'cpf' = ${subject.cpf}`,
      )) as unknown as { rows: Array<{ payload: Record<string, unknown> }> }
    ).rows;
    expect(log).toEqual([
      {
        payload: {
          cpf: subject.cpf,
          from: v1.descriptor_version,
          to: face.descriptorVersion,
          captures: 3,
          leftOut: [],
        },
      },
    ]);
    // ...and the person is still recognised, on the mean over the three captures.
    const genuine = await verify(subject.cpf, b64(await webcamFrame('p01-5.jpg')));
    expect(genuine.json()).toMatchObject({ match: true, verified: true });
    expect(genuine.json().distance).toBeLessThan(genuine.json().threshold);
  });

  it('a template of an earlier engine version is recomputed from its captures, saved and logged', async () => {
    const subject = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect(
      (
        await enrol(subject.cpf, [
          b64(await devPhoto('p02-1.jpg')),
          b64(await devPhoto('p02-2.jpg')),
        ])
      ).statusCode,
    ).toBe(201);
    const current = await templateOf(subject.cpf);
    expect(current?.descriptor_version).toBe(face.descriptorVersion);
    expect(face.descriptorVersion).not.toBe(LEGACY_DESCRIPTOR_VERSION);
    const legacy = await makeLegacy(subject.cpf);
    // The two versions really differ: comparing across them would add noise to every decision.
    const before = openSealed(legacy.template_sealed, subject.cpf);
    const expected = openSealed(current?.template_sealed ?? '', subject.cpf);
    expect(before[0]).not.toEqual(expected[0]);

    const response = await verify(subject.cpf, b64(await webcamFrame('p02-3.jpg')));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ match: true, verified: true });

    const upgraded = await templateOf(subject.cpf);
    expect(upgraded?.descriptor_version).toBe(face.descriptorVersion);
    expect(upgraded?.image_keys).toEqual(legacy.image_keys);
    const after = openSealed(upgraded?.template_sealed ?? '', subject.cpf);
    expect(after).toHaveLength(2);
    after.forEach((descriptor, i) =>
      descriptor.forEach((value, j) => expect(value).toBeCloseTo(expected[i]?.[j] ?? NaN, 5)),
    );
    const log = (
      (await t.database.db.execute(
        sql`select payload from activity_log where type = 'biometric_template_upgrade' and payload->>'cpf' = ${subject.cpf}`,
      )) as unknown as { rows: Array<{ payload: Record<string, unknown> }> }
    ).rows;
    expect(log).toEqual([
      {
        payload: {
          cpf: subject.cpf,
          from: LEGACY_DESCRIPTOR_VERSION,
          to: face.descriptorVersion,
          captures: 2,
          leftOut: [],
        },
      },
    ]);
    // Once upgraded it is used as is.
    expect((await verify(subject.cpf, b64(await devPhoto('p02-4.jpg')))).json().match).toBe(true);
    expect(
      (
        (await t.database.db.execute(
          sql`select count(*)::int as n from activity_log where type = 'biometric_template_upgrade' and payload->>'cpf' = ${subject.cpf}`,
        )) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]?.n,
    ).toBe(1);
  });

  it('an old-version template with one capture gone is recomputed from the ones left', async () => {
    const subject = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect(
      (
        await enrol(subject.cpf, [
          b64(await devPhoto('p02-1.jpg')),
          b64(await devPhoto('p02-3.jpg')),
        ])
      ).statusCode,
    ).toBe(201);
    const legacy = await makeLegacy(subject.cpf);
    await t.app.files.remove(legacy.image_keys[0] ?? '');
    const response = await verify(subject.cpf, b64(await devPhoto('p02-4.jpg')));
    expect(response.statusCode).toBe(200);
    expect(response.json().match).toBe(true);
    const row = await templateOf(subject.cpf);
    expect(row?.descriptor_version).toBe(face.descriptorVersion);
    expect(openSealed(row?.template_sealed ?? '', subject.cpf)).toHaveLength(1);
  });

  it('an old-version template whose captures are gone asks for a new enrolment and is left as it was', async () => {
    const subject = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await enrol(subject.cpf, [b64(await devPhoto('p02-1.jpg'))])).statusCode).toBe(201);
    const legacy = await makeLegacy(subject.cpf);
    for (const key of legacy.image_keys) await t.app.files.remove(key);
    const response = await verify(subject.cpf, b64(await devPhoto('p02-2.jpg')));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      Error:
        'O cadastro facial deste CPF foi feito por uma versão anterior do reconhecimento facial e não pôde ser atualizado. Faça um novo cadastro facial.',
      code: 'FACE_TEMPLATE_OUTDATED',
      details: [{ path: 'captures.0', message: expect.stringMatching(/^FILE_UNAVAILABLE: /) }],
    });
    const row = await templateOf(subject.cpf);
    expect(row?.descriptor_version).toBeNull();
    expect(row?.template_sealed).toBe(legacy.template_sealed);
  });
  it('examiners get the decision and the level; AUDITOR also the match and checks; only ADMIN the numbers', async () => {
    const image = b64(await webcamFrame('p01-2.jpg'));
    const full = (await verify(person.cpf, image, {}, admin.auth)).json();
    expect(full).toMatchObject({ verified: true, match: true });
    expect(typeof full.distance).toBe('number');
    expect(typeof full.similarity).toBe('number');
    expect(full.threshold).toBe(face.threshold);
    expect(full.liveness.checks).toBeTruthy();
    // The level follows from the numbers ADMIN sees.
    expect(full.similarityLevel).toBe(similarityLevel(full.distance, full.threshold));
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const judged = (await verify(person.cpf, image, {}, auditor.auth)).json();
    expect(Object.keys(judged).sort()).toEqual([
      'cpf',
      'liveness',
      'match',
      'message',
      'similarityLevel',
      'verificationId',
      'verified',
    ]);
    expect(judged).toMatchObject({
      verified: true,
      match: true,
      similarityLevel: full.similarityLevel,
    });
    expect(judged.liveness.checks).toBeTruthy();
    for (const role of ['VIEWER', 'ROOM_INSPECTOR'] as const) {
      const examiner = await seedSignedIn(t.app, { role, unit: 'DF' });
      const response = await verify(person.cpf, image, {}, examiner.auth);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual([
        'cpf',
        'message',
        'similarityLevel',
        'verificationId',
        'verified',
      ]);
      expect(body).toMatchObject({
        verified: true,
        message: 'Sua validação biométrica foi concluída.',
        similarityLevel: full.similarityLevel,
      });
    }
    // Another person: refused, and the level says so, without a number.
    const examiner = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const refused = (
      await verify(person.cpf, b64(await devPhoto('p03-1.jpg')), {}, examiner.auth)
    ).json();
    expect(refused).toMatchObject({ verified: false, similarityLevel: 'baixa' });
    expect(refused.distance).toBeUndefined();
    // Six verifications on the real engine: more than the default 30 s on a busy machine.
  }, 150_000);

  it('x-device-id follows the rule of the body field', async () => {
    const image = b64(await webcamFrame('p01-2.jpg'));
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: { ...admin.auth, 'x-device-id': `<script>${'x'.repeat(500)}` },
      payload: { cpf: person.cpf, image, frames: await burstOf(image), uf: 'DF' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const badBody = await verify(person.cpf, image, { deviceId: 'dispositivo-qualquer' });
    expect(badBody.statusCode).toBe(400);
    const device = 'a3e0c9f2-5b1d-4c8e-9f7a-0123456789ab';
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: { ...admin.auth, 'x-device-id': device },
      payload: { cpf: person.cpf, image, frames: await burstOf(image), uf: 'DF' },
    });
    expect(good.statusCode).toBe(200);
    const stored = (
      (await t.database.db.execute(
        sql`select device_id from biometric_verifications where id = ${good.json().verificationId}`,
      )) as unknown as { rows: Array<{ device_id: string }> }
    ).rows[0]?.device_id;
    expect(stored).toBe(device);
  });

  it("a template copied into another person's row does not open: the swap gives no match", async () => {
    const victim = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await enrol(victim.cpf, [b64(await devPhoto('p02-1.jpg'))])).statusCode).toBe(201);
    // A database writer puts the enrolled person's sealed template into the victim's row.
    await t.database.db.execute(
      sql`update biometric_templates set template_sealed = (select template_sealed from biometric_templates where cpf = ${person.cpf}) where cpf = ${victim.cpf}`,
    );
    const response = await verify(victim.cpf, b64(await webcamFrame('p01-2.jpg')));
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('FACE_TEMPLATE_INVALID');
  });
});
