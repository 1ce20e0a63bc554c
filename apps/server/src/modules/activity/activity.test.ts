import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import {
  createApiKeyFor,
  examPayload,
  postPhoto,
  pushExams,
  sampleJpeg,
} from '../../../test/exams';
import { nextCpf, seedSignedIn, signedSender } from '../../../test/identity';
import { dayInZone, formatCpf, SPEC_ACTIVITY_TYPES } from '@exame/shared';
import { selectRows } from '../../db/select-rows';
import { replaceEventCpf } from '../retention/retention.repository';
import { verifyChain } from './activity-chain';
import { insertActivity } from './activity.repository';
import { cpfTarget } from './activity.service';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

function webEvent(overrides: Record<string, unknown> = {}) {
  return {
    clientId: randomUUID(),
    type: 'page_view',
    occurredAt: '2026-11-20T10:00:00.000-03:00',
    target: '/exames',
    details: { from: '/inicio' },
    deviceId: 'dispositivo-1',
    appVersion: '1.4.2',
    ...overrides,
  };
}

describe(`api/ActivityLog on ${engineName}`, () => {
  let t: TestApp;
  let admin: Signed;
  let viewer: Signed;
  let auditor: Signed;
  let spAdmin: Signed;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    auditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
  });
  afterAll(() => t.close());

  const send = (who: Signed, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/ActivityLog/events', headers: who.auth, payload });

  /** An exam the integration reports done, with its result awaiting the audit. */
  const pushAwaitingAudit = (apiKey: string, schedulingId: string, post: string) =>
    pushExams(t.app, apiKey, [
      examPayload({
        schedulingId,
        status: 'done',
        result: 'in_analysis',
        score: 80,
        metadata: { schedulingLocal: post },
      }),
    ]);

  describe('POST /api/ActivityLog/events', () => {
    it('stores the batch with the actor and unit of the session, and a retried batch not again', async () => {
      const events = [
        webEvent(),
        webEvent({ type: 'error', target: 'GET /api/Exam', details: { status: 500 } }),
        webEvent({ type: 'stream_log', target: 'camera', details: { error: 'NotAllowedError' } }),
      ];
      const first = await send(viewer, { events });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ accepted: 3, duplicates: 0 });
      // The answer was lost: the browser sends the same batch again, plus one new event.
      const extra = webEvent({ target: '/relatorios' });
      const again = await send(viewer, { events: [...events, extra] });
      expect(again.json()).toEqual({ accepted: 1, duplicates: 3 });
      expect((await send(viewer, { events })).json()).toEqual({ accepted: 0, duplicates: 3 });
      const rows = await selectRows<{
        type: string;
        actor_id: string;
        federative_unit: string;
        target: string;
        payload: Record<string, unknown>;
        device_id: string;
        app_version: string;
        occurred_at: Date | string;
      }>(
        t.database.db,
        sql`select type, actor_id, federative_unit, target, payload, device_id, app_version, occurred_at
            from activity_log where actor_id = ${viewer.user.id} order by seq`,
      );
      expect(rows.map((row) => row.type)).toEqual([
        'page_view',
        'error',
        'stream_log',
        'page_view',
      ]);
      expect(rows[0]).toMatchObject({
        actor_id: viewer.user.id,
        federative_unit: 'DF',
        target: '/exames',
        payload: { from: '/inicio' },
        device_id: 'dispositivo-1',
        app_version: '1.4.2',
      });
      expect(new Date(rows[0]!.occurred_at).toISOString()).toBe('2026-11-20T13:00:00.000Z');
      expect(await verifyChain(t.database.db, 'DF')).toMatchObject({ ok: true });
    });

    it('keeps one copy when the same batch arrives twice at once, and inside one batch', async () => {
      const events = [webEvent(), webEvent()];
      const answers = await Promise.all([send(auditor, { events }), send(auditor, { events })]);
      const bodies = answers.map((answer) => answer.json() as { accepted: number });
      expect(bodies.map((body) => body.accepted).sort()).toEqual([0, 2]);
      const twice = webEvent();
      expect((await send(auditor, { events: [twice, twice] })).json()).toEqual({
        accepted: 1,
        duplicates: 1,
      });
      const [count] = await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from activity_log where actor_id = ${auditor.user.id}`,
      );
      expect(count?.n).toBe(3);
    });

    it('the same client id from another user is another event', async () => {
      const event = webEvent();
      expect((await send(admin, { events: [event] })).json()).toEqual({
        accepted: 1,
        duplicates: 0,
      });
      expect((await send(spAdmin, { events: [event] })).json()).toEqual({
        accepted: 1,
        duplicates: 0,
      });
    });

    it('refuses an invalid batch with 400 and a code, and stores nothing of it', async () => {
      const before = await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from activity_log`,
      );
      const invalid: object[] = [
        { events: [] },
        { events: Array.from({ length: 101 }, () => webEvent()) },
        { events: [webEvent({ type: 'user_add' })] },
        { events: [webEvent({ clientId: 'abc' })] },
        { events: [webEvent({ occurredAt: 'ontem' })] },
        { events: [webEvent({ target: 'x'.repeat(501) })] },
        { events: [webEvent({ details: { blob: 'x'.repeat(9000) } })] },
        { events: [webEvent({ deviceId: 'd'.repeat(101) })] },
        { events: [webEvent({ appVersion: undefined })] },
        { events: [webEvent(), webEvent({ type: 'page_view', occurredAt: 42 })] },
        // What PostgreSQL cannot store: NUL, and a lone surrogate inside jsonb.
        { events: [webEvent({ target: 'a\u0000b' })] },
        { events: [webEvent({ details: { message: 'erro\u0000' } })] },
        { events: [webEvent({ details: { nested: [{ text: 'x\uD800y' }] } })] },
      ];
      for (const payload of invalid) {
        const answer = await send(viewer, payload);
        expect(answer.statusCode).toBe(400);
        // A NUL anywhere in a request is refused before validation, by the input guard.
        const nul = JSON.stringify(payload).includes('\\u0000');
        expect(answer.json()).toMatchObject({
          code: nul ? 'INVALID_CHARACTER' : 'VALIDATION_ERROR',
        });
        expect(typeof answer.json().Error).toBe('string');
      }
      const after = await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from activity_log`,
      );
      expect(after[0]?.n).toBe(before[0]?.n);
    });

    it('needs a session', async () => {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/ActivityLog/events',
        payload: { events: [webEvent()] },
      });
      expect(answer.statusCode).toBe(401);
    });
  });

  describe('every event type of spec 3 is produced by its action', () => {
    it('user_add, load_exam, load_audit, send_result, examiner_transfered, page_view, error, stream_log', async () => {
      const sp = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
      const spAuditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP' });
      const call = signedSender(() => t.app);
      // user_add: the ADMIN registers a user.
      const added = await call('POST', '/api/User', sp, {
        name: 'Pessoa Registrada',
        email: `registrada.${Date.now()}@teste.gov.br`,
        cpf: nextCpf(),
        role: 'ROOM_INSPECTOR',
      });
      expect(added.statusCode, added.body).toBe(201);
      // load_exam: an exam opened; load_audit and send_result: audited and released.
      const key = await createApiKeyFor(t.app, sp.auth);
      await pushAwaitingAudit(key.key, 'ATV-1', 'SP.POSTO01-S1');
      expect((await call('GET', '/api/Exam/ATV-1', sp)).statusCode).toBe(200);
      const [exam] = await selectRows<{ id: string }>(
        t.database.db,
        sql`select id from exams where scheduling_id = 'ATV-1'`,
      );
      const claimed = await call('POST', `/api/Audit/${exam!.id}/claim`, spAuditor);
      expect(claimed.statusCode, claimed.body).toBe(200);
      const decided = await call('POST', `/api/Audit/${exam!.id}/decision`, spAuditor, {
        action: 'release',
      });
      expect(decided.statusCode, decided.body).toBe(200);
      // examiner_transfered: a room passes to another examiner proven by password.
      await t.app.inject({
        method: 'POST',
        url: '/api/SchedulingLocal',
        headers: sp.auth,
        payload: { identifier: 'SP.POSTO88', description: 'Posto de atividades' },
      });
      const giver = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP' });
      const taker = await seedSignedIn(t.app, { role: 'ROOM_INSPECTOR', unit: 'SP' });
      const opened = await call('POST', '/api/SchedulingLocalCheckIn/checkIn', giver, {
        viewers: [{ cpf: giver.user.cpf }],
        schedulingLocal: 'SP.POSTO88',
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const checkInId = opened.json().id as string;
      const record = await call(
        'GET',
        `/api/SchedulingLocalCheckIn/findCheckInById/${checkInId}`,
        giver,
      );
      const proof = await call('POST', '/api/Auth/viewer-checkin', giver, {
        email: taker.user.email,
        password: 'Trilha#Segura42',
        checkInId,
      });
      const transfer = await call('POST', '/api/SchedulingLocalCheckIn/transfer', giver, {
        checkInId,
        fromViewerId: record.json().viewers[0].id,
        to: { proctoringToken: proof.json().proctoringToken },
      });
      expect(transfer.statusCode, transfer.body).toBe(200);
      // page_view, error, stream_log: sent by the web client.
      const web = await send(sp, {
        events: [
          webEvent(),
          webEvent({ type: 'error' }),
          webEvent({ type: 'stream_log', target: 'captura:publicada' }),
        ],
      });
      expect(web.json()).toEqual({ accepted: 3, duplicates: 0 });

      const rows = await selectRows<{ type: string; target: string | null }>(
        t.database.db,
        sql`select distinct type, target from activity_log where federative_unit = 'SP'`,
      );
      const produced = new Set(rows.map((row) => row.type));
      expect(SPEC_ACTIVITY_TYPES.filter((type) => !produced.has(type))).toEqual([]);
      // The events about an exam name it in `target`.
      for (const type of ['load_exam', 'load_audit', 'send_result']) {
        expect(rows).toContainEqual({ type, target: 'exam:ATV-1' });
      }
      expect(await verifyChain(t.database.db, 'SP')).toMatchObject({ ok: true });
    });

    it('an action whose event cannot be written is undone with it (one transaction)', async () => {
      const rj = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'RJ' });
      const rjAuditor = await seedSignedIn(t.app, { role: 'auditor', unit: 'RJ' });
      const key = await createApiKeyFor(t.app, rj.auth, 'Chave RJ');
      await pushAwaitingAudit(key.key, 'ATV-RJ-1', 'RJ.POSTO01-S1');
      const [exam] = await selectRows<{ id: string }>(
        t.database.db,
        sql`select id from exams where scheduling_id = 'ATV-RJ-1'`,
      );
      const claimed = await t.app.inject({
        method: 'POST',
        url: `/api/Audit/${exam!.id}/claim`,
        headers: rjAuditor.auth,
      });
      expect(claimed.statusCode, claimed.body).toBe(200);
      const state = async () =>
        selectRows<{ result: string; users: number; events: number }>(
          t.database.db,
          sql`select (select result from exams where scheduling_id = 'ATV-RJ-1') as result,
                     (select count(*)::int from users where email = 'nao.gravada@teste.gov.br') as users,
                     (select count(*)::int from activity_log where federative_unit = 'RJ' and type in ('user_add', 'send_result')) as events`,
        );
      const before = await state();
      // The log refuses these two events of RJ, the way a full disk or a broken link would.
      await t.database.db.execute(
        sql.raw(`create function test_refuse_event() returns trigger language plpgsql as $$
          begin
            if new.federative_unit = 'RJ' and new.type in ('user_add', 'send_result') then
              raise exception 'evento recusado pelo teste';
            end if;
            return new;
          end $$`),
      );
      await t.database.db.execute(
        sql.raw(
          'create trigger test_refuse_event before insert on activity_log for each row execute function test_refuse_event()',
        ),
      );
      try {
        const added = await t.app.inject({
          method: 'POST',
          url: '/api/User',
          headers: rj.auth,
          payload: {
            name: 'Pessoa Não Gravada',
            email: 'nao.gravada@teste.gov.br',
            cpf: nextCpf(),
            role: 'ROOM_INSPECTOR',
          },
        });
        expect(added.statusCode).toBeGreaterThanOrEqual(500);
        expect(added.json().code).toEqual(expect.any(String));
        const decided = await t.app.inject({
          method: 'POST',
          url: `/api/Audit/${exam!.id}/decision`,
          headers: rjAuditor.auth,
          payload: { action: 'release' },
        });
        expect(decided.statusCode).toBeGreaterThanOrEqual(500);
        expect(await state()).toEqual(before);
        expect(before).toEqual([{ result: 'in_analysis', users: 0, events: 0 }]);
      } finally {
        await t.database.db.execute(sql.raw('drop trigger test_refuse_event on activity_log'));
        await t.database.db.execute(sql.raw('drop function test_refuse_event()'));
      }
      // With the log writable again, the same actions go through, each with its event.
      const decided = await t.app.inject({
        method: 'POST',
        url: `/api/Audit/${exam!.id}/decision`,
        headers: rjAuditor.auth,
        payload: { action: 'release' },
      });
      expect(decided.statusCode, decided.body).toBe(200);
      // Released (or, by the random re-check draw, awaiting a second auditor): as the answer says.
      const [after] = await state();
      expect(decided.json().outcome).toBe('approved');
      expect(after?.result).toBe(decided.json().result);
      expect(after?.events).toBe(1);
      expect(await verifyChain(t.database.db, 'RJ')).toMatchObject({ ok: true });
    });
  });

  describe('GET /api/ActivityLog, export and verify (ADMIN, own unit)', () => {
    const personCpf = '52998224725';
    beforeAll(async () => {
      const db = t.database.db;
      // What the face image and exam photo views write (biopass, check-ins, exams services).
      await insertActivity(db, {
        type: 'face_image_view',
        actorId: auditor.user.id,
        federativeUnit: 'DF',
        payload: { cpf: personCpf },
        target: cpfTarget(t.app.pseudonym, personCpf),
      });
      const key = await createApiKeyFor(t.app, admin.auth, 'Chave atividades');
      await pushExams(t.app, key.key, [
        examPayload({
          schedulingId: 'FOTO-1',
          candidate: { name: 'Pessoa Vista', cpf: formatCpf(personCpf), renach: 'DF1' },
        }),
      ]);
      // A real exam photo, opened the way the exam screen opens it (which also writes load_exam).
      const photo = await postPhoto(t.app, key.key, 'FOTO-1', {
        image: (await sampleJpeg(300, 5)).toString('base64'),
        capturedAt: '2026-11-20T10:20:00-03:00',
      });
      expect(photo.statusCode, photo.body).toBe(200);
      const detail = await t.app.inject({
        method: 'GET',
        url: '/api/Exam/FOTO-1',
        headers: admin.auth,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      const served = await t.app.inject({ method: 'GET', url: detail.json().photos[0].url });
      expect(served.statusCode).toBe(200);
      // Another person's view, and the same person's view in another unit.
      await insertActivity(db, {
        type: 'face_image_view',
        actorId: auditor.user.id,
        federativeUnit: 'DF',
        payload: { cpf: '11144477735' },
        target: cpfTarget(t.app.pseudonym, '11144477735'),
      });
      await insertActivity(db, {
        type: 'face_image_view',
        actorId: spAdmin.user.id,
        federativeUnit: 'SP',
        payload: { cpf: personCpf },
        target: cpfTarget(t.app.pseudonym, personCpf),
      });
      await send(viewer, {
        events: [
          webEvent({ target: '=HYPERLINK("http://x";"clique")', details: { a: '@SOMA(1)' } }),
        ],
      });
    });

    const search = (who: Signed, query = '') =>
      t.app.inject({ method: 'GET', url: `/api/ActivityLog${query}`, headers: who.auth });

    it('answers "who saw this person\'s biometric data" with one filter, before and after the redaction', async () => {
      const ask = async () => {
        const answer = await search(admin, `?target=${encodeURIComponent(formatCpf(personCpf))}`);
        expect(answer.statusCode, answer.body).toBe(200);
        return answer.json() as {
          items: Array<{ type: string; actorName: string; federativeUnit: string }>;
          total: number;
        };
      };
      const before = await ask();
      // The face image and the exam photo seen, and the exam's page that showed the photo.
      expect(before.items.map((item) => item.type).sort()).toEqual([
        'face_image_view',
        'load_exam',
        'photo_view',
      ]);
      expect(before.items.every((item) => item.federativeUnit === 'DF')).toBe(true);
      expect(before.items.find((item) => item.type === 'face_image_view')?.actorName).toBe(
        auditor.user.name,
      );
      expect(before.items.find((item) => item.type === 'photo_view')?.actorName).toBe(
        admin.user.name,
      );
      // The retention period passes: the CPF in the payload becomes its pseudonym.
      const [row] = await selectRows<{ id: string }>(
        t.database.db,
        sql`select id from activity_log where type = 'face_image_view' and payload->>'cpf' = ${personCpf} and federative_unit = 'DF'`,
      );
      await replaceEventCpf(t.database.db, row!.id, t.app.pseudonym(personCpf));
      expect((await ask()).total).toBe(3);
      expect(await verifyChain(t.database.db, 'DF')).toMatchObject({ ok: true });
    });

    it('filters by type, actor, text and period; newest first; pages', async () => {
      const byType = (await search(admin, '?type=face_image_view,photo_view')).json();
      expect(byType.items.map((item: { type: string }) => item.type).sort()).toEqual([
        'face_image_view',
        'face_image_view',
        'photo_view',
      ]);
      const repeated = (await search(admin, '?type=photo_view&type=page_view')).json();
      expect(new Set(repeated.items.map((item: { type: string }) => item.type))).toEqual(
        new Set(['photo_view', 'page_view']),
      );
      const byActor = (
        await search(admin, `?actorId=${auditor.user.id}&type=face_image_view`)
      ).json();
      expect(byActor.total).toBe(2);
      const byName = (
        await search(admin, `?actor=${encodeURIComponent(auditor.user.name)}`)
      ).json();
      expect(
        byName.items.every((item: { actorId: string }) => item.actorId === auditor.user.id),
      ).toBe(true);
      expect(byName.total).toBeGreaterThan(0);
      const all = (await search(admin, '?pageSize=2&page=1')).json();
      expect(all.items).toHaveLength(2);
      expect(all.items[0].seq).toBeGreaterThan(all.items[1].seq);
      expect(all.pageSize).toBe(2);
      const second = (await search(admin, '?pageSize=2&page=2')).json();
      expect(second.items[0].seq).toBeLessThan(all.items[1].seq);
      const future = (await search(admin, '?from=2099-01-01')).json();
      expect(future.total).toBe(0);
      const day = (offset: number) =>
        new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const period = await search(admin, `?from=${day(-2)}&to=${day(2)}`);
      expect(period.json().total, period.body).toBe(all.total);
      const badDate = await search(admin, '?from=ontem');
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().code).toBe('PERIOD_INVALID_START_DATE');
      const badType = await search(admin, '?type=nada');
      expect(badType.statusCode).toBe(400);
      expect(badType.json().code).toBe('VALIDATION_ERROR');
      expect((await search(admin, '?pageSize=201')).json().code).toBe('VALIDATION_ERROR');
      expect((await search(admin, '?actor=a%00b')).json().code).toBe('INVALID_CHARACTER');
      expect((await search(admin, '?target=%00')).json().code).toBe('INVALID_CHARACTER');
    });

    it('an ADMIN sees only their unit; other roles get 403', async () => {
      const sp = (await search(spAdmin, `?type=face_image_view&target=${personCpf}`)).json();
      expect(sp.items.map((item: { federativeUnit: string }) => item.federativeUnit)).toEqual([
        'SP',
      ]);
      const everything = (await search(spAdmin, '?pageSize=200')).json();
      expect(
        everything.items.every((item: { federativeUnit: string }) => item.federativeUnit === 'SP'),
      ).toBe(true);
      for (const who of [viewer, auditor]) {
        for (const url of [
          '/api/ActivityLog',
          '/api/ActivityLog/export',
          '/api/ActivityLog/verify',
        ]) {
          const answer = await t.app.inject({ method: 'GET', url, headers: who.auth });
          expect(answer.statusCode, url).toBe(403);
        }
      }
    });

    it('exports the search as CSV with formulas neutralised', async () => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/ActivityLog/export?type=page_view',
        headers: admin.auth,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      const day = dayInZone(new Date());
      expect(answer.headers['content-disposition']).toContain(
        `filename="atividades-DF-${day}.csv"`,
      );
      const body = answer.rawPayload.toString('utf8');
      expect(body.startsWith('\uFEFF"Nº";"Data e hora (servidor)";')).toBe(true);
      const lines = body.slice(1).trim().split('\r\n');
      expect(lines.slice(1).every((line) => line.includes(';"page_view";'))).toBe(true);
      expect(body).toContain(`"'=HYPERLINK(""http://x"";""clique"")"`);
      expect(body).not.toMatch(/;=HYPERLINK/);
      // The details are JSON text, never a formula either.
      expect(body).toContain('@SOMA(1)');
      const bad = await t.app.inject({
        method: 'GET',
        url: '/api/ActivityLog/export?to=31-12-2026',
        headers: admin.auth,
      });
      expect(bad.json().code).toBe('PERIOD_INVALID_END_DATE');
    });

    it("verifies the unit's chain and names the first broken link", async () => {
      const verify = (who: Signed) =>
        t.app.inject({ method: 'GET', url: '/api/ActivityLog/verify', headers: who.auth });
      const ok = (await verify(admin)).json();
      expect(ok).toMatchObject({ ok: true, firstBroken: null });
      expect(ok.checked).toBeGreaterThan(3);
      const [victim] = await selectRows<{ id: string; seq: string }>(
        t.database.db,
        sql`select id, seq from activity_log where federative_unit = 'DF' and type = 'photo_view'`,
      );
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(
          sql`update activity_log set actor_id = ${viewer.user.id} where id = ${victim!.id}`,
        );
      });
      const broken = (await verify(admin)).json();
      expect(broken).toMatchObject({
        ok: false,
        checked: Number(victim!.seq) - 1,
        firstBroken: { id: victim!.id, seq: Number(victim!.seq) },
      });
      // Another unit's chain is untouched.
      expect((await verify(spAdmin)).json()).toMatchObject({ ok: true });
    });
  });
});
