/**
 * Face challenges through the API, on the real engine and the dev
 * photos, on BOTH database tiers (the claim of a challenge is SQL): a
 * challenge is two or three different moves, bound to the user, the unit,
 * the CPF and the purpose, valid a minute and used once; a take without one,
 * with a wrong, expired or used one, with the wrong number of pictures, with
 * its moves out of order or another face in the middle is refused with its
 * own code, and then nothing is written (no verification, no template, no
 * file). The attack, three shifted copies of a photo of the enrolled
 * person, is refused with and without a challenge; her genuine take verifies.
 */
import {
  challengePictures,
  FACE_CHALLENGE_MAX_STEPS,
  FACE_CHALLENGE_MIN_STEPS,
  FACE_CHALLENGE_TTL_MS,
  FACE_MOVES,
  moveNotFollowedMessage,
  type FaceChallenge,
  type FaceChallengeRequest,
} from '@exame/shared';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { selectRows } from '../../db/select-rows';
import { burstAround, webcamFrame } from '../../../test/faces/captures';
import type { countingFaceService } from '../../../test/faces/counting-face-service';
import { otherFaceTake } from '../../../test/faces/synthetic-takes';
import {
  answeredChallenge,
  asBody,
  devSource,
  genuineBody,
  requestChallenge,
} from '../../../test/faces/takes';
import { buildCountedFaceApp, enrolFace } from '../../../test/face-app';
import { type TestApp } from '../../../test/helper';
import { seedSignedIn, seedUser } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Body = { challengeId?: string; image: string; frames: string[] };

const b64 = (buffer: Buffer) => buffer.toString('base64');

