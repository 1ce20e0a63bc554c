/**
 * Possible proxy test-takers on both database tiers, with the real face
 * engine and the dev photos: one person's photos as captures in the exams of
 * three CPFs at two posts form one case with those three exams; exams of
 * different people, or of one CPF, form none; a unit's faces and cases are
 * its own; the cases screen's routes (list, detail, send to audit, close) do
 * what they say, log it, and refuse what they must.
 */
import fs from 'node:fs';
import { FRAUD_CASE_ERRORS, type FraudCaseDetail, type FraudCasePage } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceService } from '../../biometrics/face-engine';
import { createFaceService } from '../../biometrics/face-pool';
import { selectRows } from '../../db/select-rows';
import { readQueuedPhoto } from '../audits/photo-faces.service';
import { purgeExamFaces, reindexExamFaces } from './fraud-detection.service';
import {
  createApiKeyFor,
  createPost,
  examPayload,
  postExams,
  postPhoto,
} from '../../../test/exams';
import { fixturePath } from '../../../test/faces/fixtures';
import { buildTestApp, testConfig, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn, signedSender } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

const DAY_MS = 86_400_000;
/** Days ago, at 10:00 in São Paulo (inside the 180-day window). */
const daysAgo = (days: number) => {
  const day = new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
  return `${day}T10:00:00-03:00`;
};
const image = (file: string) => fs.readFileSync(fixturePath('dev', file)).toString('base64');

