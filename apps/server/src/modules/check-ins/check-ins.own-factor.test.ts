/**
 * Never a face alone (on both database tiers: in
 * DF every examiner admitted into a room's custody proves who they are with
 * a factor of their own besides the face (the session, examiner 2's
 * password, or the separate viewer identity's password typed with the face
 * check), unless the unit allows face alone, and then the record says so.
 *
 * The rules of admission are checked on verifications as a passed take
 * writes them (`passedTake`); what `api/Auth/biometric-viewer-checkin` does
 * before the face is read (the factor, the password and its throttle) needs
 * no engine: a refusal there writes nothing. The whole flow with the engine
 * and a genuine take is in check-ins.own-factor.face.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biometricVerifications } from '../../db/schema/index';
import { selectRows } from '../../db/select-rows';
import { burstAround, webcamFrame } from '../../../test/faces/captures';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, nextCpf, seedSignedIn, seedUser } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Factor = 'session' | 'password' | 'proctoring' | null;

const POST = 'DF.POSTO31';
const b64 = (buffer: Buffer) => buffer.toString('base64');
/** An error body without the id of its request (each answer has its own). */
const withoutRequest = (response: { json: () => unknown }) => {
  const { requestId: _id, ...body } = response.json() as Record<string, unknown>;
  return body;
};
let address = 10;
/** A client address of its own per call, so the address counter of the throttle stays out of the way. */
const nextAddress = () => `198.51.100.${(address += 1)}`;