describe('face challenges', () => {
  let face: FaceService;
  let counting: ReturnType<typeof countingFaceService>;
  let t: TestApp;
  let admin: Signed;
  let examiner: Signed;
  let person: Awaited<ReturnType<typeof seedUser>>;
  let other: Awaited<ReturnType<typeof seedUser>>;

  beforeAll(async () => {
    // One engine for the whole file, counted: every result is the engine's own.
    ({ face, counting, t } = await buildCountedFaceApp());
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    examiner = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    person = await seedUser(t.app, { role: 'VIEWER', unit: 'DF', name: 'Examinadora Um' });
    other = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    // The person is enrolled from a live take of p01-1; every probe below is another photo of her.
    const enrolment = { purpose: 'enrolment', cpf: person.cpf } as const;
    const taken = await answeredChallenge(t.app, face, admin.token, enrolment, 'p01-1.jpg');
    const enrolled = await enrolFace(t.app, admin.auth, person.cpf, taken);
    expect(enrolled.statusCode, enrolled.body).toBe(201);
  }, 180_000);
  afterAll(async () => {
    counting?.stop();
    await t?.close();
    await face?.close();
  });

  const verification = (cpf = person.cpf): FaceChallengeRequest => ({
    purpose: 'verification',
    cpf,
  });
  const verify = (payload: Body, who: Signed = admin, cpf = person.cpf) =>
    t.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: who.auth,
      payload: { cpf, uf: 'DF', ...payload },
    });
  const count = async (table: 'biometric_verifications' | 'biometric_templates') =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      )
    )[0]?.n;
  const written = async () => ({
    verifications: await count('biometric_verifications'),
    templates: await count('biometric_templates'),
    files: (await t.app.files.list()).map((file) => file.key).sort(),
  });
  /** Sends a take that must be refused with `code`: nothing written, the answer returned. */
  const refused = async (
    code: string | RegExp,
    send: () => Promise<LightMyRequestResponse>,
  ): Promise<LightMyRequestResponse> => {
    const before = await written();
    const response = await send();
    const body = response.json() as { code: string; Error: string };
    expect(body.code, response.body).toMatch(
      code instanceof RegExp ? code : new RegExp(`^${code}$`),
    );
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(body.Error).toEqual(expect.any(String));
    expect(await written(), `${body.code}: nada gravado`).toEqual(before);
    return response;
  };
  /** A challenge of exactly `steps` moves (the server draws 2 or 3; asks again until it fits). */
  const challengeOf = async (steps: number, request = verification()): Promise<FaceChallenge> => {
    for (let tries = 0; tries < 40; tries++) {
      const challenge = await requestChallenge(t.app, admin.token, request);
      if (challenge.steps.length === steps) return challenge;
    }
    throw new Error(`nenhum desafio de ${steps} movimentos`);
  };

  it('is two or three different moves, with steps + 2 pictures, valid a minute and recorded for its user, unit, CPF and purpose', async () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 16; i++) {
      const asked = Date.now();
      const challenge = await requestChallenge(t.app, admin.token, verification());
      lengths.add(challenge.steps.length);
      expect(challenge.challengeId).toMatch(/^[0-9a-f-]{36}$/);
      expect(challenge.steps.length).toBeGreaterThanOrEqual(FACE_CHALLENGE_MIN_STEPS);
      expect(challenge.steps.length).toBeLessThanOrEqual(FACE_CHALLENGE_MAX_STEPS);
      expect(new Set(challenge.steps).size, 'movimentos distintos').toBe(challenge.steps.length);
      for (const step of challenge.steps) expect(FACE_MOVES).toContain(step);
      expect(challenge.pictures).toBe(challenge.steps.length + 2);
      expect(challenge.pictures).toBe(challengePictures(challenge.steps.length));
      const expires = Date.parse(challenge.expiresAt);
      expect(expires).toBeGreaterThanOrEqual(asked + FACE_CHALLENGE_TTL_MS - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + FACE_CHALLENGE_TTL_MS + 1000);
    }
    // 16 draws, each 2 or 3 moves: both lengths show up (all alike: 2 in 65 536).
    expect([...lengths].sort()).toEqual([2, 3]);
    // Asked with the CPF formatted: bound to its digits.
    const formatted = person.cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
    const challenge = await requestChallenge(t.app, examiner.token, {
      purpose: 'check-in',
      cpf: formatted,
    });
    const [row] = await selectRows<Record<string, unknown>>(
      t.database.db,
      sql`select federative_unit, requested_by, cpf, purpose, steps, used_at from face_challenges where id = ${challenge.challengeId}`,
    );
    expect(row).toEqual({
      federative_unit: 'DF',
      requested_by: examiner.user.id,
      cpf: person.cpf,
      purpose: 'check-in',
      steps: challenge.steps,
      used_at: null,
    });
    // Whose face and what for are required.
    for (const payload of [{ purpose: 'verification' }, { cpf: person.cpf }, {}]) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Challenge',
        headers: admin.auth,
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('without a challenge, or with one never issued, the take is refused before any picture is analysed', async () => {
    const body = await genuineBody(face, 'p01-5.jpg', ['left', 'up']);
    counting.reset();
    const missing = await refused('FACE_CHALLENGE_REQUIRED', () => verify(body));
    expect(missing.statusCode).toBe(400);
    const unknown = await refused('FACE_CHALLENGE_INVALID', () =>
      verify({ ...body, challengeId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(counting.passes.analysed).toEqual([]);
  });

  it('is bound to the user who asked, the CPF and the purpose: any other is FACE_CHALLENGE_INVALID, before the engine', async () => {
    // A genuine take of the person for each challenge: only the binding is wrong.
    const attempts: Array<[string, FaceChallengeRequest, Signed]> = [
      ['another user', verification(), examiner],
      ['another CPF', verification(other.cpf), admin],
      ['another purpose (enrolment)', { purpose: 'enrolment', cpf: person.cpf }, admin],
      ['another purpose (check-in)', { purpose: 'check-in', cpf: person.cpf }, admin],
    ];
    for (const [label, request, caller] of attempts) {
      const challenge = await requestChallenge(t.app, admin.token, request);
      const body = await genuineBody(face, 'p01-5.jpg', challenge.steps);
      counting.reset();
      const response = await refused('FACE_CHALLENGE_INVALID', () =>
        verify({ challengeId: challenge.challengeId, ...body }, caller),
      );
      expect(response.statusCode, label).toBe(422);
      expect(counting.passes.analysed, label).toEqual([]);
    }
  });

  it('is used once: a second use is FACE_CHALLENGE_USED, whether the first verified or was refused', async () => {
    const challenge = await requestChallenge(t.app, admin.token, verification());
    const body = {
      challengeId: challenge.challengeId,
      ...(await genuineBody(face, 'p01-5.jpg', challenge.steps)),
    };
    const first = await verify(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ verified: true });
    const again = await refused('FACE_CHALLENGE_USED', () => verify(body));
    expect(again.statusCode).toBe(409);

    // Refused the first time (the moves out of order): the challenge is spent all the same.
    const spent = await requestChallenge(t.app, admin.token, verification());
    const genuine = await genuineBody(face, 'p01-5.jpg', spent.steps);
    const [second, first2, ...rest] = genuine.frames;
    await refused('FACE_CHALLENGE_NOT_FOLLOWED', () =>
      verify({
        challengeId: spent.challengeId,
        image: genuine.image,
        frames: [first2!, second!, ...rest],
      }),
    );
    counting.reset();
    await refused('FACE_CHALLENGE_USED', () =>
      verify({ challengeId: spent.challengeId, ...genuine }),
    );
    expect(counting.passes.analysed).toEqual([]);
    const [row] = await selectRows<{ used_at: Date | string | null }>(
      t.database.db,
      sql`select used_at from face_challenges where id = ${spent.challengeId}`,
    );
    expect(row?.used_at).not.toBeNull();
  });

  it('expires: a take after expires_at is FACE_CHALLENGE_EXPIRED', async () => {
    const challenge = await requestChallenge(t.app, admin.token, verification());
    const body = await genuineBody(face, 'p01-5.jpg', challenge.steps);
    await t.database.db.execute(
      sql`update face_challenges set expires_at = now() - interval '1 second' where id = ${challenge.challengeId}`,
    );
    counting.reset();
    const late = await refused('FACE_CHALLENGE_EXPIRED', () =>
      verify({ challengeId: challenge.challengeId, ...body }),
    );
    expect(late.statusCode).toBe(422);
    expect(counting.passes.analysed).toEqual([]);
  });

  it('needs exactly its pictures: one too few or one too many is FACE_CHALLENGE_FRAMES', async () => {
    const two = await challengeOf(2);
    const take = await genuineBody(face, 'p01-5.jpg', two.steps);
    counting.reset();
    await refused('FACE_CHALLENGE_FRAMES', () =>
      verify({ challengeId: two.challengeId, image: take.image, frames: take.frames.slice(0, -1) }),
    );
    const more = await challengeOf(2);
    const longer = await genuineBody(face, 'p01-5.jpg', more.steps);
    await refused('FACE_CHALLENGE_FRAMES', () =>
      verify({
        challengeId: more.challengeId,
        image: longer.image,
        frames: [...longer.frames, longer.frames.at(-1)!],
      }),
    );
    const three = await challengeOf(3);
    const short = await genuineBody(face, 'p01-5.jpg', three.steps);
    await refused('FACE_CHALLENGE_FRAMES', () =>
      verify({ challengeId: three.challengeId, image: short.image, frames: short.frames.slice(1) }),
    );
    // Counted before the engine runs.
    expect(counting.passes.analysed).toEqual([]);
  });

  it('a genuine take whose step pictures are swapped is FACE_CHALLENGE_NOT_FOLLOWED, naming the first move not seen', async () => {
    const challenge = await requestChallenge(t.app, admin.token, verification());
    const take = await genuineBody(face, 'p01-5.jpg', challenge.steps);
    const [first, second, ...rest] = take.frames;
    const response = await refused('FACE_CHALLENGE_NOT_FOLLOWED', () =>
      verify({
        challengeId: challenge.challengeId,
        image: take.image,
        frames: [second!, first!, ...rest],
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().Error).toBe(moveNotFollowedMessage(1, challenge.steps[0]!));
  });

  it('another face in the middle of the take is FACE_CHALLENGE_OTHER_FACE (or a cut)', async () => {
    const challenge = await requestChallenge(t.app, admin.token, verification());
    const pictures = await otherFaceTake(
      await devSource(face, 'p01-5.jpg'),
      await devSource(face, 'p05-1.jpg'),
      challenge.steps,
    );
    await refused(/^FACE_CHALLENGE_(OTHER_FACE|CUT)$/, () =>
      verify({ challengeId: challenge.challengeId, ...asBody(pictures) }),
    );
  });

  it('an enrolment take that does not follow its challenge enrols nothing and stores no picture', async () => {
    const challenge = await requestChallenge(t.app, admin.token, {
      purpose: 'enrolment',
      cpf: other.cpf,
    });
    const take = await genuineBody(face, 'p02-4.jpg', challenge.steps);
    const [first, second, ...rest] = take.frames;
    await refused('FACE_CHALLENGE_NOT_FOLLOWED', () =>
      t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: admin.auth,
        payload: {
          cpf: other.cpf,
          challengeId: challenge.challengeId,
          image: take.image,
          frames: [second!, first!, ...rest],
        },
      }),
    );
  });

  it("the issue's attack: three shifted copies of a photo of the enrolled person are refused with and without a challenge; her genuine take verifies", async () => {
    // p01-7 is a photo of the enrolled examiner that was never enrolled (p01-1 was).
    const copies = (await burstAround(await webcamFrame('p01-5.jpg'))).map(b64);
    expect(copies).toHaveLength(3);
    // As the attacker sent them: no challenge at all.
    const [image, ...frames] = copies;
    const bare = await refused('FACE_CHALLENGE_REQUIRED', () => verify({ image: image!, frames }));
    expect(bare.statusCode).toBe(400);
    // With a challenge of 2 and one of 3 moves: the copies cycled to the pictures it asks for.
    for (const steps of [2, 3]) {
      const challenge = await challengeOf(steps);
      const pictures = Array.from({ length: challenge.pictures }, (_, i) => copies[i % 3]!);
      const [first, ...rest] = pictures;
      await refused(/^FACE_CHALLENGE_(NOT_FOLLOWED|NO_DEPTH)$/, () =>
        verify({ challengeId: challenge.challengeId, image: first!, frames: rest }),
      );
    }
    // The same person, live: her head turns as asked, and she is verified.
    const challenge = await requestChallenge(t.app, admin.token, verification());
    const before = await count('biometric_verifications');
    const live = await verify({
      challengeId: challenge.challengeId,
      ...(await genuineBody(face, 'p01-5.jpg', challenge.steps)),
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json()).toMatchObject({
      verified: true,
      match: true,
      liveness: {
        checked: true,
        passed: true,
        checks: { sameFace: true, continuous: true, followed: true, depth: true },
      },
    });
    expect(await count('biometric_verifications')).toBe((before ?? 0) + 1);
    const [row] = await selectRows<{ challenge_id: string; verified: boolean }>(
      t.database.db,
      sql`select challenge_id, verified from biometric_verifications where id = ${live.json().verificationId}`,
    );
    expect(row).toEqual({ challenge_id: challenge.challengeId, verified: true });
  });
});
