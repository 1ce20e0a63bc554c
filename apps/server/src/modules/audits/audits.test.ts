/**
 * The audit queue and the auditors' claims, on both database tiers: the
 * queue's order and filters, one auditor at a time on an exam (also when two
 * claim at the same moment), the auditor alert, expiry, release, "my audit"
 * and tenant isolation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

describe('audit queue and claims', () => {
  let t: TestApp;
  let admin: Signed;
  let ana: Signed;
  let bruno: Signed;
  let carla: Signed;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    ana = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
    bruno = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Bruno Auditor' });
    carla = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Carla Auditora' });
    const { key } = await createApiKeyFor(t.app, admin.auth);
    const at = (day: number, hour: number) =>
      new Date(Date.UTC(2026, 10, day, hour + 3)).toISOString();
    const pushed = await postExams(t.app, key, [
      examPayload({
        schedulingId: 'AUD-NOVO',
        schedulingDate: at(20, 10),
        status: 'done',
        result: 'in_analysis',
        metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      }),
      examPayload({
        schedulingId: 'AUD-ANTIGO',
        schedulingDate: at(18, 9),
        status: 'done',
        result: 'in_analysis',
        metadata: { schedulingLocal: 'SP.POSTO02-S1' },
      }),
      examPayload({
        schedulingId: 'AUD-APROVADO',
        schedulingDate: at(17, 9),
        status: 'done',
        result: 'approved',
        metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      }),
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    const occurrence = await t.app.inject({
      method: 'POST',
      url: '/api/Integration/exams/AUD-ANTIGO/occurrences',
      headers: { 'x-api-key': key },
      payload: {
        occurrences: [
          {
            externalId: 'occ-1',
            type: 'terceiro',
            description: 'Outra pessoa na sala.',
            occurredAt: at(18, 9),
          },
        ],
      },
    });
    expect(occurrence.statusCode, occurrence.body).toBeLessThan(300);
    const rows = await selectRows<{ id: string; scheduling_id: string }>(
      t.database.db,
      sql`select id, scheduling_id from exams where federative_unit = 'SP'`,
    );
    for (const row of rows) ids.set(row.scheduling_id, row.id);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, who: Signed) =>
    t.app.inject({ method, url, headers: who.auth });
  const queue = async (who: Signed, query = '') =>
    (await call('GET', `/api/Audit/queue${query}`, who)).json() as {
      total: number;
      items: Array<{
        id: string;
        schedulingId: string;
        candidateCpf: string;
        occurrences: number;
        claim: { auditorName: string; mine: boolean } | null;
      }>;
    };

  it('the queue: done exams waiting for audit, oldest first, masked, filtered', async () => {
    const all = await queue(ana);
    expect(all.items.map((item) => item.schedulingId)).toEqual(['AUD-ANTIGO', 'AUD-NOVO']);
    expect(all.items[0]).toMatchObject({ occurrences: 1, claim: null });
    expect(all.items[0]!.candidateCpf).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect((await queue(ana, '?withOccurrences=true')).items).toHaveLength(1);
    expect(
      (await queue(admin, '?schedulingLocal=SP.POSTO01')).items.map((i) => i.schedulingId),
    ).toEqual(['AUD-NOVO']);
    expect((await queue(ana, '?startDate=2026-11-19&endDate=2026-11-21')).total).toBe(1);
    // Past a full first page the total comes from the day counters, or is
    // counted when a filter is not theirs (occurrences, claims).
    const paged = await queue(ana, '?pageSize=1&page=2');
    expect(paged).toMatchObject({ total: 2, items: [{ schedulingId: 'AUD-NOVO' }] });
    expect((await queue(ana, '?pageSize=1&schedulingLocal=SP.POSTO01')).total).toBe(1);
    expect((await queue(ana, '?pageSize=1&withOccurrences=true')).total).toBe(1);
    expect((await queue(ana, '?pageSize=1&onlyFree=true')).total).toBe(2);
  });

  it('one auditor at a time: the other gets the auditor alert; the holder keeps it longer', async () => {
    const exam = ids.get('AUD-ANTIGO')!;
    const first = await call('POST', `/api/Audit/${exam}/claim`, ana);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ schedulingId: 'AUD-ANTIGO', mine: true });
    const refused = await call('POST', `/api/Audit/${exam}/claim`, bruno);
    expect(refused.statusCode).toBe(409);
    const body = refused.json();
    expect(body).toMatchObject({
      code: 'AUDIT_CLAIMED_BY_OTHER',
      Error: 'Este exame está em auditoria por outro auditor.',
      alert: {
        title: 'Exame em auditoria',
        messageAuditor: 'Este exame está sendo auditado por:',
        auditor: { auditorName: 'Ana Auditora' },
        message: 'Auditores que já trabalharam neste exame:',
      },
    });
    expect(body.alert.auditor.auditorCpf).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(body.alert.audit.map((a: { auditorName: string }) => a.auditorName)).toEqual([
      'Ana Auditora',
    ]);
    const again = await call('POST', `/api/Audit/${exam}/claim`, ana);
    expect(Date.parse(again.json().expiresAt)).toBeGreaterThanOrEqual(
      Date.parse(first.json().expiresAt),
    );
    const seen = (await queue(bruno)).items.find((item) => item.id === exam)!;
    expect(seen.claim).toMatchObject({ auditorName: 'Ana Auditora', mine: false });
    expect((await queue(bruno, '?onlyFree=true')).items.map((i) => i.schedulingId)).toEqual([
      'AUD-NOVO',
    ]);
    const mine = await call('GET', '/api/Audit/mine', ana);
    expect(mine.json().holding.map((c: { schedulingId: string }) => c.schedulingId)).toEqual([
      'AUD-ANTIGO',
    ]);
    expect((await call('GET', '/api/Audit/mine', bruno)).json()).toEqual({
      holding: [],
      decided: [],
    });
    const log = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from activity_log where type = 'load_audit' and actor_id = ${ana.user.id}`,
    );
    expect(log[0]!.n).toBe(2);
  });

  it('an expired claim frees the exam; a released one too; the alert lists who worked on it', async () => {
    const exam = ids.get('AUD-ANTIGO')!;
    // Ana's time runs out.
    await t.database.db.execute(
      sql`update audit_claims set expires_at = now() - interval '1 minute' where exam_id = ${exam} and ended_at is null`,
    );
    expect((await call('GET', '/api/Audit/mine', ana)).json()).toEqual({
      holding: [],
      decided: [],
    });
    expect((await call('POST', `/api/Audit/${exam}/claim`, bruno)).statusCode).toBe(200);
    const refused = (await call('POST', `/api/Audit/${exam}/claim`, carla)).json();
    expect(refused.alert.auditor.auditorName).toBe('Bruno Auditor');
    expect(refused.alert.audit.map((a: { auditorName: string }) => a.auditorName)).toEqual([
      'Ana Auditora',
      'Bruno Auditor',
    ]);
    // Only the holder gives it back.
    expect((await call('POST', `/api/Audit/${exam}/release`, carla)).json().code).toBe(
      'AUDIT_CLAIM_NOT_FOUND',
    );
    expect((await call('POST', `/api/Audit/${exam}/release`, bruno)).statusCode).toBe(204);
    expect((await call('POST', `/api/Audit/${exam}/claim`, carla)).statusCode).toBe(200);
    const ends = await selectRows<{ end_reason: string | null }>(
      t.database.db,
      sql`select end_reason from audit_claims where exam_id = ${exam} order by claimed_at`,
    );
    expect(ends.map((row) => row.end_reason)).toEqual(['expired', 'released', null]);
  });

  it('two auditors claiming at the same moment: exactly one holds the exam', async () => {
    const exam = ids.get('AUD-NOVO')!;
    const answers = await Promise.all(
      [ana, bruno, carla].map((who) => call('POST', `/api/Audit/${exam}/claim`, who)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const live = await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from audit_claims where exam_id = ${exam} and ended_at is null`,
    );
    expect(live[0]!.n).toBe(1);
  });

  it('only exams waiting for audit are claimed; another unit finds nothing', async () => {
    const approved = await call('POST', `/api/Audit/${ids.get('AUD-APROVADO')}/claim`, ana);
    expect(approved.statusCode).toBe(409);
    expect(approved.json().code).toBe('AUDIT_NOT_PENDING');
    const df = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const foreign = await call('POST', `/api/Audit/${ids.get('AUD-NOVO')}/claim`, df);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('AUDIT_EXAM_NOT_FOUND');
    expect((await queue(df)).items).toEqual([]);
    expect((await call('POST', `/api/Audit/${ids.get('AUD-NOVO')}/release`, df)).statusCode).toBe(
      404,
    );
  });
});
