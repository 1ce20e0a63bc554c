/**
 * The check-in and check-out of DF, where every examiner enters and leaves
 * with a face verification of their own: on the real engine and the dev
 * fixture photos (never holdout), on the embedded database tier.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { selectRows } from '../../db/select-rows';
import { genuineBody } from '../../../test/faces/takes';
import { createPost } from '../../../test/exams';
import { askChallenge, buildFaceApp, enrolFace } from '../../../test/face-app';
import { type TestApp } from '../../../test/helper';
import { DEFAULT_PASSWORD, seedSignedIn, seedUser } from '../../../test/identity';
import { faceEngineSkipReason } from '../../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('Check-in face tests');

const b64 = (buffer: Buffer) => buffer.toString('base64');
const DEVICE = '7d3f0c2a-5b6e-4f81-9a2b-3c4d5e6f7a8b';

describe.skipIf(Boolean(skipReason))(
  `check-in with face validation (DF) ${skipReason}`.trim(),
  () => {
    let face: FaceService;
    let t: TestApp;
    let admin: Awaited<ReturnType<typeof seedSignedIn>>;
    let first: Awaited<ReturnType<typeof seedSignedIn>>;
    let second: Awaited<ReturnType<typeof seedUser>>;

    beforeAll(async () => {
      ({ face, t } = await buildFaceApp());
      admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
      first = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF', name: 'Examinadora Um' });
      second = await seedUser(t.app, { role: 'ROOM_INSPECTOR', unit: 'DF', name: 'Fiscal Dois' });
      for (const identifier of ['DF.POSTO01', 'DF.POSTO02']) {
        await createPost(t.app, admin.auth, identifier);
      }
      // Enrolled from a live take of a photo the enrolment gate accepts.
      for (const [cpf, photo] of [
        [first.user.cpf, 'p01-1.jpg'],
        [second.cpf, 'p02-4.jpg'],
      ] as const) {
        const taken = await take(admin.auth, { purpose: 'enrolment', cpf }, photo);
        const enrolled = await enrolFace(t.app, admin.auth, cpf, taken);
        expect(enrolled.statusCode, enrolled.body).toBe(201);
      }
    }, 180_000);
    afterAll(async () => {
      await t?.close();
      await face?.close();
    });

    let seed = 0;
    /**
     * A challenge asked by `auth` for `subject`, answered by a genuine take
     * of `photo` (its head turning as asked: test/faces/synthetic-takes.ts).
     */
    async function take(
      auth: { authorization: string },
      subject: Record<string, string | undefined>,
      photo: string,
    ): Promise<{ challengeId: string; image: string; frames: string[] }> {
      const { challengeId, steps } = await askChallenge(t.app, auth, subject);
      seed += 1;
      return { challengeId, ...(await genuineBody(face, photo, steps, seed)) };
    }

    /**
     * The face check of `cpf` with a capture of `photo` at `local`, asked by
     * examiner 1; someone else is named by the record (leaving), by examiner
     * 2's token, or by CPF with their own password (never a face alone).
     */
    async function validate(
      cpf: string,
      photo: string,
      local = 'DF.POSTO01',
      who: { checkInViewerId?: string; proctoringToken?: string; password?: string } = {},
    ) {
      const named = who.checkInViewerId
        ? { purpose: 'check-out', checkInViewerId: who.checkInViewerId }
        : who.proctoringToken
          ? { purpose: 'check-in', proctoringToken: who.proctoringToken }
          : { purpose: 'check-in', cpf };
      // A challenge is asked only for a person the capture may name (the factor is checked first).
      const captured =
        who.checkInViewerId || who.proctoringToken || who.password || cpf === first.user.cpf
          ? await take(first.auth, named, photo)
          : { image: b64(Buffer.alloc(64, 1)), frames: [] };
      return t.app.inject({
        method: 'POST',
        url: '/api/Auth/biometric-viewer-checkin',
        headers: first.auth,
        payload: {
          ...(who.checkInViewerId || who.proctoringToken ? who : { cpf, password: who.password }),
          ...captured,
          uf: 'DF',
          local,
          deviceId: DEVICE,
        },
      });
    }
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: first.auth, payload });

    it('examiners enter by face, the captures are kept and each view is logged; each verification admits once, at its post', async () => {
      // Someone else's face needs their password; past it, only examiners enter.
      const noPassword = await validate(admin.user.cpf, 'p01-3.jpg');
      expect(noPassword.json().code).toBe('FACE_OWN_FACTOR_REQUIRED');
      const notExaminer = await validate(admin.user.cpf, 'p01-3.jpg', 'DF.POSTO01', {
        password: DEFAULT_PASSWORD,
      });
      expect(notExaminer.statusCode).toBe(403);
      expect(notExaminer.json().Error).toBe('Usuário não tem permissão para participar da sala!');

      const one = await validate(first.user.cpf, 'p01-3.jpg');
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toMatchObject({
        name: 'Examinadora Um',
        cpf: `***.${first.user.cpf.slice(3, 6)}.${first.user.cpf.slice(6, 9)}-**`,
      });
      // The examiner gets the plain level of an accepted face, without the raw numbers.
      expect(['alta', 'média']).toContain(one.json().similarityLevel);
      for (const raw of ['distance', 'similarity', 'threshold', 'match']) {
        expect(one.json()).not.toHaveProperty(raw);
      }
      expect(one.json().faceUrl).toMatch(
        /^\/api\/SchedulingLocalCheckIn\/face\/[0-9a-f-]{36}\?viewer=/,
      );
      const [verification] = await selectRows<{
        scheduling_local: string;
        device_id: string;
        verified: boolean;
        capture_key: string | null;
      }>(
        t.database.db,
        sql`select scheduling_local, device_id, verified, capture_key from biometric_verifications where id = ${one.json().verificationId}`,
      );
      expect(verification).toMatchObject({
        scheduling_local: 'DF.POSTO01',
        device_id: DEVICE,
        verified: true,
      });
      expect(verification?.capture_key).toBeTruthy();

      const image = await t.app.inject({ method: 'GET', url: one.json().faceUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      const views = await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from activity_log where type = 'face_image_view' and actor_id = ${first.user.id} and payload->>'purpose' = 'check-in'`,
      );
      expect(views[0]?.n).toBe(1);

      // Examiner 2: password (for this post, or for the open record), then face.
      const confirm = async (target: { schedulingLocal?: string; checkInId?: string }) =>
        (
          await post('/api/Auth/viewer-checkin', {
            email: second.email,
            password: DEFAULT_PASSWORD,
            ...target,
          })
        ).json().proctoringToken as string;
      const token = await confirm({ schedulingLocal: 'DF.POSTO01' });
      const two = await validate(second.cpf, 'p02-1.jpg', 'DF.POSTO01', { proctoringToken: token });
      expect(two.statusCode, two.body).toBe(200);

      // A verification made for another post does not open this one.
      const elsewhere = await validate(second.cpf, 'p02-1.jpg', 'DF.POSTO02', {
        proctoringToken: await confirm({ schedulingLocal: 'DF.POSTO02' }),
      });
      const wrongPost = await post('/api/SchedulingLocalCheckIn/checkIn', {
        viewers: [
          { cpf: first.user.cpf, verificationId: one.json().verificationId },
          {
            cpf: second.cpf,
            verificationId: elsewhere.json().verificationId,
            proctoringToken: token,
          },
        ],
        schedulingLocal: 'DF.POSTO01',
      });
      expect(wrongPost.statusCode).toBe(422);
      expect(wrongPost.json().code).toBe('CHECKIN_FACE_INVALID');

      // Nothing was used by the refused check-in: the right verifications open the room.
      const opened = await post('/api/SchedulingLocalCheckIn/checkIn', {
        viewers: [
          { cpf: first.user.cpf, verificationId: one.json().verificationId },
          { cpf: second.cpf, verificationId: two.json().verificationId, proctoringToken: token },
        ],
        schedulingLocal: 'DF.POSTO01',
        deviceId: DEVICE,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const record = (
        await t.app.inject({
          method: 'GET',
          url: `/api/SchedulingLocalCheckIn/findCheckInById/${opened.json().id}`,
          headers: first.auth,
        })
      ).json();
      expect(record.faceValidationRequired).toBe(true);
      expect(
        record.viewers.map((viewer: { faceUrl: string | null }) => Boolean(viewer.faceUrl)),
      ).toEqual([true, true]);
      // Used once: the same verification cannot admit again.
      const reused = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: admin.auth,
        payload: { removeViewerId: record.viewers[1].id },
      });
      expect(reused.statusCode).toBe(200);
      // The token was used by the opening: taking examiner 2 back needs a new one, for the record.
      const used = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: first.auth,
        payload: { add: { proctoringToken: token, verificationId: two.json().verificationId } },
      });
      expect(used.json().code).toBe('PROCTORING_TOKEN_INVALID');
      const forRecord = await confirm({ checkInId: opened.json().id });
      const readd = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: first.auth,
        payload: { add: { proctoringToken: forRecord, verificationId: two.json().verificationId } },
      });
      expect(readd.statusCode).toBe(422);
      expect(readd.json().code).toBe('CHECKIN_FACE_INVALID');
      // Examiner 2 needs the password check too, the face alone is not enough.
      const again = await validate(second.cpf, 'p02-1.jpg', 'DF.POSTO01', {
        proctoringToken: forRecord,
      });
      const faceOnly = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: first.auth,
        payload: { add: { cpf: second.cpf, verificationId: again.json().verificationId } },
      });
      expect(faceOnly.json().code).toBe('CHECKIN_IDENTITY_REQUIRED');
      // A plain Verify (no evidence photo kept) admits nobody.
      const plain = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: first.auth,
        payload: {
          cpf: second.cpf,
          ...(await take(first.auth, { purpose: 'verification', cpf: second.cpf }, 'p02-1.jpg')),
          uf: 'DF',
          local: 'DF.POSTO01',
        },
      });
      expect(plain.json().verified).toBe(true);
      const byPlain = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: first.auth,
        payload: {
          add: { proctoringToken: forRecord, verificationId: plain.json().verificationId },
        },
      });
      expect(byPlain.json().code).toBe('CHECKIN_FACE_INVALID');
      const back = await t.app.inject({
        method: 'PUT',
        url: `/api/SchedulingLocalCheckIn/update-checkIn/${opened.json().id}`,
        headers: first.auth,
        payload: {
          add: { proctoringToken: forRecord, verificationId: again.json().verificationId },
        },
      });
      expect(back.statusCode, back.body).toBe(200);
    }, 120_000);

    it('leaving: each examiner by face; a wrong face keeps the record open with the reason', async () => {
      const id = (
        await t.app.inject({
          method: 'GET',
          url: `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${first.user.cpf}&schedulingLocal=DF.POSTO01`,
          headers: first.auth,
        })
      ).json().id as string;
      const read = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/SchedulingLocalCheckIn/findCheckInById/${id}`,
            headers: first.auth,
          })
        ).json();
      const viewers = (await read()).viewers.filter(
        (viewer: { removedAt: string | null }) => !viewer.removedAt,
      );
      const [mine, theirs] = viewers as Array<{ id: string }>;
      /** Examiner 1 asks for the check-out of `viewerId` with a verification. */
      const checkOut = (viewerId?: string, verificationId?: string) =>
        post('/api/SchedulingLocalCheckIn/checkOut', {
          checkInId: id,
          ...(viewerId ? { viewerId } : {}),
          ...(verificationId ? { verificationId } : {}),
        });

      const everyone = await checkOut();
      expect(everyone.json().code).toBe('CHECKIN_VIEWER_REQUIRED');
      const noFace = await checkOut(theirs!.id);
      expect(noFace.json().code).toBe('CHECKIN_FACE_REQUIRED');

      // Examiner 2's CPF, another person's face: refused with the reason, nothing kept.
      const wrong = await validate(second.cpf, 'p05-1.jpg', 'DF.POSTO01', {
        checkInViewerId: theirs!.id,
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({
        Error: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
        code: 'FACE_NOT_VERIFIED',
        // The examiner reads the level, never a number.
        similarityLevel: 'baixa',
      });
      expect(wrong.json()).not.toHaveProperty('distance');
      const kept = await selectRows<{ capture_key: string | null; verified: boolean }>(
        t.database.db,
        sql`select capture_key, verified from biometric_verifications where cpf = ${second.cpf} order by created_at desc limit 1`,
      );
      expect(kept[0]).toEqual({ capture_key: null, verified: false });
      expect((await read()).status).toBe('open');

      // Examiner 1's verification does not take examiner 2 out.
      const mineOk = await validate(first.user.cpf, 'p01-3.jpg');
      const swapped = await checkOut(theirs!.id, mineOk.json().verificationId);
      expect(swapped.json().code).toBe('CHECKIN_FACE_INVALID');

      const firstOut = await checkOut(mine!.id, mineOk.json().verificationId);
      expect(firstOut.statusCode, firstOut.body).toBe(200);
      expect(firstOut.json().status).toBe('open');
      // Examiner 2 named by the record (check-out on a device that does not know the CPF).
      const theirsOk = await validate('', 'p02-1.jpg', 'DF.POSTO01', {
        checkInViewerId: theirs!.id,
      });
      expect(theirsOk.statusCode, theirsOk.body).toBe(200);
      expect(theirsOk.json().name).toBe('Fiscal Dois');
      const secondOut = await checkOut(theirs!.id, theirsOk.json().verificationId);
      expect(secondOut.statusCode, secondOut.body).toBe(200);
      const closed = secondOut.json();
      expect(closed.status).toBe('closed');
      const left = closed.viewers.filter(
        (viewer: { removedAt: string | null }) => !viewer.removedAt,
      );
      for (const viewer of left) {
        expect(viewer).toMatchObject({ checkOutValidated: true });
        expect(viewer.checkOutDate).not.toBeNull();
        expect(viewer.checkOutFaceUrl).toMatch(/^\/api\/SchedulingLocalCheckIn\/face\//);
      }
      expect(closed.history.map((event: { type: string }) => event.type).slice(-3)).toEqual([
        'viewer_check_out',
        'viewer_check_out',
        'close',
      ]);
    }, 120_000);
  },
);