describe(`never a face alone (DF) on ${engineName}`, () => {
  let t: TestApp;
  let admin: Signed;
  let fiscal: Signed;
  let examinerB: Awaited<ReturnType<typeof seedUser>>;
  /** Three copies of one photo of examiner B, shifted by a few pixels (the attack of a photo shown to the camera). */
  let photoOfB: { image: string; frames: string[] };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    fiscal = await seedSignedIn(t.app, { role: 'ROOM_INSPECTOR', unit: 'DF', name: 'Fiscal' });
    examinerB = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Examinadora B' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocal',
      headers: admin.auth,
      payload: { identifier: POST, description: 'Posto Taguatinga' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [image, ...frames] = await burstAround(await webcamFrame('p02-2.jpg'));
    photoOfB = { image: b64(image!), frames: frames.map(b64) };
  }, 60_000);
  afterAll(() => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    auth: Record<string, string>,
    payload?: object,
    remoteAddress = nextAddress(),
  ) => t.app.inject({ method, url, headers: auth, payload, remoteAddress });

  /** The face check of `body` at the post, asked by the room inspector. */
  const faceCheck = (body: object, remoteAddress?: string) =>
    inject(
      'POST',
      '/api/Auth/biometric-viewer-checkin',
      fiscal.auth,
      { ...photoOfB, uf: 'DF', local: POST, ...body },
      remoteAddress,
    );

  /**
   * A verification of `cpf` as a passed take writes it (verified, its
   * capture kept, with the factor that came with the face), asked by the
   * room inspector at the post.
   */
  async function passedTake(cpf: string, ownFactor: Factor): Promise<string> {
    const [row] = await t.database.db
      .insert(biometricVerifications)
      .values({
        federativeUnit: 'DF',
        cpf,
        requestedBy: fiscal.user.id,
        schedulingLocal: POST,
        match: true,
        verified: true,
        threshold: 0.5,
        distance: 0.3,
        captureKey: randomUUID(),
        ownFactor,
      })
      .returning({ id: biometricVerifications.id });
    return row!.id;
  }

  const openRoom = (viewers: object[]) =>
    inject('POST', '/api/SchedulingLocalCheckIn/checkIn', fiscal.auth, {
      viewers,
      schedulingLocal: POST,
    });
  const record = async (id: string) =>
    (await inject('GET', `/api/SchedulingLocalCheckIn/findCheckInById/${id}`, fiscal.auth)).json();
  const closeRoom = async (id: string) => {
    const closed = await inject('POST', '/api/SchedulingLocalCheckIn/forceClose', admin.auth, {
      checkInId: id,
      reason: 'Fim do caso de teste.',
    });
    expect(closed.statusCode, closed.body).toBe(200);
  };
  const count = async (query: ReturnType<typeof sql>) =>
    (await selectRows<{ n: number }>(t.database.db, query))[0]?.n;
  const setFaceAlone = (allowed: boolean) =>
    inject('PUT', '/api/FederativeUnit/settings', admin.auth, { faceAloneAllowed: allowed });

  it("the attack: a room inspector sends shifted copies of examiner B's photo without her password; refused, nothing written, no room opened", async () => {
    const attack = await faceCheck({ cpf: examinerB.cpf });
    expect(attack.statusCode).toBe(403);
    expect(attack.json()).toMatchObject({
      Error:
        'O rosto sozinho não confirma quem é o examinador: ele precisa digitar a própria senha na validação facial (ou entrar no sistema com a própria conta).',
      code: 'FACE_OWN_FACTOR_REQUIRED',
    });
    // Refused before any face is read: no verification, no challenge used.
    expect(
      await count(
        sql`select count(*)::int as n from biometric_verifications where cpf = ${examinerB.cpf}`,
      ),
    ).toBe(0);
    // A CPF that is no account of the unit gets the same answer (nothing told about it).
    const nobody = await faceCheck({ cpf: nextCpf() });
    expect(withoutRequest(nobody)).toEqual(withoutRequest(attack));

    // Even a face verification of B without a factor (made while the unit
    // allowed face alone) opens nothing now, and stays unused.
    const faceOnly = await passedTake(examinerB.cpf, null);
    const opened = await openRoom([{ cpf: examinerB.cpf, verificationId: faceOnly }]);
    expect(opened.statusCode).toBe(403);
    expect(opened.json().code).toBe('FACE_OWN_FACTOR_REQUIRED');
    expect(
      await count(
        sql`select count(*)::int as n from check_ins where opened_by = ${fiscal.user.id}`,
      ),
    ).toBe(0);
    expect(
      await count(
        sql`select count(*)::int as n from biometric_verifications where id = ${faceOnly} and consumed_at is null`,
      ),
    ).toBe(1);
    // Without any verification: the face is asked for, as before.
    const noFace = await openRoom([{ cpf: examinerB.cpf }]);
    expect(noFace.json().code).toBe('CHECKIN_FACE_REQUIRED');
  });

  it("B's own password: a wrong one is refused as a sign-in is and counted against her account; the right one passes to the face and resets the count", async () => {
    const verificationsOfB = () =>
      count(
        sql`select count(*)::int as n from biometric_verifications where cpf = ${examinerB.cpf}`,
      );
    const before = await verificationsOfB();
    const wrong = await faceCheck({ cpf: examinerB.cpf, password: 'Errada#12345' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      Error: 'CPF ou senha do examinador incorretos.',
      code: 'invalid-credentials',
    });
    // Counted with her sign-ins (by her e-mail), before any face is read.
    const failures = async () =>
      (
        await selectRows<{ failures: number }>(
          t.database.db,
          sql`select failures from login_throttle where key = ${`account:${examinerB.email}`}`,
        )
      )[0]?.failures ?? 0;
    expect(await failures()).toBe(1);
    expect(await verificationsOfB()).toBe(before);
    // A CPF of nobody: the same answer, after the same work.
    const nobody = await faceCheck({ cpf: nextCpf(), password: 'Errada#12345' });
    expect(nobody.statusCode).toBe(401);
    expect(withoutRequest(nobody)).toEqual(withoutRequest(wrong));

    // The right password is accepted: the call goes on to the face (B has no
    // enrolment here), and her account's count starts over as after a sign-in.
    const right = await faceCheck({ cpf: examinerB.cpf, password: DEFAULT_PASSWORD });
    expect(['FACE_OWN_FACTOR_REQUIRED', 'invalid-credentials']).not.toContain(right.json().code);
    expect(right.statusCode).toBeGreaterThanOrEqual(400);
    expect(await failures()).toBe(0);
  });

  it('blocked: after five wrong passwords the account waits (429 login-blocked), here and at her own sign-in', async () => {
    const examinerC = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await faceCheck({ cpf: examinerC.cpf, password: `Errada#${attempt}x` });
      expect(wrong.statusCode, `tentativa ${attempt}`).toBe(401);
    }
    const blocked = await faceCheck({ cpf: examinerC.cpf, password: DEFAULT_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('login-blocked');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // One counter with the sign-in: this is no way around its limit.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: examinerC.email, password: DEFAULT_PASSWORD },
      remoteAddress: nextAddress(),
    });
    expect(signIn.statusCode).toBe(429);
  });

  it('with her password recorded on the verification, B enters as examiner 1 and the record says "password"', async () => {
    const verificationId = await passedTake(examinerB.cpf, 'password');
    const opened = await openRoom([{ cpf: examinerB.cpf, verificationId }]);
    expect(opened.statusCode, opened.body).toBe(201);
    const read = await record(opened.json().id);
    expect(read.viewers.map((viewer: { admittedBy: string }) => viewer.admittedBy)).toEqual([
      'password',
    ]);
    expect(
      read.history.map((event: { type: string; admittedBy: string | null }) => [
        event.type,
        event.admittedBy,
      ]),
    ).toEqual([
      ['open', null],
      ['viewer_add', 'password'],
    ]);
    const [activity] = await selectRows<{ payload: { admittedBy: Record<string, string> } }>(
      t.database.db,
      sql`select payload from activity_log where type = 'checkin_open' and payload->>'checkInId' = ${opened.json().id}`,
    );
    expect(activity?.payload.admittedBy).toEqual({ [examinerB.id]: 'password' });
    await closeRoom(opened.json().id);
  });

  it('the signed-in examiner and examiner 2 by token: "session" and "proctoring"; examiner 2 without the token is refused', async () => {
    const confirmed = await inject('POST', '/api/Auth/viewer-checkin', fiscal.auth, {
      email: examinerB.email,
      password: DEFAULT_PASSWORD,
      schedulingLocal: POST,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const token = confirmed.json().proctoringToken as string;
    const withoutToken = await openRoom([
      { cpf: fiscal.user.cpf, verificationId: await passedTake(fiscal.user.cpf, 'session') },
      { cpf: examinerB.cpf, verificationId: await passedTake(examinerB.cpf, 'password') },
    ]);
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json()).toMatchObject({
      code: 'CHECKIN_IDENTITY_REQUIRED',
      Error:
        'A identidade deste examinador não foi confirmada: ele precisa digitar a própria senha no formulário do examinador 2 (ou entrar no sistema com a própria conta).',
    });
    const opened = await openRoom([
      { cpf: fiscal.user.cpf, verificationId: await passedTake(fiscal.user.cpf, 'session') },
      { proctoringToken: token, verificationId: await passedTake(examinerB.cpf, 'proctoring') },
    ]);
    expect(opened.statusCode, opened.body).toBe(201);
    const read = await record(opened.json().id);
    expect(read.viewers.map((viewer: { admittedBy: string }) => viewer.admittedBy)).toEqual([
      'session',
      'proctoring',
    ]);

    // Leaving is not admission: B's face check by the record asks for no password.
    const theirs = read.viewers.find(
      (viewer: { userId: string }) => viewer.userId === examinerB.id,
    );
    const leaving = await faceCheck({ checkInViewerId: theirs.id });
    expect(['FACE_OWN_FACTOR_REQUIRED', 'invalid-credentials']).not.toContain(leaving.json().code);
    await closeRoom(opened.json().id);
  });

  it('the unit setting on: the face alone admits, and the record, its history and the activity say so; off again, it does not', async () => {
    const on = await setFaceAlone(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ federativeUnit: 'DF', faceAloneAllowed: true });
    const config = await inject(
      'GET',
      '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=DF',
      fiscal.auth,
    );
    expect(config.json()).toMatchObject({ faceValidationRequired: true, faceAloneAllowed: true });

    // The capture without a password goes on to the face.
    const check = await faceCheck({ cpf: examinerB.cpf });
    expect(check.json().code).not.toBe('FACE_OWN_FACTOR_REQUIRED');

    const opened = await openRoom([
      { cpf: examinerB.cpf, verificationId: await passedTake(examinerB.cpf, null) },
    ]);
    expect(opened.statusCode, opened.body).toBe(201);
    const read = await record(opened.json().id);
    expect(read.viewers[0].admittedBy).toBe('face_only');
    expect(
      read.history.find((event: { type: string }) => event.type === 'viewer_add').admittedBy,
    ).toBe('face_only');
    const [activity] = await selectRows<{ payload: { admittedBy: Record<string, string> } }>(
      t.database.db,
      sql`select payload from activity_log where type = 'checkin_open' and payload->>'checkInId' = ${opened.json().id}`,
    );
    expect(activity?.payload.admittedBy).toEqual({ [examinerB.id]: 'face_only' });
    // The ADMIN's list shows the record; its detail is the record above.
    await closeRoom(opened.json().id);

    expect((await setFaceAlone(false)).json().faceAloneAllowed).toBe(false);
    const again = await openRoom([
      { cpf: examinerB.cpf, verificationId: await passedTake(examinerB.cpf, null) },
    ]);
    expect(again.json().code).toBe('FACE_OWN_FACTOR_REQUIRED');
    expect((await faceCheck({ cpf: examinerB.cpf })).json().code).toBe('FACE_OWN_FACTOR_REQUIRED');
  });
});
