/**
 * FACE_MATCH_THRESHOLD_BY_UNIT on the real engine and the dev fixture photos
 * (never holdout): a unit with a stricter threshold of its own (DF here)
 * rejects a pair of the same person that the default threshold accepts, in
 * the face validation and in the audit's reading of an exam's photos, while
 * the other units keep the default. On the embedded database tier only: the
 * engine runs once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FACE_MATCH_THRESHOLD, type FaceService } from '../../biometrics/face-engine';
import { createFaceService } from '../../biometrics/face-pool';
import { selectRows } from '../../db/select-rows';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { devPhoto } from '../../../test/faces/captures';
import { answeredChallenge } from '../../../test/faces/takes';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn, seedUser } from '../../../test/identity';
import { faceEngineSkipReason } from '../../../test/faces/engine-tier';

const skipReason = faceEngineSkipReason('Face threshold by unit tests');

/**
 * DF's own threshold: far under the distance of p01-1 to p01-2 (the audit's
 * photos) and of a take of p01-1 to a take of p01-3 (the face validation's):
 * the same person, ~0.4-0.5 on the fused scale, which the default 0.69 accepts.
 */
const STRICT = 0.25;
const b64 = (buffer: Buffer) => buffer.toString('base64');

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Capture = { face: { distance: number | null; match: boolean | null } };

describe.skipIf(Boolean(skipReason))(
  `a unit with its own, stricter face threshold ${skipReason}`.trim(),
  () => {
    let face: FaceService;
    let t: TestApp;
    const admins: Record<'DF' | 'SP', Signed | undefined> = { DF: undefined, SP: undefined };
    const auditors: Record<'DF' | 'SP', Signed | undefined> = { DF: undefined, SP: undefined };

    beforeAll(async () => {
      face = await createFaceService({ inProcess: true, matchThresholdByUnit: { DF: STRICT } });
      t = await buildTestApp({ faceService: face });
      for (const unit of ['DF', 'SP'] as const) {
        admins[unit] = await seedSignedIn(t.app, { role: 'ADMIN', unit });
        auditors[unit] = await seedSignedIn(t.app, { role: 'auditor', unit });
      }
    }, 180_000);
    afterAll(async () => {
      await t?.close();
      await face?.close();
    });

    it('the service answers each unit its threshold: DF its own, the others the default', () => {
      expect(face.threshold).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
      expect(face.thresholdFor('DF')).toBe(STRICT);
      expect(face.thresholdFor('SP')).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
      expect(face.thresholdFor('DEMO')).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
    });

    it('a looser threshold for a unit is refused when the service is built', async () => {
      await expect(
        createFaceService({ inProcess: true, matchThresholdByUnit: { DF: 0.8 } }),
      ).rejects.toThrow(/matchThresholdByUnit\.DF=0.8 acima de matchThreshold=0.69/);
      await expect(
        createFaceService({ inProcess: true, matchThresholdByUnit: { DF: 0 } }),
      ).rejects.toThrow(/matchThresholdByUnit\.DF=0/);
    });

    it('the audit reads the same pair of photos at each unit threshold: DF rejects what SP accepts', async () => {
      const distances: Record<string, number> = {};
      for (const unit of ['DF', 'SP'] as const) {
        const { key } = await createApiKeyFor(t.app, admins[unit]!.auth);
        const schedulingId = `LIMIAR-${unit}`;
        const pushed = await postExams(t.app, key, [
          examPayload({
            schedulingId,
            status: 'done',
            result: 'in_analysis',
            score: 85,
            metadata: { schedulingLocal: `${unit}.POSTO01-S1` },
          }),
        ]);
        expect(pushed.statusCode, pushed.body).toBe(200);
        const reference = await t.app.inject({
          method: 'PUT',
          url: `/api/Integration/exams/${schedulingId}/reference-photo`,
          headers: { 'x-api-key': key },
          payload: { image: b64(await devPhoto('p01-1.jpg')) },
        });
        expect(reference.statusCode, reference.body).toBe(200);
        const capture = await t.app.inject({
          method: 'POST',
          url: `/api/Integration/exams/${schedulingId}/photos`,
          headers: { 'x-api-key': key },
          payload: {
            image: b64(await devPhoto('p01-2.jpg')),
            capturedAt: new Date().toISOString(),
          },
        });
        expect(capture.statusCode, capture.body).toBe(200);
        const [exam] = await selectRows<{ id: string }>(
          t.database.db,
          sql`select id from exams where scheduling_id = ${schedulingId}`,
        );
        const detail = await t.app.inject({
          method: 'GET',
          url: `/api/Audit/${exam!.id}`,
          headers: admins[unit]!.auth,
        });
        expect(detail.statusCode, detail.body).toBe(200);
        const body = detail.json() as { threshold: number; captures: Capture[] };
        const [read] = body.captures;
        expect(read?.face.distance).toEqual(expect.any(Number));
        distances[unit] = read!.face.distance!;
        if (unit === 'DF') {
          expect(body.threshold).toBe(STRICT);
          expect(read?.face.match).toBe(false);
        } else {
          expect(body.threshold).toBe(DEFAULT_FACE_MATCH_THRESHOLD);
          expect(read?.face.match).toBe(true);
        }
      }
      // The same pair, the same distance: only the threshold differs.
      expect(distances.DF).toBeCloseTo(distances.SP!, 6);
      expect(distances.DF).toBeGreaterThan(STRICT);
      expect(distances.DF).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
    });

    it("DF's face validation refuses the same person at its stricter threshold, and records that threshold", async () => {
      const person = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
      // A live take of p01-1 enrolled; a live take of p01-3 verified (each answers its challenge).
      const take = (purpose: 'enrolment' | 'verification', photo: string) =>
        answeredChallenge(t.app, face, admins.DF!.token, { purpose, cpf: person.cpf }, photo);
      const enrolled = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: admins.DF!.auth,
        payload: { cpf: person.cpf, ...(await take('enrolment', 'p01-1.jpg')) },
      });
      expect(enrolled.statusCode, enrolled.body).toBe(201);
      const verified = await t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Verify',
        headers: admins.DF!.auth,
        payload: { cpf: person.cpf, ...(await take('verification', 'p01-3.jpg')), uf: 'DF' },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const body = verified.json() as {
        verified: boolean;
        match: boolean;
        distance: number;
        threshold: number;
        message: string;
      };
      expect(body).toMatchObject({
        verified: false,
        match: false,
        threshold: STRICT,
        message: 'O rosto capturado não corresponde ao cadastro facial deste CPF.',
      });
      // The default threshold would have accepted this capture.
      expect(body.distance).toBeGreaterThan(STRICT);
      expect(body.distance).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
      const [row] = await selectRows<{ threshold: number; match: boolean }>(
        t.database.db,
        sql`select threshold, match from biometric_verifications where cpf = ${person.cpf}`,
      );
      expect(row).toMatchObject({ match: false });
      expect(row?.threshold).toBeCloseTo(STRICT, 6);
    });
  },
);
