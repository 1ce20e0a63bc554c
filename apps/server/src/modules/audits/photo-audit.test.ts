/**
 * The photo audit on both database tiers: the candidate's reference photo
 * through the integration API, the captures the audit screen shows with the
 * face engine's reading (least like the reference first), the queue ranked by
 * the lowest similarity, and the auditors' marks. A face mismatch only ranks
 * and explains: it never decides. The engine is the real one; the tests that
 * need real faces read the dev fixture photos and skip, saying so, without
 * them.
 */
import fs from 'node:fs';
import { AUDIT_ERRORS, similarityLevel, type AuditErrorCode } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FACE_MATCH_THRESHOLD, type FaceService } from '../../biometrics/face-engine';
import { createFaceService } from '../../biometrics/face-pool';
import { selectRows } from '../../db/select-rows';
import { listStaleBacklogPhotos, listUnreadExamPhotos } from './audit-photos.repository';
import {
  currentDescriptor,
  currentStatus,
  readExamFaces,
  readPendingFaces,
} from './photo-faces.service';
import { faceError } from '../../biometrics/face-errors';
import { AppError } from '../../lib/app-error';
import {
  createApiKeyFor,
  examPayload,
  postExams,
  postPhoto,
  sampleJpeg,
} from '../../../test/exams';
import { fixturePath } from '../../../test/faces/fixtures';
import { buildTestApp, testConfig, type TestApp } from '../../../test/helper';
import { seedSignedIn, signedSender } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

/**
 * The match threshold this server is configured with (FACE_MATCH_THRESHOLD):
 * the default. p05-1 is the dev impostor engine v1 accepted for p01-1
 * (face-api distance ~0.55 under its 0.57); engine v2's fused distance puts
 * it at ~0.73, over the default 0.69, while p01-2 (~0.48) is still the same
 * person.
 */
const FACE_THRESHOLD = DEFAULT_FACE_MATCH_THRESHOLD;

const at = (day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2026, 10, day, hour + 3, minute)).toISOString();
const fixture = (file: string) => fs.readFileSync(fixturePath('dev', file)).toString('base64');

function expectAuditError(answer: Reply, code: AuditErrorCode) {
  expect(answer.statusCode, answer.body).toBe(AUDIT_ERRORS[code].status);
  expect(answer.json()).toMatchObject({ code, Error: AUDIT_ERRORS[code].message });
}

type PhotoView = {
  id: string;
  capturedAt: string;
  url: string;
  face: {
    status: string;
    similarity: number | null;
    distance: number | null;
    level: string | null;
    match: boolean | null;
  };
  mark: { verdict: string; auditorName: string; markedAt: string } | null;
};
type Detail = {
  exam: { result: string };
  reference: PhotoView | null;
  captures: PhotoView[];
  threshold: number | null;
  decisions: unknown[];
};