describe('possible proxy test-takers', () => {
  let face: FaceService;
  let t: TestApp;
  let admin: Signed;
  let auditor: Signed;
  let examiner: Signed;
  let rjAdmin: Signed;
  let rjAuditor: Signed;
  const keys = new Map<string, string>();
  const examIds = new Map<string, string>();

  const send = signedSender(() => t.app);

  /** Pushes an exam with its captures and reads them as the `face-read` queue does. */
  async function examWithCaptures(
    unit: 'SP' | 'RJ',
    schedulingId: string,
    options: {
      cpf: string;
      local: string;
      days: number;
      captures: string[];
      reference?: string;
      status?: object;
    },
  ) {
    const key = keys.get(unit)!;
    const pushed = await postExams(t.app, key, [
      examPayload({
        schedulingId,
        schedulingDate: daysAgo(options.days),
        candidate: { name: `Candidato ${schedulingId}`, cpf: options.cpf },
        metadata: { schedulingLocal: options.local },
        ...(options.status ?? { status: 'done', result: 'in_analysis', score: 90 }),
      }),
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    const photoIds: string[] = [];
    for (const [index, file] of options.captures.entries()) {
      const capturedAt = new Date(
        Date.parse(daysAgo(options.days)) + (index + 1) * 60_000,
      ).toISOString();
      const answer = await postPhoto(t.app, key, schedulingId, { image: image(file), capturedAt });
      expect(answer.statusCode, answer.body).toBe(200);
      photoIds.push((answer.json() as { id: string }).id);
    }
    if (options.reference) {
      const answer = await t.app.inject({
        method: 'PUT',
        url: `/api/Integration/exams/${schedulingId}/reference-photo`,
        headers: { 'x-api-key': key },
        payload: { image: image(options.reference) },
      });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from exams where federative_unit = ${unit} and scheduling_id = ${schedulingId}`,
    );
    examIds.set(schedulingId, row!.id);
    // The queue's handler, with the search the app wires (its failures fail the test here).
    const deps = {
      db: t.database.db,
      files: t.app.files,
      face,
      afterExamRead: t.app.fraud.detection.examRead,
    };
    for (const photoId of photoIds) await readQueuedPhoto(deps, photoId);
    return row!.id;
  }

  const list = async (who: Signed, query = '') => {
    const answer = await send('GET', `/api/FraudCase${query}`, who);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as FraudCasePage;
  };
  const caseRows = (unit: string) =>
    selectRows<{ id: string; status: string; note: string | null }>(
      t.database.db,
      sql`select id, status, note from fraud_cases where federative_unit = ${unit}`,
    );

  beforeAll(async () => {
    face = await createFaceService({ inProcess: true });
    t = await buildTestApp({
      faceService: face,
      config: { audit: { ...testConfig().audit, twoPersonRule: false, recheckRate: 0 } },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
    examiner = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
    rjAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'RJ' });
    rjAuditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'RJ' });
    keys.set('SP', (await createApiKeyFor(t.app, admin.auth)).key);
    keys.set('RJ', (await createApiKeyFor(t.app, rjAdmin.auth)).key);
    // One post is registered (its name shows); the other is known by its identifier only.
    const post = await createPost(t.app, admin.auth, 'SP.POSTO01', 'Posto Centro');
    expect(post.statusCode, post.body).toBe(201);

    // One person (p01) sits the exams of three CPFs, at two posts, on three days.
    await examWithCaptures('SP', 'PROXY-A', {
      cpf: nextCpf(),
      local: 'SP.POSTO01-S1',
      days: 20,
      captures: ['p01-1.jpg', 'p01-2.jpg'],
      reference: 'p06-1.jpg',
    });
    // B's result was released by an auditor: sending the case to audit reopens it.
    await examWithCaptures('SP', 'PROXY-B', {
      cpf: nextCpf(),
      local: 'SP.POSTO02-S1',
      days: 12,
      captures: ['p01-3.jpg', 'p01-5.jpg'],
      reference: 'p07-1.jpg',
    });
    // C is still running: it joins the case but is not sent anywhere.
    await examWithCaptures('SP', 'PROXY-C', {
      cpf: nextCpf(),
      local: 'SP.POSTO02-S2',
      days: 3,
      captures: ['p01-7.jpg', 'p01-8.jpg'],
      status: { status: 'started' },
    });
    // Different people, each their own CPF; p02 twice under one CPF (a retake).
    const retake = nextCpf();
    await examWithCaptures('SP', 'OTHER-P02', {
      cpf: retake,
      local: 'SP.POSTO01-S1',
      days: 15,
      captures: ['p02-1.jpg', 'p02-2.jpg'],
    });
    await examWithCaptures('SP', 'RETAKE-P02', {
      cpf: retake,
      local: 'SP.POSTO01-S1',
      days: 5,
      captures: ['p02-3.jpg', 'p02-4.jpg'],
    });
    for (const [index, file] of ['p03-1.jpg', 'p04-1.jpg', 'p05-1.jpg', 'p10-1.jpg'].entries()) {
      await examWithCaptures('SP', `OTHER-${index}`, {
        cpf: nextCpf(),
        local: 'SP.POSTO01-S1',
        days: 8 + index,
        captures: [file],
      });
    }
    // The same person in another unit: never searched with SP's exams.
    await examWithCaptures('RJ', 'RJ-P01', {
      cpf: nextCpf(),
      local: 'RJ.POSTO01-S1',
      days: 6,
      captures: ['p01-1.jpg', 'p01-2.jpg'],
    });
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    await face?.close();
  });

  it('forms one case with the three exams of one face under three CPFs at two posts', async () => {
    const page = await list(auditor);
    expect(page.total).toBe(1);
    const [found] = page.items;
    expect(found).toMatchObject({
      number: 1,
      status: 'open',
      examCount: 3,
      candidateCount: 3,
      sentToAuditAt: null,
      firstDate: daysAgo(20).slice(0, 10),
      lastDate: daysAgo(3).slice(0, 10),
    });
    expect(found!.posts).toEqual(['Posto Centro', 'SP.POSTO02']);
    expect(found!.highestSimilarity).toBeGreaterThan(0.6);

    const answer = await send('GET', `/api/FraudCase/${found!.id}`, auditor);
    expect(answer.statusCode, answer.body).toBe(200);
    const detail = answer.json() as FraudCaseDetail;
    expect(detail.exams.map((exam) => exam.schedulingId)).toEqual([
      'PROXY-A',
      'PROXY-B',
      'PROXY-C',
    ]);
    expect(detail.exams[0]!.candidateCpf).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(detail.exams[0]!.reference?.url).toContain('/api/ExamPhoto/');
    expect(detail.exams[2]!.reference).toBeNull();
    // Each match shows the two closest captures, one of each exam.
    expect(detail.matches.length).toBeGreaterThanOrEqual(2);
    for (const match of detail.matches) {
      expect(match.similarity).toBeGreaterThan(0.6);
      expect(match.captureA?.url).toContain('/api/ExamPhoto/');
      expect(match.captureB?.url).toContain('/api/ExamPhoto/');
    }
    // The view is in the activity log, with the case as its target.
    const views = await selectRows<{ actor_id: string; target: string }>(
      t.database.db,
      sql`select actor_id, target from activity_log where type = 'fraud_case_view'`,
    );
    expect(views).toEqual([{ actor_id: auditor.user.id, target: 'fraud-case:1' }]);
  });

  it('forms no case of different people, nor of one CPF retaking', async () => {
    const inCases = await selectRows<{ scheduling_id: string }>(
      t.database.db,
      sql`select e.scheduling_id from fraud_case_exams ce join exams e on e.id = ce.exam_id order by 1`,
    );
    expect(inCases.map((row) => row.scheduling_id)).toEqual(['PROXY-A', 'PROXY-B', 'PROXY-C']);
    // Every exam with a face was indexed (the retakes too: only the CPF keeps them apart).
    const faces = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from exam_faces`,
    );
    expect(faces[0]!.n).toBe(10);
  });

  it('keeps a unit to its own faces and cases', async () => {
    expect((await list(rjAuditor)).total).toBe(0);
    const [spCase] = await caseRows('SP');
    expect((await send('GET', `/api/FraudCase/${spCase!.id}`, rjAuditor)).statusCode).toBe(404);
    const close = await send('POST', `/api/FraudCase/${spCase!.id}/close`, rjAdmin, {
      outcome: 'dismissed',
      note: 'Tentativa de outra unidade.',
    });
    expect(close.statusCode).toBe(404);
    expect(
      (await send('POST', `/api/FraudCase/${spCase!.id}/send-to-audit`, rjAdmin)).statusCode,
    ).toBe(404);
    expect(await caseRows('SP')).toEqual([{ id: spCase!.id, status: 'open', note: null }]);
    // RJ's exam of the same face is in no case: the search never crossed units.
    const rjInCase = await selectRows(
      t.database.db,
      sql`select 1 from fraud_case_exams where exam_id = ${examIds.get('RJ-P01')!}`,
    );
    expect(rjInCase).toEqual([]);
  });

  it('never shows the cases to examiners', async () => {
    expect((await send('GET', '/api/FraudCase', examiner)).statusCode).toBe(403);
  });

  it('filters by status, post and period', async () => {
    expect((await list(admin, '?status=open')).total).toBe(1);
    expect((await list(admin, '?status=dismissed')).total).toBe(0);
    expect((await list(admin, '?schedulingLocal=SP.POSTO02')).total).toBe(1);
    expect((await list(admin, '?schedulingLocal=SP.POSTO09')).total).toBe(0);
    expect((await list(admin, `?startDate=${daysAgo(2).slice(0, 10)}`)).total).toBe(0);
    expect((await list(admin, `?startDate=${daysAgo(4).slice(0, 10)}`)).total).toBe(1);
  });

  it('sends the exams to audit with the case attached: a decided one is reopened', async () => {
    const b = examIds.get('PROXY-B')!;
    expect((await send('POST', `/api/Audit/${b}/claim`, auditor)).statusCode).toBe(200);
    const released = await send('POST', `/api/Audit/${b}/decision`, auditor, { action: 'release' });
    expect(released.statusCode, released.body).toBe(200);
    const [spCase] = await caseRows('SP');

    const answer = await send('POST', `/api/FraudCase/${spCase!.id}/send-to-audit`, auditor);
    expect(answer.statusCode, answer.body).toBe(200);
    // A was waiting already; B is reopened; C (running) stays as it is.
    expect(answer.json()).toEqual({ sent: 1, alreadyInQueue: 1 });
    const exams = await selectRows<{
      scheduling_id: string;
      status: string;
      result: string | null;
    }>(
      t.database.db,
      sql`select scheduling_id, status, result from exams where scheduling_id like 'PROXY-%' order by 1`,
    );
    expect(exams).toEqual([
      { scheduling_id: 'PROXY-A', status: 'done', result: 'in_analysis' },
      { scheduling_id: 'PROXY-B', status: 'done', result: 'in_analysis' },
      { scheduling_id: 'PROXY-C', status: 'started', result: null },
    ]);
    const decisions = await selectRows<{ state: string; reopen_reason: string }>(
      t.database.db,
      sql`select state, reopen_reason from audit_decisions where exam_id = ${b}`,
    );
    expect(decisions).toEqual([
      { state: 'reopened', reopen_reason: 'Caso de possível fraude nº 1' },
    ]);
    // The audit screen links the case.
    const detail = await send('GET', `/api/Audit/${b}`, auditor);
    expect(detail.json()).toMatchObject({
      fraudCases: [{ id: spCase!.id, number: 1, status: 'open' }],
    });
    // A fourth exam of the same face joins the open case after it was sent:
    // it was not sent with it, and its audit screen does not say it was.
    const d = await examWithCaptures('SP', 'PROXY-D', {
      cpf: nextCpf(),
      local: 'SP.POSTO01-S1',
      days: 2,
      captures: ['p01-1.jpg', 'p01-3.jpg'],
    });
    const joined = await selectRows<{ case_id: string }>(
      t.database.db,
      sql`select case_id from fraud_case_exams where exam_id = ${d}`,
    );
    expect(joined).toEqual([{ case_id: spCase!.id }]);
    expect((await send('GET', `/api/Audit/${d}`, auditor)).json()).toMatchObject({
      fraudCases: [],
    });
    const logged = await selectRows<{ type: string }>(
      t.database.db,
      sql`select type from activity_log where type in ('fraud_case_send_audit', 'reopen_audit') order by created_at, type`,
    );
    expect(logged.map((row) => row.type).sort()).toEqual(['fraud_case_send_audit', 'reopen_audit']);
  });

  it('closes a case once, with a note, and a dismissed pair is not raised again', async () => {
    const [spCase] = await caseRows('SP');
    const url = `/api/FraudCase/${spCase!.id}/close`;
    const short = await send('POST', url, auditor, { outcome: 'dismissed', note: 'ok' });
    expect(short.statusCode).toBe(400);
    expect(await caseRows('SP')).toEqual([{ id: spCase!.id, status: 'open', note: null }]);

    const closed = await send('POST', url, auditor, {
      outcome: 'dismissed',
      note: 'Irmãos gêmeos, documentos conferidos.',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      status: 'dismissed',
      closedBy: 'Ana Auditora',
      note: 'Irmãos gêmeos, documentos conferidos.',
    });
    const again = await send('POST', url, admin, {
      outcome: 'confirmed',
      note: 'Outra conclusão.',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'FRAUD_CASE_CLOSED',
      Error: FRAUD_CASE_ERRORS.FRAUD_CASE_CLOSED.message,
    });
    const sendAgain = await send('POST', `/api/FraudCase/${spCase!.id}/send-to-audit`, admin);
    expect(sendAgain.statusCode).toBe(409);

    // Reading B's photos again finds the same pairs: they are known, no new case.
    const check = await t.app.fraud.detection.examRead(examIds.get('PROXY-B')!);
    expect(check).toEqual({ status: 'no-match' });
    expect(await caseRows('SP')).toHaveLength(1);
    const closes = await selectRows<{ payload: { outcome: string } }>(
      t.database.db,
      sql`select payload from activity_log where type = 'fraud_case_close'`,
    );
    expect(closes.map((row) => row.payload.outcome)).toEqual(['dismissed']);
  });

  it('rebuilds every face of the window by the reindex command, raising no known pair again', async () => {
    await t.database.db.execute(sql`delete from exam_faces`);
    t.app.fraud.detection.indexes.clear();
    const progress = await reindexExamFaces(t.app.fraud.detection, t.database.db);
    expect(progress).toEqual({ exams: 11, faces: 11, cases: 0 });
    const faces = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from exam_faces`,
    );
    expect(faces[0]!.n).toBe(11);
    expect(await caseRows('SP')).toHaveLength(1);
  });

  it('deletes the faces past the window or the photo retention of the unit', async () => {
    const count = async () =>
      (
        await selectRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from exam_faces`,
        )
      )[0]!.n;
    const before = await count();
    // SP keeps photos 14 days (A, 20 days old, and p02's first exam, 15): its faces of exams older than that go; RJ's (6 days old) stay.
    const purged = await purgeExamFaces(t.database.db, {
      windowDays: 180,
      retention: { defaultDays: 365, byUnit: { SP: 14 } },
    });
    expect(purged).toEqual({ SP: 2 });
    expect(await count()).toBe(before - 2);
    // The index of this process drops them too (biometric templates leave memory with their rows).
    const indexes = t.app.fraud.detection.indexes;
    const held = (await indexes.synced(t.database.db, 'SP')).size;
    indexes.reconcileNow();
    expect((await indexes.synced(t.database.db, 'SP')).size).toBe(held - 2);
    // A year on, the window has passed for every face.
    const later = new Date(Date.now() + 365 * DAY_MS);
    await purgeExamFaces(
      t.database.db,
      { windowDays: 180, retention: { defaultDays: 365, byUnit: {} } },
      later,
    );
    expect(await count()).toBe(0);
  });
});
