/**
 * Never a face alone, with the real engine (on both
 * database tiers: a room inspector who sends shifted copies of a photo of
 * examiner B, with or without a challenge, admits nobody; B herself, with a
 * genuine take and her own password, is admitted, and her record says
 * "password"; where the unit allows face alone, the same take without the
 * password admits her and the record says "face_only".
 *
 * The face part goes through `faceTake` only (a challenge for the person and
 * a genuine head turn of a dev photo that follows it, from
 * test/faces/synthetic-takes.ts): the one place to adapt when the capture
 * protocol changes.
 */
import type { FaceChallengeRequest } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { selectRows } from '../../db/select-rows';
import { burstAround, webcamFrame } from '../../../test/faces/captures';
import { fixturePath } from '../../../test/faces/fixtures';
import { acceptedGenuineTake } from '../../../test/faces/takes';
import { loadSource, type Source } from '../../../test/faces/synthetic-takes';
import { createPost } from '../../../test/exams';
import { askChallenge, buildFaceApp, enrolFace } from '../../../test/face-app';
import { engineName, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Take = { challengeId?: string; image: string; frames: string[] };

const POST = 'DF.POSTO32';
const b64 = (buffer: Buffer) => buffer.toString('base64');

describe(`never a face alone, with the engine (DF) on ${engineName}`, () => {
  let face: FaceService;
  let t: TestApp;
  let admin: Signed;
  let fiscal: Signed;
  let examinerB: Awaited<ReturnType<typeof seedUser>>;
  /** Examiner B's photos (dev person p01): one for the enrolment, another for the checks. */
  const sources = new Map<string, Source>();

  /**
   * A take answering a new challenge of `request` asked by `auth`: examiner
   * B's head turning as asked, rendered from the dev photo `photo`.
   */
  async function faceTake(
    auth: Record<string, string>,
    request: FaceChallengeRequest,
    photo: string,
    seed = 1,
  ): Promise<Take> {
    const { challengeId, steps } = await askChallenge(t.app, auth, request);
    const [image, ...frames] = (await acceptedGenuineTake(face, photo, steps, seed)).map(b64);
    return { challengeId, image: image!, frames };
  }

  beforeAll(async () => {
    ({ face, t } = await buildFaceApp());
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    fiscal = await seedSignedIn(t.app, { role: 'ROOM_INSPECTOR', unit: 'DF', name: 'Fiscal' });
    examinerB = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Examinadora B' });
    for (const photo of ['p01-1.jpg', 'p01-3.jpg']) {
      const source = await loadSource(fixturePath('dev', photo), face);
      if (!source) throw new Error(`sem rosto utilizável em ${photo}`);
      sources.set(photo, source);
    }
    await createPost(t.app, admin.auth, POST, 'Posto Ceilândia');
    const enrol = { purpose: 'enrolment', cpf: examinerB.cpf } as const;
    const taken = await faceTake(admin.auth, enrol, 'p01-1.jpg');
    const enrolled = await enrolFace(t.app, admin.auth, examinerB.cpf, taken);
    expect(enrolled.statusCode, enrolled.body).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  const check = { purpose: 'check-in' } as const;
  const faceCheck = (payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Auth/biometric-viewer-checkin',
      headers: fiscal.auth,
      payload: { cpf: examinerB.cpf, uf: 'DF', local: POST, ...payload },
    });
  const openRoom = (verificationId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocalCheckIn/checkIn',
      headers: fiscal.auth,
      payload: { viewers: [{ cpf: examinerB.cpf, verificationId }], schedulingLocal: POST },
    });
  const admittedOf = async (id: string) => {
    const record = await t.app.inject({
      method: 'GET',
      url: `/api/SchedulingLocalCheckIn/findCheckInById/${id}`,
      headers: fiscal.auth,
    });
    const body = record.json() as {
      viewers: Array<{ admittedBy: string }>;
      history: Array<{ type: string; admittedBy: string | null }>;
    };
    return {
      viewers: body.viewers.map((viewer) => viewer.admittedBy),
      history: body.history.filter((event) => event.type === 'viewer_add').map((e) => e.admittedBy),
    };
  };
  const ownFactorOf = async (verificationId: string) =>
    (
      await selectRows<{ own_factor: string | null }>(
        t.database.db,
        sql`select own_factor from biometric_verifications where id = ${verificationId}`,
      )
    )[0]?.own_factor;
  const verificationsOfB = async () =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from biometric_verifications where cpf = ${examinerB.cpf}`,
      )
    )[0]?.n;
  const closeRoom = (id: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocalCheckIn/forceClose',
      headers: admin.auth,
      payload: { checkInId: id, reason: 'Fim do caso de teste.' },
    });

  it('the attack of a photo shown to the camera: three shifted copies of a photo of B, with and without a challenge, with and without a password, admit nobody and write nothing', async () => {
    const [image, ...frames] = (await burstAround(await webcamFrame('p01-2.jpg'))).map(b64);
    const before = await verificationsOfB();
    const { challengeId, frames: asked } = await faceTake(
      fiscal.auth,
      { ...check, cpf: examinerB.cpf },
      'p01-3.jpg',
    );
    for (const [label, extra] of [
      ['sem desafio, sem senha', {}],
      ['com desafio, sem senha', { challengeId }],
    ] as const) {
      const refused = await faceCheck({ image, frames, ...extra });
      expect(refused.statusCode, label).toBe(403);
      expect(refused.json().code, label).toBe('FACE_OWN_FACTOR_REQUIRED');
    }
    // Even with her password (stolen), a still photo does not answer a
    // challenge: as many shifted copies as the challenge asks for pictures.
    const copies = await Promise.all(
      [0, ...asked.keys()].map(async (i) => b64(await webcamFrame('p01-2.jpg', 4 * i, 2 * i))),
    );
    for (const [label, take] of [
      ['sem desafio, com senha', { image, frames }],
      ['com desafio, com senha', { challengeId, image: copies[0], frames: copies.slice(1) }],
    ] as const) {
      const refused = await faceCheck({ ...take, password: DEFAULT_PASSWORD });
      expect(refused.statusCode, `${label}: ${refused.body}`).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, label).toBeLessThan(500);
      expect(refused.json().code, label).toMatch(/^FACE_CHALLENGE_/);
    }
    expect(await verificationsOfB()).toBe(before);
    const rooms = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from check_ins where opened_by = ${fiscal.user.id}`,
    );
    expect(rooms[0]?.n).toBe(0);
  }, 120_000);

  it('B with a genuine take and her own password is admitted; the record says "password"', async () => {
    const take = await faceTake(fiscal.auth, { ...check, cpf: examinerB.cpf }, 'p01-3.jpg', 2);
    const verified = await faceCheck({ ...take, password: DEFAULT_PASSWORD });
    expect(verified.statusCode, verified.body).toBe(200);
    const { verificationId } = verified.json() as { verificationId: string };
    expect(await ownFactorOf(verificationId)).toBe('password');
    const opened = await openRoom(verificationId);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(await admittedOf(opened.json().id)).toEqual({
      viewers: ['password'],
      history: ['password'],
    });
    expect((await closeRoom(opened.json().id)).statusCode).toBe(200);
  }, 120_000);

  it('where the unit allows face alone, the genuine take without a password admits her as "face_only"', async () => {
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/FederativeUnit/settings',
      headers: admin.auth,
      payload: { faceAloneAllowed: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    const take = await faceTake(fiscal.auth, { ...check, cpf: examinerB.cpf }, 'p01-3.jpg', 3);
    const verified = await faceCheck(take);
    expect(verified.statusCode, verified.body).toBe(200);
    const { verificationId } = verified.json() as { verificationId: string };
    expect(await ownFactorOf(verificationId)).toBeNull();
    const opened = await openRoom(verificationId);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(await admittedOf(opened.json().id)).toEqual({
      viewers: ['face_only'],
      history: ['face_only'],
    });
  }, 120_000);
});
