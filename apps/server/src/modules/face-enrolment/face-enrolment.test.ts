/**
 * Enrolment and verification through the API, on the real engine and the dev
 * fixture photos (never holdout), each capture a live take answering its
 * challenge (the challenge's own rules: face-challenges.test.ts):
 * the same person matches, another person does not, a picture without a face
 * and a group photo get clear errors naming the picture, bad images are
 * refused, each picture is decoded, re-encoded and analysed once, a take that
 * does not follow its challenge writes nothing, and every verification and
 * image view is recorded. The rules decided before the engine runs (the unit
 * of the request, the challenge, the take's size) are tested on both database
 * tiers, without the engine.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_FACE_CORE_OPTIONS,
  faceApiDescriptorVersionOf,
  LEGACY_DESCRIPTOR_VERSION,
  type FaceService,
} from '../../biometrics/face-engine';
import { FacePool } from '../../biometrics/face-pool';
import { templateAad } from '../../lib/file-storage';
import {
  FACE_BURST_MAX_FRAMES,
  FACE_CAPTURE_MAX_CHARS,
  FACE_VERIFY_BODY_LIMIT,
  similarityLevel,
  type FaceChallengeRequest,
  type FaceMove,
} from '@exame/shared';
import { devPhoto, photoWithoutFace, sideBySide, webcamFrame } from '../../../test/faces/captures';
import { tally, type countingFaceService } from '../../../test/faces/counting-face-service';
import { otherFaceTake } from '../../../test/faces/synthetic-takes';
import { asBody, devSource, genuineBody, requestChallenge } from '../../../test/faces/takes';
import { buildCountedFaceApp, enrolFace } from '../../../test/face-app';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn, seedUser } from '../../../test/identity';
import { upsertTemplate } from './face-enrolment.repository';
import { faceEngineSkipReason } from '../../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('BiopassID tests');

const b64 = (buffer: Buffer) => buffer.toString('base64');

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Take = { image: string; frames: string[] };

const countRows = async (t: TestApp, query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;

describe('api/BiopassID rules decided before the engine runs', () => {
  let t: TestApp;
  let dfAdmin: Signed;
  beforeAll(async () => {
    // No face service given: the app's own is started on first use, which these calls never reach.
    t = await buildTestApp();
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const picture = 'A'.repeat(64);
  /** An enrolment written as the engine would (its content is never read here). */
  const enrolled = async () => {
    const cpf = nextCpf();
    await upsertTemplate(
      t.database.db,
      {
        federativeUnit: 'DF',
        cpf,
        templateSealed: 'selado',
        descriptorVersion: 'v-teste',
        imageKeys: [],
        enrolledBy: dfAdmin.user.id,
      },
      new Date(),
    );
    return cpf;
  };
  const verify = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: { ...dfAdmin.auth, ...headers },
      payload,
    });
  const challengeId = async (cpf: string) =>
    (await requestChallenge(t.app, dfAdmin.token, { purpose: 'verification', cpf })).challengeId;

  it('a uf other than the caller’s unit, valid or not, is refused with a clear message and not recorded', async () => {
    const cpf = await enrolled();
    for (const uf of ['SP', 'XX', '<b>', '']) {
      const refused = await verify({
        cpf,
        challengeId: await challengeId(cpf),
        image: picture,
        frames: [picture, picture, picture],
        uf,
      });
      expect(refused.statusCode, uf).toBe(403);
      expect(refused.json(), uf).toMatchObject({
        Error:
          'A unidade informada não é a sua unidade. A validação facial só pode ser feita na unidade do usuário conectado.',
        code: 'FACE_UNIT_MISMATCH',
      });
      const enrol = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: dfAdmin.auth,
        payload: { cpf, image: picture, frames: [picture, picture, picture], uf },
      });
      expect(enrol.statusCode, uf).toBe(403);
      expect(enrol.json().code, uf).toBe('FACE_UNIT_MISMATCH');
    }
    expect(await countRows(t, sql`select count(*)::int as n from biometric_verifications`)).toBe(0);
    // The caller's own unit, however it is written, or no uf at all, goes on to the next rule.
    for (const uf of ['DF', 'df', ' DF ', undefined]) {
      const response = await verify({ cpf, image: picture, uf });
      expect(response.json().code, String(uf)).toBe('FACE_CHALLENGE_REQUIRED');
    }
  });

  it('a take needs its challenge and exactly its pictures: refused before the engine, and nothing recorded', async () => {
    const cpf = await enrolled();
    for (const frames of [undefined, [], [picture, picture, picture]]) {
      const response = await verify({ cpf, image: picture, frames, uf: 'DF' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        Error:
          'A captura precisa de um desafio novo (os movimentos pedidos na tela). Comece a captura novamente.',
        code: 'FACE_CHALLENGE_REQUIRED',
      });
    }
    // `image` alone, or with a frame: fewer pictures than any challenge asks (4 or 5).
    for (const frames of [undefined, [], [picture]]) {
      const response = await verify({
        cpf,
        challengeId: await challengeId(cpf),
        image: picture,
        frames,
        uf: 'DF',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('FACE_CHALLENGE_FRAMES');
    }
    expect(
      await countRows(
        t,
        sql`select count(*)::int as n from biometric_verifications where cpf = ${cpf}`,
      ),
    ).toBe(0);
    // `frames` carries the take without `image`: at most FACE_BURST_MAX_FRAMES of them.
    const tooMany = await verify({
      cpf,
      challengeId: await challengeId(cpf),
      image: picture,
      frames: Array.from({ length: FACE_BURST_MAX_FRAMES + 1 }, () => picture),
      uf: 'DF',
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().code).toBe('VALIDATION_ERROR');
  });

  it('x-device-id follows the rule of the body field', async () => {
    const cpf = await enrolled();
    const payload = { cpf, image: picture, uf: 'DF' };
    for (const device of [`<script>${'x'.repeat(500)}`, 'dispositivo-qualquer', '']) {
      const refused = await verify(payload, { 'x-device-id': device });
      expect(refused.statusCode, device).toBe(400);
      expect(refused.json().code, device).toBe('VALIDATION_ERROR');
    }
    expect(
      (await verify({ ...payload, deviceId: 'dispositivo-qualquer' })).json().code,
      'the body field',
    ).toBe('VALIDATION_ERROR');
    // A valid one passes the schema, on to the challenge (the engine suite records one).
    const passed = await verify(payload, { 'x-device-id': 'a3e0c9f2-5b1d-4c8e-9f7a-0123456789ab' });
    expect(passed.json().code).toBe('FACE_CHALLENGE_REQUIRED');
    // Refused: nothing was recorded.
    expect(
      await countRows(
        t,
        sql`select count(*)::int as n from biometric_verifications where cpf = ${cpf}`,
      ),
    ).toBe(0);
  });
});

describe.skipIf(Boolean(skipReason))(`api/BiopassID ${skipReason}`.trim(), () => {
  let face: FaceService;
  let counting: ReturnType<typeof countingFaceService>;
  let t: TestApp;
  let admin: Signed;
  let person: Awaited<ReturnType<typeof seedUser>>;
  let other: Awaited<ReturnType<typeof seedUser>>;
  const device = 'c1f1a5f0-1111-4aaa-8bbb-222233334444';

  beforeAll(async () => {
    // The real engine, counted: every result is the engine's own.
    ({ face, counting, t } = await buildCountedFaceApp());
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    person = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Pessoa Um' });
    other = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Pessoa Três' });
  }, 180_000);
  afterAll(async () => {
    counting?.stop();
    await t?.close();
    await face?.close();
  });

  /** Genuine takes made once per photo and moves (the challenge decides the moves). */
  const made = new Map<string, Promise<Take>>();
  const genuine = (photo: string) => (steps: readonly FaceMove[]) => {
    const key = `${photo}:${steps.join(',')}`;
    let take = made.get(key);
    if (!take) {
      take = genuineBody(face, photo, steps);
      made.set(key, take);
    }
    return take;
  };
  /** What a take sends: a genuine take of a photo, or pictures made for the challenge's moves. */
  type Capture = string | ((steps: FaceMove[], pictures: number) => Promise<Take>);
  const answer = async (who: Signed, request: FaceChallengeRequest, capture: Capture) => {
    const challenge = await requestChallenge(t.app, who.token, request);
    const take = await (typeof capture === 'string' ? genuine(capture) : capture)(
      challenge.steps,
      challenge.pictures,
    );
    return { challengeId: challenge.challengeId, ...take };
  };
  const enrol = async (cpf: string, capture: Capture) =>
    enrolFace(t.app, admin.auth, cpf, await answer(admin, { purpose: 'enrolment', cpf }, capture));
  const verify = async (
    cpf: string,
    capture: Capture,
    extra: Record<string, unknown> = {},
    who: Signed = admin,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: who.auth,
      payload: {
        cpf,
        ...(await answer(who, { purpose: 'verification', cpf }, capture)),
        uf: 'DF',
        local: 'DF.POSTO01',
        deviceId: device,
        ...extra,
      },
    });
  /** A genuine take of `photo` with picture `index` (0: `image`) replaced. */
  const replacing =
    (photo: string, index: number, picture: Buffer | string): Capture =>
    async (steps) => {
      const take = await genuine(photo)(steps);
      const pictures = [take.image, ...take.frames];
      pictures[index] = typeof picture === 'string' ? picture : b64(picture);
      const [image, ...frames] = pictures;
      return { image: image!, frames };
    };
  const written = async () => ({
    verifications: await countRows(t, sql`select count(*)::int as n from biometric_verifications`),
    templates: await countRows(t, sql`select count(*)::int as n from biometric_templates`),
    files: (await t.app.files.list()).length,
  });

  it('enrols from a live take, a template of its pictures that look at the camera, and stores nothing in the clear', async () => {
    const response = await enrol(person.cpf, 'p01-1.jpg');
    expect(response.statusCode, response.body).toBe(201);
    // The first and the last picture of the take: several frames of one capture.
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

  it('the same person matches (a live take of another photo of her)', async () => {
    const response = await verify(person.cpf, 'p01-3.jpg');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      match: true,
      verified: true,
      message: 'Sua validação biométrica foi concluída.',
    });
    expect(body.distance).toBeLessThan(body.threshold);
    expect(body.liveness).toMatchObject({ checked: true, passed: true });
  });

  it('each picture is decoded, re-encoded and analysed once, and the challenge check reads those analyses', async () => {
    const payload = await answer(admin, { purpose: 'verification', cpf: person.cpf }, 'p01-3.jpg');
    counting.reset();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: admin.auth,
      payload: { cpf: person.cpf, uf: 'DF', deviceId: device, ...payload },
    });
    expect(response.json()).toMatchObject({ verified: true, liveness: { passed: true } });
    const pictures = 1 + payload.frames.length;
    const { normalised, analysed } = counting.passes;
    // One decode and re-encode, and one analysis, per picture sent (4 or 5).
    expect(normalised).toHaveLength(pictures);
    expect(analysed).toHaveLength(pictures);
    // Each clean picture analysed exactly once, and nothing else analysed.
    expect([...tally(analysed).values()]).toEqual(Array.from({ length: pictures }, () => 1));
    expect(new Set(analysed)).toEqual(new Set(normalised));
  });

  it('a still picture sent for every picture of the take is refused, and nothing is recorded', async () => {
    const still = b64(await webcamFrame('p01-2.jpg'));
    const before = await written();
    const response = await verify(person.cpf, async (_steps, pictures) => ({
      image: still,
      frames: Array.from({ length: pictures - 1 }, () => still),
    }));
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('FACE_CHALLENGE_NOT_FOLLOWED');
    expect(await written()).toEqual(before);
  });

  it('another person does not match', async () => {
    const response = await verify(person.cpf, 'p05-1.jpg');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      match: false,
      verified: false,
      message: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    });
  });

  it('a picture without a face and a group photo get clear pt-BR errors naming the picture', async () => {
    const before = await written();
    const none = await verify(
      person.cpf,
      replacing('p01-3.jpg', 0, await photoWithoutFace('p01-1.jpg')),
    );
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('FACE_NOT_FOUND');
    expect(none.json().Error).toMatch(/^Foto 1 da captura: Nenhum rosto foi encontrado/);
    expect(none.json().details).toMatchObject([{ path: 'image' }]);
    const group = await verify(
      person.cpf,
      replacing('p01-3.jpg', 0, await sideBySide('p01-2.jpg', 'p03-1.jpg')),
    );
    expect(group.statusCode).toBe(422);
    expect(group.json().code).toBe('FACE_MULTIPLE');
    // Refused before any decision: nothing is recorded.
    expect(await written()).toEqual(before);
  });

  it('bad images are refused cleanly', async () => {
    const jpeg = await devPhoto('p01-2.jpg');
    const cases: Record<string, string> = {
      'not an image': b64(Buffer.from('não sou uma foto, sou um texto qualquer')),
      truncated: b64(jpeg.subarray(0, Math.floor(jpeg.length / 3))),
      svg: b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
    };
    for (const [name, image] of Object.entries(cases)) {
      const response = await verify(person.cpf, replacing('p01-3.jpg', 0, image));
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, name).toBeLessThan(500);
      expect(response.json().code, name).toMatch(/^IMAGE_/);
    }
    // One picture above the cap of a camera capture: a validation error naming the limit.
    const oversize = await verify(
      person.cpf,
      replacing('p01-3.jpg', 0, 'A'.repeat(FACE_CAPTURE_MAX_CHARS + 4)),
    );
    expect(oversize.statusCode).toBe(400);
    expect(JSON.stringify(oversize.json().details)).toMatch(/grande demais/);
    // A body above what a whole take can weigh is refused before it is parsed.
    const huge = await verify(person.cpf, 'p01-3.jpg', {
      image: 'A'.repeat(FACE_VERIFY_BODY_LIMIT),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(FACE_VERIFY_BODY_LIMIT).toBeLessThan(8 * 1024 * 1024);
  });

  it('a take is checked against its challenge, and the checks are reported and recorded with it', async () => {
    const response = await verify(person.cpf, 'p01-5.jpg');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.liveness).toMatchObject({
      checked: true,
      passed: true,
      checks: { sameFace: true, continuous: true, followed: true, depth: true },
    });
    expect(body.liveness.note).toMatch(/ao vivo/);
    const [row] = (
      (await t.database.db.execute(
        sql`select challenge_id, liveness from biometric_verifications where id = ${body.verificationId}`,
      )) as unknown as {
        rows: Array<{ challenge_id: string; liveness: { steps: string[]; poses: unknown[] } }>;
      }
    ).rows;
    const [challenge] = (
      (await t.database.db.execute(
        sql`select steps from face_challenges where id = ${row?.challenge_id ?? null}`,
      )) as unknown as { rows: Array<{ steps: string[] }> }
    ).rows;
    expect(row?.liveness.steps).toEqual(challenge?.steps);
    // One pose per picture after the first.
    expect(row?.liveness.poses).toHaveLength((challenge?.steps.length ?? 0) + 1);
  });

  it('a live take cannot vouch for another photo: the picture is the first of the take', async () => {
    const before = await written();
    const response = await verify(
      person.cpf,
      replacing('p01-5.jpg', 0, await devPhoto('p01-3.jpg')),
    );
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toMatch(/^FACE_CHALLENGE_(CUT|NOT_FOLLOWED|NO_DEPTH|OTHER_FACE)$/);
    expect(await written()).toEqual(before);
  });

  it('a picture of the take without a usable face, or that is no picture, stops it, naming the picture', async () => {
    const before = await written();
    const faceless = await verify(
      person.cpf,
      replacing('p01-3.jpg', 2, await photoWithoutFace('p01-1.jpg')),
    );
    expect(faceless.statusCode).toBe(422);
    expect(faceless.json()).toMatchObject({
      code: 'FACE_NOT_FOUND',
      Error: expect.stringMatching(/^Foto 3 da captura: Nenhum rosto foi encontrado/),
      details: [{ path: 'frames.1' }],
    });
    const notAPicture = await verify(
      person.cpf,
      replacing('p01-3.jpg', 1, b64(Buffer.from('não sou uma foto, sou um texto qualquer'))),
    );
    expect(notAPicture.statusCode).toBe(415);
    expect(notAPicture.json()).toMatchObject({
      code: 'IMAGE_UNSUPPORTED_TYPE',
      details: [{ path: 'frames.0' }],
    });
    expect(await written()).toEqual(before);
  });

  it('records every verification with who, device, result, score and the challenge it answered', async () => {
    const rows = (
      (await t.database.db.execute(
        sql`select requested_by, device_id, match, distance, error_code, challenge_id from biometric_verifications where cpf = ${person.cpf} order by created_at`,
      )) as unknown as {
        rows: Array<{
          requested_by: string;
          device_id: string;
          match: boolean;
          distance: number | null;
          error_code: string | null;
          challenge_id: string | null;
        }>;
      }
    ).rows;
    // The decided verifications above (same person, counted, another person, checks).
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.every((row) => row.requested_by === admin.user.id)).toBe(true);
    expect(rows.every((row) => row.device_id === device)).toBe(true);
    expect(rows.some((row) => row.match && row.distance !== null)).toBe(true);
    expect(rows.some((row) => !row.match && row.distance !== null)).toBe(true);
    // Refused takes are not recorded: every row is a decision, each on its own challenge.
    expect(rows.filter((row) => row.error_code !== null)).toEqual([]);
    expect(new Set(rows.map((row) => row.challenge_id)).size).toBe(rows.length);
    expect(rows.every((row) => row.challenge_id !== null)).toBe(true);
  });

  it('enrolment refuses a take of different people, a capture the enrolment gate refuses, and CPFs outside the unit', async () => {
    const before = await written();
    const mixed = await enrol(other.cpf, async (steps) =>
      asBody(
        await otherFaceTake(
          await devSource(face, 'p01-1.jpg'),
          await devSource(face, 'p04-1.jpg'),
          steps,
        ),
      ),
    );
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().code).toMatch(/^FACE_CHALLENGE_(OTHER_FACE|CUT)$/);
    // p02-1 looks away from the camera (about 23°): a template a verifier would struggle with.
    const turned = await enrol(other.cpf, 'p02-1.jpg');
    expect(turned.statusCode, turned.body).toBe(422);
    expect(turned.json()).toMatchObject({
      code: 'FACE_ENROL_POSE',
      Error: expect.stringMatching(/^Na primeira foto da captura: /),
    });
    expect(await written()).toEqual(before);
    const foreign = await seedUser(t.app, { role: 'VIEWER', unit: 'SP' });
    const outside = await enrol(foreign.cpf, 'p02-4.jpg');
    expect(outside.statusCode).toBe(404);
    expect(outside.json().Error).toBe('Usuário não encontrado!');
    const notEnrolled = await verify(other.cpf, 'p04-1.jpg');
    expect(notEnrolled.json().code).toBe('BIOMETRIC_NOT_ENROLLED');
  });

  it('outside DF the validation is not run', async () => {
    const spViewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    const response = await verify(spViewer.user.cpf, 'p01-3.jpg', {}, spViewer);
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
    const old = new FacePool({ inProcess: true, jitterCrops });
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
  /** A new examiner of DF, enrolled from a live take of `photo`. */
  const enrolledSubject = async (photo: string) => {
    const subject = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await enrol(subject.cpf, photo)).statusCode).toBe(201);
    return subject;
  };
  /** The template upgrades logged for `cpf`. */
  const upgradesOf = async (cpf: string) =>
    (
      (await t.database.db.execute(
        sql`select payload from activity_log where type = 'biometric_template_upgrade' and payload->>'cpf' = ${cpf}`,
      )) as unknown as { rows: Array<{ payload: Record<string, unknown> }> }
    ).rows;
  /**
   * The template of `cpf` upgraded from version `from`, once: the current
   * version, its descriptors close to `expected`, and the upgrade logged.
   */
  const expectUpgraded = async (cpf: string, expected: number[][], from: string | null) => {
    const upgraded = await templateOf(cpf);
    expect(upgraded?.descriptor_version).toBe(face.descriptorVersion);
    const after = openSealed(upgraded?.template_sealed ?? '', cpf);
    after.forEach((entry, i) =>
      entry.forEach((value, j) => expect(value).toBeCloseTo(expected[i]?.[j] ?? NaN, 5)),
    );
    expect(await upgradesOf(cpf)).toEqual([
      { payload: { cpf, from, to: face.descriptorVersion, captures: 2, leftOut: [] } },
    ]);
    return { upgraded, after };
  };

  it('a template of engine v1 (face-api alone) is upgraded to both descriptors from its captures', async () => {
    const subject = await enrolledSubject('p01-1.jpg');
    const current = await templateOf(subject.cpf);
    const expected = openSealed(current?.template_sealed ?? '', subject.cpf);
    expect(expected.map((entry) => entry.length)).toEqual([320, 320]);
    const v1 = await makeLegacy(subject.cpf, 'v1');
    expect(v1.descriptor_version).not.toBe(face.descriptorVersion);
    expect(face.descriptorVersion.startsWith(`${v1.descriptor_version};`)).toBe(true);

    // The impostor v1 accepted for p01-1 (p05-1) is refused once upgraded...
    const impostor = await verify(subject.cpf, 'p05-1.jpg');
    expect(impostor.statusCode).toBe(200);
    expect(impostor.json()).toMatchObject({ match: false, verified: false });
    const { after } = await expectUpgraded(subject.cpf, expected, v1.descriptor_version);
    expect(after.map((entry) => entry.length)).toEqual([320, 320]);
    // ...and the person is still recognised, on the mean over the enrolled captures.
    const same = await verify(subject.cpf, 'p01-3.jpg');
    expect(same.json()).toMatchObject({ match: true, verified: true });
    expect(same.json().distance).toBeLessThan(same.json().threshold);
  });

  it('a template of an earlier engine version is recomputed from its captures, saved and logged', async () => {
    const subject = await enrolledSubject('p02-4.jpg');
    const current = await templateOf(subject.cpf);
    expect(current?.descriptor_version).toBe(face.descriptorVersion);
    expect(face.descriptorVersion).not.toBe(LEGACY_DESCRIPTOR_VERSION);
    const legacy = await makeLegacy(subject.cpf);
    // The two versions really differ: comparing across them would add noise to every decision.
    const before = openSealed(legacy.template_sealed, subject.cpf);
    const expected = openSealed(current?.template_sealed ?? '', subject.cpf);
    expect(before[0]).not.toEqual(expected[0]);

    const response = await verify(subject.cpf, 'p02-1.jpg');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ match: true, verified: true });

    const { upgraded, after } = await expectUpgraded(
      subject.cpf,
      expected,
      LEGACY_DESCRIPTOR_VERSION,
    );
    expect(upgraded?.image_keys).toEqual(legacy.image_keys);
    expect(after).toHaveLength(2);
    // Once upgraded it is used as is.
    expect((await verify(subject.cpf, 'p02-2.jpg')).json().match).toBe(true);
    expect(await upgradesOf(subject.cpf)).toHaveLength(1);
  });

  it('an old-version template with one capture gone is recomputed from the ones left', async () => {
    const subject = await enrolledSubject('p02-4.jpg');
    const legacy = await makeLegacy(subject.cpf);
    await t.app.files.remove(legacy.image_keys[0] ?? '');
    const response = await verify(subject.cpf, 'p02-1.jpg');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().match).toBe(true);
    const row = await templateOf(subject.cpf);
    expect(row?.descriptor_version).toBe(face.descriptorVersion);
    expect(openSealed(row?.template_sealed ?? '', subject.cpf)).toHaveLength(1);
  });

  it('an old-version template whose captures are gone asks for a new enrolment and is left as it was', async () => {
    const subject = await enrolledSubject('p02-4.jpg');
    const legacy = await makeLegacy(subject.cpf);
    for (const key of legacy.image_keys) await t.app.files.remove(key);
    const response = await verify(subject.cpf, 'p02-2.jpg');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      Error:
        'O cadastro facial deste CPF foi feito por uma versão anterior do reconhecimento facial e não pôde ser atualizado. Faça um novo cadastro facial.',
      code: 'FACE_TEMPLATE_OUTDATED',
      // Both captures of the take that enrolled (its first and last picture), each gone.
      details: [0, 1].map((index) => ({
        path: `captures.${index}`,
        message: expect.stringMatching(/^FILE_UNAVAILABLE: /),
      })),
    });
    const row = await templateOf(subject.cpf);
    expect(row?.descriptor_version).toBeNull();
    expect(row?.template_sealed).toBe(legacy.template_sealed);
  });
  it('examiners get the decision and the level; AUDITOR also the match and checks; only ADMIN the numbers', async () => {
    const full = (await verify(person.cpf, 'p01-3.jpg', {}, admin)).json();
    expect(full).toMatchObject({ verified: true, match: true });
    expect(typeof full.distance).toBe('number');
    expect(typeof full.similarity).toBe('number');
    expect(full.threshold).toBe(face.threshold);
    expect(full.liveness.checks).toBeTruthy();
    // The level follows from the numbers ADMIN sees.
    expect(full.similarityLevel).toBe(similarityLevel(full.distance, full.threshold));
    const auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const judged = (await verify(person.cpf, 'p01-3.jpg', {}, auditor)).json();
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
      const response = await verify(person.cpf, 'p01-3.jpg', {}, examiner);
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
    const refused = (await verify(person.cpf, 'p05-1.jpg', {}, examiner)).json();
    expect(refused).toMatchObject({ verified: false, similarityLevel: 'baixa' });
    expect(refused.distance).toBeUndefined();
    // Six verifications on the real engine: more than the default 30 s on a busy machine.
  }, 150_000);

  it('x-device-id follows the rule of the body field, and a valid one is what the record keeps', async () => {
    const take = () => answer(admin, { purpose: 'verification', cpf: person.cpf }, 'p01-3.jpg');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: { ...admin.auth, 'x-device-id': `<script>${'x'.repeat(500)}` },
      payload: { cpf: person.cpf, ...(await take()), uf: 'DF' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const badBody = await verify(person.cpf, 'p01-3.jpg', { deviceId: 'dispositivo-qualquer' });
    expect(badBody.statusCode).toBe(400);
    const device = 'a3e0c9f2-5b1d-4c8e-9f7a-0123456789ab';
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: { ...admin.auth, 'x-device-id': device },
      payload: { cpf: person.cpf, ...(await take()), uf: 'DF' },
    });
    expect(good.statusCode, good.body).toBe(200);
    const stored = (
      (await t.database.db.execute(
        sql`select device_id from biometric_verifications where id = ${good.json().verificationId}`,
      )) as unknown as { rows: Array<{ device_id: string }> }
    ).rows[0]?.device_id;
    expect(stored).toBe(device);
  });

  it("a template copied into another person's row does not open: the swap gives no match", async () => {
    const victim = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    expect((await enrol(victim.cpf, 'p02-4.jpg')).statusCode).toBe(201);
    // A database writer puts the enrolled person's sealed template into the victim's row.
    await t.database.db.execute(
      sql`update biometric_templates set template_sealed = (select template_sealed from biometric_templates where cpf = ${person.cpf}) where cpf = ${victim.cpf}`,
    );
    const response = await verify(victim.cpf, 'p01-3.jpg');
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('FACE_TEMPLATE_INVALID');
  });
});