describe('photo audit', () => {
  let face: FaceService;
  let t: TestApp;
  let admin: Signed;
  let ana: Signed;
  let bruno: Signed;
  let rj: Signed;
  let key: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    face = await createFaceService({ inProcess: true, matchThreshold: FACE_THRESHOLD });
    t = await buildTestApp({
      faceService: face,
      config: { audit: { ...testConfig().audit, twoPersonRule: false, recheckRate: 0 } },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    ana = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
    bruno = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Bruno Auditor' });
    rj = await seedSignedIn(t.app, { role: 'auditor', unit: 'RJ' });
    key = (await createApiKeyFor(t.app, admin.auth)).key;
    const exams = [
      // The exam without photos is the oldest: first in the default order.
      ['ROSTO-SEM-FOTO', at(1, 8)],
      ['FOTO-MARCA', at(2, 9)],
      ['FOTO-OUTRA', at(2, 10)],
      ['ROSTO-TROCA', at(3, 9)],
    ] as const;
    const pushed = await postExams(
      t.app,
      key,
      exams.map(([schedulingId, schedulingDate]) =>
        examPayload({
          schedulingId,
          schedulingDate,
          status: 'done',
          result: 'in_analysis',
          score: 85,
          metadata: { schedulingLocal: 'SP.POSTO01-S1' },
        }),
      ),
    );
    expect(pushed.statusCode, pushed.body).toBe(200);
    const rows = await selectRows<{ id: string; scheduling_id: string }>(
      t.database.db,
      sql`select id, scheduling_id from exams where federative_unit = 'SP'`,
    );
    for (const row of rows) ids.set(row.scheduling_id, row.id);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  const send = signedSender(() => t.app);
  const id = (schedulingId: string) => ids.get(schedulingId)!;
  const addCapture = async (schedulingId: string, image: string, capturedAt: string) => {
    const answer = await postPhoto(t.app, key, schedulingId, { image, capturedAt });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { id: string }).id;
  };
  const putReference = (schedulingId: string, image: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/Integration/exams/${schedulingId}/reference-photo`,
      headers: { 'x-api-key': key },
      payload: { image },
    });
  const detail = async (schedulingId: string, who: Signed): Promise<Detail> => {
    const answer = await send('GET', `/api/Audit/${id(schedulingId)}`, who);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const claim = async (schedulingId: string, who: Signed) => {
    const answer = await send('POST', `/api/Audit/${id(schedulingId)}/claim`, who);
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const mark = (schedulingId: string, photoId: string, who: Signed, verdict: string) =>
    send('PUT', `/api/Audit/${id(schedulingId)}/photos/${photoId}/mark`, who, { verdict });
  const photoRows = (schedulingId: string) =>
    selectRows<{
      id: string;
      kind: string;
      face_status: string;
      face_descriptor: number[] | null;
      face_descriptor_version: string | null;
      face_analysed_at: unknown;
    }>(
      t.database.db,
      sql`select id, kind, face_status, face_descriptor, face_descriptor_version, face_analysed_at from exam_photos
          where exam_id = ${id(schedulingId)} order by captured_at`,
    );
  const minSimilarity = async (schedulingId: string) =>
    (
      await selectRows<{ face_min_similarity: number | null }>(
        t.database.db,
        sql`select face_min_similarity from exams where id = ${id(schedulingId)}`,
      )
    )[0]!.face_min_similarity;
  const examResult = async (schedulingId: string) =>
    (
      await selectRows<{ result: string }>(
        t.database.db,
        sql`select result from exams where id = ${id(schedulingId)}`,
      )
    )[0]!.result;

  describe('the reference photo and the marks', () => {
    let first: string;
    let second: string;
    let reference: string;
    let elsewhere: string;

    it('the integration API stores one reference photo; it is not a capture; a non-image is refused', async () => {
      first = await addCapture(
        'FOTO-MARCA',
        (await sampleJpeg(320, 1)).toString('base64'),
        at(2, 9, 5),
      );
      second = await addCapture(
        'FOTO-MARCA',
        (await sampleJpeg(320, 2)).toString('base64'),
        at(2, 9, 10),
      );
      elsewhere = await addCapture(
        'FOTO-OUTRA',
        (await sampleJpeg(320, 3)).toString('base64'),
        at(2, 10, 5),
      );
      const image = (await sampleJpeg(320, 5)).toString('base64');
      const stored = await putReference('FOTO-MARCA', image);
      expect(stored.statusCode, stored.body).toBe(200);
      expect(stored.json()).toMatchObject({ created: true });
      reference = stored.json().id;
      expect((await putReference('FOTO-MARCA', image)).json()).toEqual({
        id: reference,
        created: false,
      });
      const truncated = await sampleJpeg(320, 6);
      const invalid = await putReference(
        'FOTO-MARCA',
        truncated.subarray(0, Math.floor(truncated.length / 2)).toString('base64'),
      );
      expect(invalid.statusCode, invalid.body).toBe(400);
      expect(invalid.json().code).toBe('IMAGE_INVALID');
      const text = await putReference(
        'FOTO-MARCA',
        Buffer.from('isto não é uma foto').toString('base64'),
      );
      expect(text.statusCode).toBe(415);
      expect(text.json().code).toBe('IMAGE_UNSUPPORTED_TYPE');
      expect((await putReference('NAO-EXISTE', image)).statusCode).toBe(404);
      const photos = await photoRows('FOTO-MARCA');
      expect(photos.filter((photo) => photo.kind === 'reference').map((photo) => photo.id)).toEqual(
        [reference],
      );

      const exam = await send('GET', '/api/Exam/FOTO-MARCA', admin);
      expect(exam.statusCode, exam.body).toBe(200);
      const body = exam.json() as {
        photos: Array<{ id: string }>;
        referencePhoto: { id: string; url: string } | null;
      };
      expect(body.referencePhoto).toMatchObject({ id: reference });
      expect(body.referencePhoto!.url).toContain(`/api/ExamPhoto/${reference}`);
      expect(body.photos.map((photo) => photo.id)).toEqual([first, second]);
      const served = await t.app.inject({ method: 'GET', url: body.referencePhoto!.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      const none = (await send('GET', '/api/Exam/FOTO-OUTRA', admin)).json();
      expect(none.referencePhoto).toBeNull();
    });

    it('the holder marks a capture; the detail names the auditor; each change is logged with what it said before', async () => {
      await claim('FOTO-MARCA', ana);
      const before = await detail('FOTO-MARCA', ana);
      expect(before.reference).toMatchObject({ id: reference, mark: null });
      expect(before.captures.map((photo) => photo.id)).toEqual([first, second]);
      expect(before.captures.every((photo) => photo.mark === null)).toBe(true);

      const marked = await mark('FOTO-MARCA', first, ana, 'compatible');
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toMatchObject({ verdict: 'compatible', auditorName: 'Ana Auditora' });
      const seen = await detail('FOTO-MARCA', bruno);
      expect(seen.captures.find((photo) => photo.id === first)!.mark).toEqual({
        verdict: 'compatible',
        auditorName: 'Ana Auditora',
        markedAt: marked.json().markedAt,
      });
      expect(seen.captures.find((photo) => photo.id === second)!.mark).toBeNull();

      expect((await mark('FOTO-MARCA', first, ana, 'incompatible')).statusCode).toBe(200);
      const log = await selectRows<{ actor_id: string; payload: Record<string, unknown> }>(
        t.database.db,
        sql`select actor_id, payload from activity_log where type = 'photo_mark' order by created_at`,
      );
      expect(log.map((entry) => [entry.actor_id, entry.payload])).toEqual([
        [
          ana.user.id,
          expect.objectContaining({ photoId: first, verdict: 'compatible', before: null }),
        ],
        [
          ana.user.id,
          expect.objectContaining({
            photoId: first,
            verdict: 'incompatible',
            before: { verdict: 'compatible', auditorId: ana.user.id },
          }),
        ],
      ]);
      expect((await detail('FOTO-MARCA', ana)).captures[0]!.mark).toMatchObject({
        verdict: 'incompatible',
        auditorName: 'Ana Auditora',
      });
      const marks = await selectRows<{ verdict: string }>(
        t.database.db,
        sql`select verdict from photo_marks where photo_id = ${first}`,
      );
      expect(marks).toEqual([{ verdict: 'incompatible' }]);
    });

    it('only captures of this exam, by the holder, with a valid verdict', async () => {
      expectAuditError(
        await mark('FOTO-MARCA', reference, ana, 'compatible'),
        'AUDIT_PHOTO_NOT_FOUND',
      );
      expectAuditError(
        await mark('FOTO-MARCA', elsewhere, ana, 'compatible'),
        'AUDIT_PHOTO_NOT_FOUND',
      );
      expectAuditError(
        await mark('FOTO-MARCA', '00000000-0000-4000-8000-000000000000', ana, 'compatible'),
        'AUDIT_PHOTO_NOT_FOUND',
      );
      const bad = await mark('FOTO-MARCA', second, ana, 'talvez');
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain(
        'Marque a captura como compatível ou incompatível.',
      );
      expectAuditError(
        await mark('FOTO-MARCA', second, bruno, 'compatible'),
        'AUDIT_CLAIMED_BY_OTHER',
      );
      expectAuditError(
        await mark('FOTO-OUTRA', elsewhere, bruno, 'compatible'),
        'AUDIT_CLAIM_NOT_FOUND',
      );
      const foreign = await mark('FOTO-MARCA', second, rj, 'compatible');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().code).toBe('AUDIT_EXAM_NOT_FOUND');
      expect(
        (
          await selectRows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from photo_marks where photo_id <> ${first}`,
          )
        )[0]!.n,
      ).toBe(0);
    });

    it('my photo audit lists the exam with its counts; my audit lists the decision; marks never decide', async () => {
      expect((await mark('FOTO-MARCA', second, ana, 'compatible')).statusCode).toBe(200);
      const mine = await send('GET', '/api/Audit/photo-audits/mine', ana);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json()).toEqual([
        {
          examId: id('FOTO-MARCA'),
          schedulingId: 'FOTO-MARCA',
          candidateName: 'Candidato de Teste',
          marked: 2,
          incompatible: 1,
          captures: 2,
          lastMarkedAt: expect.any(String),
        },
      ]);
      expect(Number.isNaN(Date.parse(mine.json()[0].lastMarkedAt))).toBe(false);
      expect((await send('GET', '/api/Audit/photo-audits/mine', bruno)).json()).toEqual([]);
      // An incompatible mark leaves the exam waiting for the auditor's decision.
      expect(await examResult('FOTO-MARCA')).toBe('in_analysis');
      const decided = await send('POST', `/api/Audit/${id('FOTO-MARCA')}/decision`, ana, {
        action: 'release',
      });
      expect(decided.json()).toEqual({
        state: 'effective',
        outcome: 'approved',
        result: 'approved',
      });
      const audit = (await send('GET', '/api/Audit/mine', ana)).json();
      expect(audit.holding).toEqual([]);
      expect(audit.decided).toEqual([
        expect.objectContaining({
          examId: id('FOTO-MARCA'),
          schedulingId: 'FOTO-MARCA',
          candidateName: 'Candidato de Teste',
          outcome: 'approved',
          state: 'effective',
        }),
      ]);
      // Decided: no more marks.
      expectAuditError(await mark('FOTO-MARCA', second, ana, 'incompatible'), 'AUDIT_NOT_PENDING');
    });
  });

  describe('faces of the reference and the captures', () => {
    const photoIds: Record<'same' | 'other' | 'reference', string> = {
      same: '',
      other: '',
      reference: '',
    };
    /** The exam's lowest similarity against the first reference photo. */
    let firstMin = 0;

    it('GET detail reads the faces: captures least like the reference first, with similarity, distance and match', async () => {
      const stored = await putReference('ROSTO-TROCA', fixture('p01-1.jpg'));
      expect(stored.statusCode, stored.body).toBe(200);
      photoIds.reference = stored.json().id;
      // Captured in this order: the same person first, then another.
      photoIds.same = await addCapture('ROSTO-TROCA', fixture('p01-2.jpg'), at(3, 9, 5));
      photoIds.other = await addCapture('ROSTO-TROCA', fixture('p05-1.jpg'), at(3, 9, 20));
      expect((await photoRows('ROSTO-TROCA')).map((photo) => photo.face_status)).toEqual([
        'pending',
        'pending',
        'pending',
      ]);
      expect(await minSimilarity('ROSTO-TROCA')).toBeNull();
      // Before the engine reads them, no exam has a similarity: the oldest comes first.
      const unread = (await send('GET', '/api/Audit/queue?sort=similarity', ana)).json();
      expect(unread.items.map((item: { schedulingId: string }) => item.schedulingId)).toEqual([
        'ROSTO-SEM-FOTO',
        'FOTO-OUTRA',
        'ROSTO-TROCA',
      ]);

      // ADMIN sees the numbers; the auditor who decides, the plain level only.
      const seen = await detail('ROSTO-TROCA', admin);
      expect(seen.threshold).toBe(FACE_THRESHOLD);
      expect(seen.reference).toMatchObject({
        id: photoIds.reference,
        face: { status: 'found', similarity: null, distance: null, level: null, match: null },
      });
      expect(seen.captures.map((photo) => photo.id)).toEqual([photoIds.other, photoIds.same]);
      const [other, same] = seen.captures as [PhotoView, PhotoView];
      for (const photo of [other, same]) {
        expect(photo.face.status).toBe('found');
        expect(photo.face.distance).toEqual(expect.any(Number));
        expect(photo.face.similarity).toBeCloseTo(Math.max(0, 1 - photo.face.distance!), 6);
        expect(photo.face.match).toBe(photo.face.distance! < seen.threshold!);
        expect(photo.face.level).toBe(similarityLevel(photo.face.distance!, seen.threshold!));
      }
      expect(same.face.match).toBe(true);
      expect(same.face.level).not.toBe('baixa');
      expect(other.face.level).toBe('baixa');
      expect(other.face.match).toBe(false);
      expect(other.face.similarity!).toBeLessThan(same.face.similarity!);
      expect(other.face.distance!).toBeGreaterThan(seen.threshold!);
      expect(same.face.distance!).toBeLessThan(seen.threshold!);
      const judged = await detail('ROSTO-TROCA', ana);
      expect(judged.threshold).toBeNull();
      expect(judged.captures.map((photo) => [photo.id, photo.face])).toEqual(
        seen.captures.map((photo) => [
          photo.id,
          { ...photo.face, similarity: null, distance: null },
        ]),
      );
      expect(judged.reference?.face).toEqual(seen.reference?.face);
      const rows = await photoRows('ROSTO-TROCA');
      expect(rows.every((photo) => photo.face_status === 'found')).toBe(true);
      expect(rows.every((photo) => photo.face_descriptor?.length === 320)).toBe(true);
      expect(rows.map((photo) => photo.face_descriptor_version)).toEqual(
        rows.map(() => face.descriptorVersion),
      );
      expect(await minSimilarity('ROSTO-TROCA')).toBeCloseTo(other.face.similarity!, 5);
      firstMin = other.face.similarity!;

      // The queue: the least like its reference first, exams without a reading after.
      const ranked = (await send('GET', '/api/Audit/queue?sort=similarity', ana)).json();
      expect(ranked.items.map((item: { schedulingId: string }) => item.schedulingId)).toEqual([
        'ROSTO-TROCA',
        'ROSTO-SEM-FOTO',
        'FOTO-OUTRA',
      ]);
      expect(ranked.items[0]).toMatchObject({ faceMinSimilarity: null, faceMinLevel: 'baixa' });
      expect(ranked.items[1]).toMatchObject({ faceMinSimilarity: null, faceMinLevel: null });
      const forAdmin = (await send('GET', '/api/Audit/queue?sort=similarity', admin)).json();
      expect(forAdmin.items[0].schedulingId).toBe('ROSTO-TROCA');
      expect(forAdmin.items[0].faceMinSimilarity).toBeCloseTo(other.face.similarity!, 5);
      expect(forAdmin.items[0].faceMinLevel).toBe('baixa');
      const oldest = (await send('GET', '/api/Audit/queue', ana)).json();
      expect(oldest.items[0].schedulingId).toBe('ROSTO-SEM-FOTO');
      // Opening it again reads nothing twice.
      const analysedAt = rows.map((photo) => String(photo.face_analysed_at));
      await detail('ROSTO-TROCA', bruno);
      expect(
        (await photoRows('ROSTO-TROCA')).map((photo) => String(photo.face_analysed_at)),
      ).toEqual(analysedAt);
    });

    it('a new reference photo resets the face reading; the next opening reads it again', async () => {
      const replaced = await putReference('ROSTO-TROCA', fixture('p01-4.jpg'));
      expect(replaced.json()).toEqual({ id: photoIds.reference, created: true });
      const rows = await photoRows('ROSTO-TROCA');
      expect(rows.find((photo) => photo.kind === 'reference')).toMatchObject({
        face_status: 'pending',
        face_descriptor: null,
        face_analysed_at: null,
      });
      // The captures keep their reading; the exam's ranking is forgotten until read again.
      expect(
        rows.filter((photo) => photo.kind === 'capture').map((photo) => photo.face_status),
      ).toEqual(['found', 'found']);
      expect(await minSimilarity('ROSTO-TROCA')).toBeNull();
      const pending = (await send('GET', '/api/Audit/queue?sort=similarity', ana)).json();
      expect(pending.items[0].schedulingId).toBe('ROSTO-SEM-FOTO');

      const seen = await detail('ROSTO-TROCA', admin);
      expect(seen.reference!.face.status).toBe('found');
      expect(seen.captures.map((photo) => [photo.id, photo.face.match])).toEqual([
        [photoIds.other, false],
        [photoIds.same, true],
      ]);
      const renewed = await minSimilarity('ROSTO-TROCA');
      expect(renewed).toBeCloseTo(seen.captures[0]!.face.similarity!, 5);
      // Read against the new picture (p01-4 is further from p05-1 than p01-1 was).
      expect(renewed!).toBeLessThan(firstMin - 0.05);
    });

    it('a reading made by another engine is unread: the sweep reads the backlog again, and so does the next opening', async () => {
      const exam = 'ROSTO-TROCA';
      const before = await photoRows(exam);
      const good = await minSimilarity(exam);
      // As an earlier engine would have left them: its version, a ranking of
      // its own, and descriptors that, compared by this engine, would read
      // as one face (every photo holds the reference's numbers).
      const asAnEarlierEngine = async () => {
        await t.database.db.execute(
          sql`update exam_photos set face_descriptor_version = 'face-api-1.7.15;align=box;crops=3',
                  face_descriptor = (select face_descriptor from exam_photos
                                     where exam_id = ${id(exam)} and kind = 'reference')
                where exam_id = ${id(exam)}`,
        );
        await t.database.db.execute(
          sql`update exams set face_min_similarity = 0.99,
                  face_min_similarity_version = 'face-api-1.7.15;align=box;crops=3'
                where id = ${id(exam)}`,
        );
      };
      const queued = async () =>
        (
          (await send('GET', '/api/Audit/queue?sort=similarity', admin)).json() as {
            items: Array<{
              schedulingId: string;
              faceMinSimilarity: number | null;
              faceMinLevel: string | null;
            }>;
          }
        ).items.find((item) => item.schedulingId === exam);
      const readAgain = async () => {
        const after = await photoRows(exam);
        expect(after.map((photo) => photo.face_descriptor_version)).toEqual(
          after.map(() => face.descriptorVersion),
        );
        expect(after.map((photo) => photo.face_descriptor)).toEqual(
          before.map((photo) => photo.face_descriptor),
        );
        expect(await minSimilarity(exam)).toBeCloseTo(good!, 5);
      };
      const ids = before.map((photo) => photo.id).sort();
      const version = face.descriptorVersion;
      expect(await queued()).toMatchObject({ faceMinSimilarity: good, faceMinLevel: 'baixa' });
      const sweep = () => readPendingFaces({ db: t.database.db, files: t.app.files, face }, 100);
      await asAnEarlierEngine();
      // Neither shown nor ranked: the queue puts it with the exams not read yet.
      expect(await queued()).toMatchObject({ faceMinSimilarity: null, faceMinLevel: null });
      // With the engine down, the opening shows them unread, never compared.
      const analyze = face.analyze.bind(face);
      face.analyze = () => Promise.reject(faceError('FACE_ENGINE_UNAVAILABLE'));
      try {
        const unread = await detail(exam, admin);
        for (const photo of [unread.reference!, ...unread.captures]) {
          expect(photo.face).toEqual({
            status: 'pending',
            similarity: null,
            distance: null,
            level: null,
            match: null,
          });
        }
      } finally {
        face.analyze = analyze;
      }
      expect(
        (await listStaleBacklogPhotos(t.database.db, 100, version)).map((p) => p.id).sort(),
      ).toEqual(ids);
      expect(
        (await listUnreadExamPhotos(t.database.db, id(exam), 100, version)).map((p) => p.id).sort(),
      ).toEqual(ids);

      // The background sweep: the exam waits for audit, its photos are read again.
      // (Other exams of the backlog may hold photos never read: those are read too.)
      expect(await sweep()).toBeGreaterThanOrEqual(3);
      await readAgain();
      expect(await queued()).toMatchObject({ faceMinSimilarity: good, faceMinLevel: 'baixa' });
      expect(await listStaleBacklogPhotos(t.database.db, 100, version)).toEqual([]);
      expect(await listUnreadExamPhotos(t.database.db, id(exam), 100, version)).toEqual([]);
      expect(await sweep()).toBe(0);

      // The backlog was found current: the sweep stops walking it, and the
      // opening of the exam reads another engine's readings again.
      await asAnEarlierEngine();
      expect(await sweep()).toBe(0);
      const seen = await detail(exam, admin);
      expect(seen.captures.map((photo) => [photo.id, photo.face.match])).toEqual([
        [photoIds.other, false],
        [photoIds.same, true],
      ]);
      await readAgain();

      // A file the storage no longer has is a reading without a face, so
      // it never stops the reading of the others.
      await asAnEarlierEngine();
      const lost = {
        ...t.app.files,
        read: () => Promise.reject(AppError.of('FILE_UNAVAILABLE', 404)),
      };
      expect(await readExamFaces({ db: t.database.db, files: lost, face }, id(exam))).toBe(3);
      expect((await photoRows(exam)).map((photo) => photo.face_status)).toEqual([
        'no_face',
        'no_face',
        'no_face',
      ]);
      await asAnEarlierEngine();
      await detail(exam, admin);
      await readAgain();
    });

    it('a face mismatch alone never disqualifies: the exam stays in analysis, marked incompatible, and is released', async () => {
      const exam = 'ROSTO-TROCA';
      expect(await examResult(exam)).toBe('in_analysis');
      await claim(exam, ana);
      expect((await mark(exam, photoIds.other, ana, 'incompatible')).statusCode).toBe(200);
      const seen = await detail(exam, ana);
      expect(seen.exam.result).toBe('in_analysis');
      expect(seen.decisions).toEqual([]);
      expect(seen.captures[0]).toMatchObject({
        id: photoIds.other,
        face: { match: false },
        mark: { verdict: 'incompatible', auditorName: 'Ana Auditora' },
      });
      expect(await examResult(exam)).toBe('in_analysis');
      expect(
        (
          await selectRows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from exam_status_history where exam_id = ${id(exam)} and source = 'user'`,
          )
        )[0]!.n,
      ).toBe(0);
      const queued = (await send('GET', '/api/Audit/queue', bruno)).json();
      expect(queued.items.map((item: { schedulingId: string }) => item.schedulingId)).toContain(
        exam,
      );
      const released = await send('POST', `/api/Audit/${id(exam)}/decision`, ana, {
        action: 'release',
      });
      expect(released.json()).toEqual({
        state: 'effective',
        outcome: 'approved',
        result: 'approved',
      });
    });
  });
});

describe('face readings of exam photos', () => {
  const version = 'engine-now';
  const descriptor = Array.from({ length: 320 }, (_, i) => i / 320);
  it('compares only what the running engine read, and calls the rest unread', () => {
    const found = {
      faceStatus: 'found',
      faceDescriptor: descriptor,
      faceDescriptorVersion: version,
    } as const;
    expect(currentDescriptor(found, version)).toBe(descriptor);
    expect(currentStatus(found, version)).toBe('found');
    for (const stale of [
      { ...found, faceDescriptorVersion: 'engine-before' },
      { ...found, faceDescriptorVersion: null },
    ]) {
      expect(currentDescriptor(stale, version)).toBeNull();
      expect(currentStatus(stale, version)).toBe('pending');
    }
    // Engine v1's 128 numbers, a reading without a face, no reading at all.
    expect(
      currentDescriptor({ ...found, faceDescriptor: descriptor.slice(0, 128) }, version),
    ).toBeNull();
    const noFace = {
      faceStatus: 'no_face',
      faceDescriptor: null,
      faceDescriptorVersion: version,
    } as const;
    expect(currentDescriptor(noFace, version)).toBeNull();
    expect(currentStatus(noFace, version)).toBe('no_face');
    expect(currentDescriptor(undefined, version)).toBeNull();
  });
});
