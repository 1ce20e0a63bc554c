import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createApiKeyFor,
  createPost,
  createRoom,
  examPayload,
  sampleJpeg,
} from '../../../test/exams';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { observeNormalisation } from '../../biometrics/image';
import { selectRows } from '../../db/select-rows';
import { ensureReferenceData } from '../../db/seed/reference-data';

describe('integration API', () => {
  let t: TestApp;
  let dfAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  let spAdmin: Awaited<ReturnType<typeof seedSignedIn>>;
  let dfKey: string;
  let spKey: string;

  beforeAll(async () => {
    t = await buildTestApp();
    dfAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    dfKey = (await createApiKeyFor(t.app, dfAdmin.auth)).key;
    spKey = (await createApiKeyFor(t.app, spAdmin.auth)).key;
  });
  afterAll(() => t.close());

  const push = (key: string, exams: unknown[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams',
      headers: { 'x-api-key': key },
      payload: { exams },
    });
  const setStatus = (key: string, schedulingId: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/Integration/exams/${schedulingId}/status`,
      headers: { 'x-api-key': key },
      payload: body,
    });
  const count = async (query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;

  it('keys: shown once, stored hashed, listed without the secret', async () => {
    const created = await createApiKeyFor(t.app, dfAdmin.auth, 'Outra chave');
    expect(created.key).toMatch(/^exk_[A-Za-z0-9_-]{43}$/);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/Integration/keys',
      headers: dfAdmin.auth,
    });
    expect(list.body).not.toContain(created.key);
    expect(list.json().map((key: { prefix: string }) => key.prefix)).toContain(
      created.key.slice(0, 12),
    );
    const stored = await t.database.db.execute(sql`select key_hash from integration_api_keys`);
    expect(JSON.stringify(stored)).not.toContain(created.key);
    // Keys of SP are not listed to a DF admin.
    expect(
      list.json().every((key: { federativeUnit: string }) => key.federativeUnit === 'DF'),
    ).toBe(true);
  });

  it('no key, a wrong key or a user token: 401', async () => {
    for (const headers of [{}, { 'x-api-key': 'exk_errada' }, dfAdmin.auth]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/Integration/exams',
        headers,
        payload: { exams: [examPayload()] },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('API_KEY_INVALID');
    }
  });

  it('batch upsert is idempotent by schedulingId', async () => {
    const exams = [examPayload(), examPayload(), examPayload()];
    const first = await push(dfKey, exams);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ created: 3, updated: 0, unchanged: 0 });
    const again = await push(dfKey, exams);
    expect(again.json()).toEqual({ created: 0, updated: 0, unchanged: 3 });
    const changed = await push(dfKey, [
      { ...exams[0], room: 'Sala 9' },
      exams[1],
      { ...exams[2], status: 'started' },
    ]);
    expect(changed.json()).toEqual({ created: 0, updated: 2, unchanged: 1 });
    const ids = exams.map((exam) => exam.schedulingId);
    expect(
      await count(
        sql`select count(*)::int as n from exams where scheduling_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    ).toBe(3);
    // History: created x3, then started once.
    expect(
      await count(
        sql`select count(*)::int as n from exam_status_history h join exams e on e.id = h.exam_id where e.scheduling_id = ${ids[2]}`,
      ),
    ).toBe(2);
  });

  it('a batch with one bad item writes nothing and lists every problem', async () => {
    const done = examPayload({ status: 'done', result: 'approved', score: 28 });
    await push(dfKey, [done]);
    const fresh = examPayload();
    const response = await push(dfKey, [
      fresh,
      { ...done, status: 'scheduled' },
      examPayload({ status: 'started', result: 'approved' }),
      { ...fresh },
    ]);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('EXAM_BATCH_REJECTED');
    expect(body.details.map((detail: { path: string }) => detail.path)).toEqual([
      'exams.3.schedulingId',
      'exams.1.status',
      'exams.2.result',
    ]);
    expect(body.details[1].message).toContain(
      'Não é possível mudar o exame de "Finalizado" para "Agendado"',
    );
    expect(
      await count(
        sql`select count(*)::int as n from exams where scheduling_id = ${fresh.schedulingId}`,
      ),
    ).toBe(0);
  });

  it('validates each field with a pt-BR message', async () => {
    const response = await push(dfKey, [
      examPayload({
        candidate: { name: 'X', cpf: '123' },
        schedulingDate: '20/11/2026',
        status: 'terminado',
      }),
    ]);
    expect(response.statusCode).toBe(400);
    const messages = response.json().details.map((detail: { message: string }) => detail.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Informe o nome do candidato.',
        'CPF inválido.',
        expect.stringMatching(/ISO 8601/),
      ]),
    );
  });

  it('status changes follow the state machine; illegal ones are a 409 with the reason', async () => {
    const exam = examPayload();
    await push(dfKey, [exam]);
    expect((await setStatus(dfKey, exam.schedulingId, { status: 'started' })).statusCode).toBe(200);
    const bad = await setStatus(dfKey, exam.schedulingId, { status: 'absence' });
    expect(bad.statusCode).toBe(409);
    expect(bad.json()).toMatchObject({
      Error: 'Não é possível mudar o exame de "Iniciado" para "Ausente".',
      code: 'EXAM_INVALID_TRANSITION',
    });
    const noResult = await setStatus(dfKey, exam.schedulingId, {
      status: 'started',
      result: 'approved',
    });
    expect(noResult.json().code).toBe('EXAM_RESULT_REQUIRES_DONE');
    const finished = await setStatus(dfKey, exam.schedulingId, {
      status: 'done',
      result: 'in_analysis',
      score: 21.5,
    });
    expect(finished.json()).toMatchObject({ status: 'done', result: 'in_analysis', score: 21.5 });
    expect(
      (await setStatus(dfKey, exam.schedulingId, { status: 'done', result: 'reproved' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await setStatus(dfKey, exam.schedulingId, { status: 'done', result: 'approved' })).json()
        .code,
    ).toBe('EXAM_INVALID_RESULT');
  });

  it('two decisions on the same exam at once: exactly one wins', async () => {
    const exam = examPayload({ status: 'started' });
    await push(dfKey, [exam]);
    const results = await Promise.all([
      setStatus(dfKey, exam.schedulingId, { status: 'done', result: 'approved' }),
      setStatus(dfKey, exam.schedulingId, { status: 'cancelled' }),
    ]);
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 409]);
  });

  it('a key of one unit touches nothing of another; a revoked key stops working', async () => {
    const spExam = examPayload();
    expect((await push(spKey, [spExam])).statusCode).toBe(200);
    // The same schedulingId from DF creates a DF exam: it cannot reach the SP one.
    expect((await setStatus(dfKey, spExam.schedulingId, { status: 'started' })).statusCode).toBe(
      404,
    );
    const photo = await t.app.inject({
      method: 'POST',
      url: `/api/Integration/exams/${spExam.schedulingId}/photos`,
      headers: { 'x-api-key': dfKey },
      payload: {
        image: (await sampleJpeg()).toString('base64'),
        capturedAt: '2026-11-20T10:05:00-03:00',
      },
    });
    expect(photo.statusCode).toBe(404);
    const spRead = await t.app.inject({
      method: 'GET',
      url: `/api/Exam/${spExam.schedulingId}`,
      headers: dfAdmin.auth,
    });
    expect(spRead.statusCode).toBe(404);

    const temporary = await createApiKeyFor(t.app, spAdmin.auth, 'Temporária');
    expect((await push(temporary.key, [examPayload()])).statusCode).toBe(200);
    // A DF admin cannot revoke an SP key.
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/Integration/keys/${temporary.apiKey.id}`,
      headers: dfAdmin.auth,
    });
    expect(foreign.statusCode).toBe(404);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/Integration/keys/${temporary.apiKey.id}`,
      headers: spAdmin.auth,
    });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().revokedAt).not.toBeNull();
    expect((await push(temporary.key, [examPayload()])).statusCode).toBe(401);
  });

  it('occurrences are idempotent by externalId and photos are re-encoded and served by signed address', async () => {
    const exam = examPayload({ status: 'started' });
    await push(dfKey, [exam]);
    const jpeg = await sampleJpeg(400, 7);
    const occurrence = {
      externalId: 'oc-1',
      type: 'terceiro',
      description: 'Outra pessoa apareceu na imagem.',
      occurredAt: '2026-11-20T10:12:00-03:00',
      photo: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    };
    const url = `/api/Integration/exams/${exam.schedulingId}/occurrences`;
    const first = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': dfKey },
      payload: { occurrences: [occurrence] },
    });
    expect(first.json()).toEqual({ created: 1, unchanged: 0 });
    const again = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': dfKey },
      payload: { occurrences: [occurrence] },
    });
    expect(again.json()).toEqual({ created: 0, unchanged: 1 });
    const photo = await t.app.inject({
      method: 'POST',
      url: `/api/Integration/exams/${exam.schedulingId}/photos`,
      headers: { 'x-api-key': dfKey },
      payload: {
        image: (await sampleJpeg(300, 3)).toString('base64'),
        capturedAt: '2026-11-20T10:20:00-03:00',
      },
    });
    expect(photo.json()).toMatchObject({ created: true });

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/Exam/${exam.schedulingId}`,
      headers: dfAdmin.auth,
    });
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.occurrences).toHaveLength(1);
    expect(body.occurrences[0]).toMatchObject({
      type: 'terceiro',
      description: 'Outra pessoa apareceu na imagem.',
    });
    expect(body.photos).toHaveLength(2);
    const served = await t.app.inject({ method: 'GET', url: body.photos[1].url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Stored encrypted: the file on disk is not the JPEG.
    const views = await count(
      sql`select count(*)::int as n from activity_log where type = 'photo_view'`,
    );
    expect(views).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from activity_log where type = 'load_exam'`),
    ).toBeGreaterThan(0);

    // A file lost from the store (or a changed key) is a clear 404, not a crash.
    const [stored] = (
      (await t.database.db.execute(
        sql`select storage_key from exam_photos where id = ${body.photos[0].id}`,
      )) as unknown as {
        rows: Array<{ storage_key: string }>;
      }
    ).rows;
    await t.app.files.remove(stored!.storage_key);
    const lost = await t.app.inject({ method: 'GET', url: body.photos[0].url });
    expect(lost.statusCode).toBe(404);
    expect(lost.json().code).toBe('FILE_UNAVAILABLE');

    const forged = body.photos[1].url.replace(
      /signature=[^&]+/,
      'signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    const expired = body.photos[1].url.replace(/expires=\d+/, 'expires=1000');
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
    // A signature made for the face-image route, same subject, viewer and expiry, is refused here.
    const address = new URL(body.photos[1].url, 'http://x');
    const faceSignature = t.app.files.signAccess(
      'face-image',
      body.photos[1].id,
      address.searchParams.get('viewer') ?? '',
      Number(address.searchParams.get('expires')),
    );
    const crossRoute = body.photos[1].url.replace(/signature=[^&]+/, `signature=${faceSignature}`);
    expect((await t.app.inject({ method: 'GET', url: crossRoute })).statusCode).toBe(403);
  });

  it('refuses what is not a clean image', async () => {
    const exam = examPayload();
    await push(dfKey, [exam]);
    const url = `/api/Integration/exams/${exam.schedulingId}/photos`;
    const jpeg = await sampleJpeg();
    const cases = {
      text: Buffer.from('isto não é uma imagem'),
      svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      html: Buffer.from('<html><script>alert(1)</script></html>'),
      truncated: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': dfKey },
        payload: { image: bytes.toString('base64'), capturedAt: '2026-11-20T10:20:00-03:00' },
      });
      expect([400, 413, 415], name).toContain(response.statusCode);
      expect(response.json().code, name).toMatch(/^IMAGE_/);
    }
    // A JPEG with HTML appended is accepted only as a re-encoded picture: the HTML is gone.
    const polyglot = Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')]);
    const accepted = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': dfKey },
      payload: { image: polyglot.toString('base64'), capturedAt: '2026-11-20T10:21:00-03:00' },
    });
    if (accepted.statusCode === 200) {
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/Exam/${exam.schedulingId}`,
        headers: dfAdmin.auth,
      });
      const served = await t.app.inject({ method: 'GET', url: detail.json().photos[0].url });
      expect(served.rawPayload.toString('latin1')).not.toContain('<script');
    } else {
      expect(accepted.json().code).toMatch(/^IMAGE_/);
    }
    expect(
      await count(
        sql`select count(*)::int as n from exam_photos p join exams e on e.id = p.exam_id where e.scheduling_id = ${exam.schedulingId}`,
      ),
    ).toBeLessThanOrEqual(1);
  });
});

/**
 * Every picture that reaches an exam (a photo, the reference photo, the
 * photos of a batch of occurrences, the photo of an examiner's occurrence in
 * a room) is decoded and re-encoded exactly once, and before the transaction
 * opens: CPU work holds no lock, and a picture that is not an image writes
 * nothing and locks nothing. The passes are counted with the image module's
 * hook; the transaction is seen by a spy on the app's `db.transaction`, the
 * statements by the database's query observer.
 */
describe('pictures: one normalisation each, before the transaction', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;
  let key: string;
  let roomId: string;
  let recording = false;
  /** The request's statements, with a `normalisation` line where a picture was re-encoded. */
  const trace: string[] = [];

  beforeAll(async () => {
    const database = await createTestDatabase({
      onQuery: (query) => {
        if (recording) trace.push(query);
      },
    });
    await ensureReferenceData(database.db);
    t = await buildTestApp({ database });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    key = (await createApiKeyFor(t.app, admin.auth)).key;
    await createPost(t.app, admin.auth, 'SP.POSTO01');
    const room = await createRoom(t.app, admin.auth, 'SP.POSTO01');
    expect(room.statusCode, room.body).toBe(201);
    roomId = room.json().id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await t.database.drop();
  });

  /** A started exam of SP in room S1; its id. */
  const newExam = async () => {
    const exam = examPayload({
      status: 'started',
      metadata: { schedulingLocal: 'SP.POSTO01-S1' },
    });
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams',
      headers: { 'x-api-key': key },
      payload: { exams: [exam] },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from exams where scheduling_id = ${exam.schedulingId}`,
    );
    return { schedulingId: exam.schedulingId, id: row!.id };
  };

  /** Sends one request and reports its passes over pictures, its transactions and its statements. */
  const traced = async (request: InjectOptions) => {
    const normalised = vi.fn(() => {
      trace.push('normalisation');
    });
    const transaction = vi.spyOn(t.database.db, 'transaction');
    const stop = observeNormalisation(normalised);
    trace.length = 0;
    recording = true;
    try {
      const response = await t.app.inject(request);
      return {
        response,
        passes: normalised.mock.calls.length,
        transactions: transaction.mock.calls.length,
        /** Every pass came before the first transaction was asked for. */
        passesFirst:
          Math.max(0, ...normalised.mock.invocationCallOrder) <
          Math.min(Number.POSITIVE_INFINITY, ...transaction.mock.invocationCallOrder),
        statements: [...trace],
      };
    } finally {
      recording = false;
      stop();
      transaction.mockRestore();
    }
  };

  const photosOf = async (examId: string) =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from exam_photos where exam_id = ${examId}`,
      )
    )[0]!.n;
  const occurrencesOf = async (examId: string) =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from occurrences where exam_id = ${examId}`,
      )
    )[0]!.n;

  /**
   * Nothing of the exam's pictures or occurrences was read under a lock or
   * written; the caller's bookkeeping (a session's or a key's last use) aside.
   */
  const untouched = (statements: string[]) =>
    statements
      .filter((statement) => !/^update "(sessions|integration_api_keys)"/i.test(statement))
      .filter((statement) =>
        /\b(insert|update|delete)\b|for (update|share)|exam_photos|occurrences|realtime/i.test(
          statement,
        ),
      );

  const truncatedJpeg = async () => {
    const jpeg = await sampleJpeg(320, 11);
    return jpeg.subarray(0, Math.floor(jpeg.length / 2)).toString('base64');
  };

  it('POST api/Integration/exams/:schedulingId/photos: one pass, before the transaction', async () => {
    const exam = await newExam();
    const run = await traced({
      method: 'POST',
      url: `/api/Integration/exams/${exam.schedulingId}/photos`,
      headers: { 'x-api-key': key },
      payload: {
        image: (await sampleJpeg(640, 1)).toString('base64'),
        capturedAt: '2026-11-20T10:05:00-03:00',
      },
    });
    expect(run.response.statusCode, run.response.body).toBe(200);
    expect(run.response.json()).toMatchObject({ created: true });
    expect(run.passes).toBe(1);
    expect(run.transactions).toBe(1);
    expect(run.passesFirst).toBe(true);
    expect(run.statements.indexOf('normalisation')).toBeLessThan(
      run.statements.findIndex((statement) => /exam_photos/.test(statement)),
    );
    expect(await photosOf(exam.id)).toBe(1);

    const refused = await traced({
      method: 'POST',
      url: `/api/Integration/exams/${exam.schedulingId}/photos`,
      headers: { 'x-api-key': key },
      payload: { image: await truncatedJpeg(), capturedAt: '2026-11-20T10:06:00-03:00' },
    });
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json().code).toBe('IMAGE_INVALID');
    expect(refused.passes).toBe(0);
    expect(refused.transactions).toBe(0);
    expect(untouched(refused.statements)).toEqual([]);
    expect(await photosOf(exam.id)).toBe(1);
  });

  it('PUT api/Integration/exams/:schedulingId/reference-photo: one pass, before the transaction', async () => {
    const exam = await newExam();
    const put = (image: string) =>
      traced({
        method: 'PUT',
        url: `/api/Integration/exams/${exam.schedulingId}/reference-photo`,
        headers: { 'x-api-key': key },
        payload: { image },
      });
    const first = await put((await sampleJpeg(480, 2)).toString('base64'));
    expect(first.response.statusCode, first.response.body).toBe(200);
    expect(first.response.json()).toMatchObject({ created: true });
    // A new one replaces the previous, with one pass as well.
    const second = await put((await sampleJpeg(480, 3)).toString('base64'));
    expect(second.response.json()).toMatchObject({ created: true });
    for (const run of [first, second]) {
      expect(run.passes).toBe(1);
      expect(run.transactions).toBe(1);
      expect(run.passesFirst).toBe(true);
    }
    expect(await photosOf(exam.id)).toBe(1);

    const refused = await put(await truncatedJpeg());
    expect(refused.response.statusCode).toBe(400);
    expect(refused.passes).toBe(0);
    expect(refused.transactions).toBe(0);
    expect(untouched(refused.statements)).toEqual([]);
    expect(await photosOf(exam.id)).toBe(1);
  });

  it('POST .../occurrences: one pass per photo of the batch, all before the transaction; a bad photo writes nothing', async () => {
    const exam = await newExam();
    const occurrence = (externalId: string, photo?: string) => ({
      externalId,
      type: 'terceiro',
      description: 'Outra pessoa apareceu na imagem.',
      occurredAt: '2026-11-20T10:12:00-03:00',
      ...(photo ? { photo } : {}),
    });
    const send = (occurrences: unknown[]) =>
      traced({
        method: 'POST',
        url: `/api/Integration/exams/${exam.schedulingId}/occurrences`,
        headers: { 'x-api-key': key },
        payload: { occurrences },
      });
    const run = await send([
      occurrence('oc-1', `data:image/jpeg;base64,${(await sampleJpeg(400, 4)).toString('base64')}`),
      occurrence('oc-2'),
      occurrence('oc-3', (await sampleJpeg(400, 5)).toString('base64')),
    ]);
    expect(run.response.statusCode, run.response.body).toBe(200);
    expect(run.response.json()).toEqual({ created: 3, unchanged: 0 });
    expect(run.passes).toBe(2);
    expect(run.transactions).toBe(1);
    expect(run.passesFirst).toBe(true);
    expect(await photosOf(exam.id)).toBe(2);
    expect(await occurrencesOf(exam.id)).toBe(3);

    // A good photo and a bad one: the good one is re-encoded, then the batch is refused untouched.
    const refused = await send([
      occurrence('oc-4', (await sampleJpeg(400, 6)).toString('base64')),
      occurrence('oc-5', await truncatedJpeg()),
    ]);
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json().code).toBe('IMAGE_INVALID');
    expect(refused.passes).toBe(1);
    expect(refused.transactions).toBe(0);
    expect(untouched(refused.statements)).toEqual([]);
    expect(await photosOf(exam.id)).toBe(2);
    expect(await occurrencesOf(exam.id)).toBe(3);
  });

  it('an examiner’s occurrence with a photo in a room: one pass, before the transaction', async () => {
    const exam = await newExam();
    const record = (photo: string) =>
      traced({
        method: 'POST',
        url: `/api/ExamRoom/${roomId}/exams/${exam.id}/occurrences`,
        headers: admin.auth,
        payload: { type: 'terceiro', description: 'Outra pessoa atrás do candidato.', photo },
      });
    const run = await record((await sampleJpeg(640, 8)).toString('base64'));
    expect(run.response.statusCode, run.response.body).toBe(201);
    expect(run.response.json()).toMatchObject({ occurrences: 1, photos: 1 });
    expect(run.passes).toBe(1);
    expect(run.transactions).toBe(1);
    expect(run.passesFirst).toBe(true);

    const refused = await record(await truncatedJpeg());
    expect(refused.response.statusCode).toBe(400);
    expect(refused.passes).toBe(0);
    expect(refused.transactions).toBe(0);
    expect(untouched(refused.statements)).toEqual([]);
    expect(await photosOf(exam.id)).toBe(1);
    expect(await occurrencesOf(exam.id)).toBe(1);
  });
});
