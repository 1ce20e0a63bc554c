/**
 * Audit decisions (`send_result`) on both database tiers: releasing the
 * result from the score, disqualifying with an active reason of the unit and
 * a note, the claim every judgement needs, the two-person rule, the re-check
 * of approvals, ADMIN reopening, two decisions at the same moment and tenant
 * isolation. Each decision is checked where it lands: the exam's result, its
 * status history, the claim, the activity log and the report counters.
 */
import {
  AUDIT_ERRORS,
  sumCounters,
  type AuditErrorCode,
  type LocalReport,
  type ReportCounters,
} from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../config/env';
import { selectRows } from '../../db/select-rows';
import type { SessionUser } from '../../lib/actors';
import { awaitingAuditPayload, createApiKeyFor, examPayload, postExams } from '../../../test/exams';
import { buildTestApp, testConfig, type TestApp } from '../../../test/helper';
import { seedSignedIn, signedSender } from '../../../test/identity';
import type { AuditDeps } from './audit-claims.service';
import { revokeForResult } from '../certificates/certificates.service';
import { decideExam } from './audit-decisions.service';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;
type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour + 3)).toISOString();
const PERIOD = 'startDate=2026-11-01&endDate=2026-11-30';
const MASKED_CPF = /^\*\*\*\.\d{3}\.\d{3}-\*\*$/;

/** One app and database: an ADMIN and three auditors of SP, and SP exams waiting for audit. */
async function openWorld(
  audit: Partial<AppConfig['audit']>,
  exams: Array<[schedulingId: string, score: number | null]>,
) {
  const t = await buildTestApp({ config: { audit: { ...testConfig().audit, ...audit } } });
  const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP', name: 'Adriana Admin' });
  const ana = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Ana Auditora' });
  const bruno = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Bruno Auditor' });
  const carla = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP', name: 'Carla Auditora' });
  const { key } = await createApiKeyFor(t.app, admin.auth);
  const pushed = await postExams(
    t.app,
    key,
    exams.map(([schedulingId, score], index) =>
      awaitingAuditPayload({
        schedulingId,
        schedulingDate: at(10 + index, 9),
        ...(score === null ? {} : { score }),
        metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      }),
    ),
  );
  expect(pushed.statusCode, pushed.body).toBe(200);
  const rows = await selectRows<{ id: string; scheduling_id: string }>(
    t.database.db,
    sql`select id, scheduling_id from exams where federative_unit = 'SP'`,
  );
  const ids = new Map(rows.map((row) => [row.scheduling_id, row.id]));

  const send = signedSender(() => t.app);
  const id = (schedulingId: string) => {
    const found = ids.get(schedulingId);
    if (!found) throw new Error(`exame ${schedulingId} não semeado`);
    return found;
  };
  const claim = async (schedulingId: string, who: Signed) => {
    const answer = await send('POST', `/api/Audit/${id(schedulingId)}/claim`, who);
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const decide = (schedulingId: string, who: Signed, payload: object) =>
    send('POST', `/api/Audit/${id(schedulingId)}/decision`, who, payload);
  const confirm = (schedulingId: string, who: Signed, payload: object) =>
    send('POST', `/api/Audit/${id(schedulingId)}/confirmation`, who, payload);
  const detail = async (schedulingId: string, who: Signed) => {
    const answer = await send('GET', `/api/Audit/${id(schedulingId)}`, who);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  /** The report counters of the unit summed over its posts, as GET /api/ExamReport gives them. */
  const counters = async (): Promise<ReportCounters> => {
    const answer = await send('GET', `/api/ExamReport?${PERIOD}`, admin);
    expect(answer.statusCode, answer.body).toBe(200);
    return sumCounters(answer.json() as LocalReport[]);
  };
  /** The exam as stored. */
  const exam = async (schedulingId: string) => {
    const [row] = await selectRows<{ status: string; result: string | null }>(
      t.database.db,
      sql`select status, result from exams where id = ${id(schedulingId)}`,
    );
    return row!;
  };
  const decisions = (schedulingId: string) =>
    selectRows<{
      auditor_id: string;
      outcome: string;
      state: string;
      confirmation: string | null;
      reason_id: string | null;
      note: string | null;
      decided_at: Date | string;
      confirmed_by: string | null;
      reopened_by: string | null;
      reopen_reason: string | null;
    }>(
      t.database.db,
      sql`select * from audit_decisions where exam_id = ${id(schedulingId)} order by decided_at`,
    );
  const queue = async (who: Signed, query = '') => {
    const answer = await send('GET', `/api/Audit/queue${query}`, who);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as {
      total: number;
      items: Array<{
        id: string;
        schedulingId: string;
        awaitingConfirmation: { auditorName: string; outcome: string } | null;
      }>;
    };
  };
  const count = async (query: ReturnType<typeof sql>) =>
    (await selectRows<{ n: number }>(t.database.db, query))[0]!.n;
  return {
    t,
    admin,
    ana,
    bruno,
    carla,
    key,
    id,
    send,
    claim,
    decide,
    confirm,
    detail,
    counters,
    exam,
    decisions,
    queue,
    count,
  };
}
type World = Awaited<ReturnType<typeof openWorld>>;

/** An error of the audit catalogue, with its pt-BR text. */
function expectAuditError(answer: Reply, code: AuditErrorCode) {
  expect(answer.statusCode, answer.body).toBe(AUDIT_ERRORS[code].status);
  expect(answer.json()).toMatchObject({ code, Error: AUDIT_ERRORS[code].message });
}

/** A validation error (400) that says `message` somewhere in its details. */
function expectValidation(answer: Reply, message: string) {
  expect(answer.statusCode, answer.body).toBe(400);
  expect(answer.json().code).toBe('VALIDATION_ERROR');
  expect(
    (answer.json().details as Array<{ message: string }>).map((detail) => detail.message),
  ).toContain(message);
}

/** `after` is `before` with `changes` added (every other counter the same). */
function expectMoved(
  before: ReportCounters,
  after: ReportCounters,
  changes: Partial<ReportCounters>,
) {
  const expected = { ...before };
  for (const [counter, delta] of Object.entries(changes) as Array<[keyof ReportCounters, number]>)
    expected[counter] += delta;
  expect(after).toEqual(expected);
}

async function createReason(w: World, who: Signed, code: string, active = true) {
  const created = await w.send('POST', '/api/DisqualificationReason', who, {
    code,
    text: `Justificativa ${code} usada nos testes de auditoria.`,
  });
  expect(created.statusCode, created.body).toBe(201);
  const reason = created.json() as { id: string; code: string; text: string };
  if (!active) {
    const off = await w.send('PUT', `/api/DisqualificationReason/${reason.id}`, who, {
      isActive: false,
    });
    expect(off.statusCode, off.body).toBe(200);
  }
  return reason;
}

describe('audit decisions (two-person rule off, no re-check)', () => {
  let w: World;
  let reason: { id: string; code: string; text: string };
  let inactive: { id: string };
  let foreignReason: { id: string };
  let rjAuditor: Signed;
  let rjAdmin: Signed;

  beforeAll(async () => {
    w = await openWorld({ twoPersonRule: false, recheckRate: 0 }, [
      ['DEC-APROVA', 85],
      ['DEC-LIMITE', 70],
      ['DEC-REPROVA', 69.99],
      ['DEC-SEM-NOTA', null],
      ['DEC-DESCLASSIFICA', 92],
      ['DEC-SEM-POSSE', 75],
      ['DEC-CONCORRE', 80],
      ['DEC-EXPIRA', 80],
      ['DEC-ISOLADO', 80],
    ]);
    reason = await createReason(w, w.admin, 'AUD-COLA');
    inactive = await createReason(w, w.admin, 'AUD-VELHA', false);
    rjAdmin = await seedSignedIn(w.t.app, { role: 'ADMIN', unit: 'RJ' });
    rjAuditor = await seedSignedIn(w.t.app, { role: 'auditor', unit: 'RJ' });
    foreignReason = await createReason(w, rjAdmin, 'AUD-RJ');
  });
  afterAll(() => w.t.close());

  it('release: at or above 70 approved, below reproved; result, history, claim, activity and report in the same request', async () => {
    for (const [schedulingId, outcome] of [
      ['DEC-APROVA', 'approved'],
      ['DEC-LIMITE', 'approved'],
      ['DEC-REPROVA', 'reproved'],
    ] as const) {
      await w.claim(schedulingId, w.ana);
      expect((await w.detail(schedulingId, w.ana)).releaseOutcome).toBe(outcome);
      const before = await w.counters();
      const answer = await w.decide(schedulingId, w.ana, { action: 'release' });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ state: 'effective', outcome, result: outcome });
      // The report counts the exams table: it moved with the decision.
      expectMoved(before, await w.counters(), { pendingAudit: -1, [outcome]: 1 });
      expect(await w.exam(schedulingId)).toEqual({ status: 'done', result: outcome });
      const history = await selectRows<{
        from_result: string;
        to_result: string;
        source: string;
        actor_id: string | null;
      }>(
        w.t.database.db,
        sql`select from_result, to_result, source, actor_id from exam_status_history
            where exam_id = ${w.id(schedulingId)} and source = 'user'`,
      );
      expect(history).toEqual([
        { from_result: 'in_analysis', to_result: outcome, source: 'user', actor_id: w.ana.user.id },
      ]);
      const claims = await selectRows<{ end_reason: string | null; ended_at: unknown }>(
        w.t.database.db,
        sql`select end_reason, ended_at from audit_claims where exam_id = ${w.id(schedulingId)}`,
      );
      expect(claims).toHaveLength(1);
      expect(claims[0]!.end_reason).toBe('decided');
      expect(claims[0]!.ended_at).not.toBeNull();
      const activity = await selectRows<{
        actor_id: string;
        federative_unit: string;
        payload: Record<string, unknown>;
      }>(
        w.t.database.db,
        sql`select actor_id, federative_unit, payload from activity_log
            where type = 'send_result' and payload->>'examId' = ${w.id(schedulingId)}`,
      );
      expect(activity).toHaveLength(1);
      expect(activity[0]).toMatchObject({
        actor_id: w.ana.user.id,
        federative_unit: 'SP',
        payload: { schedulingId, outcome, state: 'effective', confirmation: null },
      });
      // Decided: out of the queue, and not decided twice.
      expect((await w.queue(w.bruno)).items.map((item) => item.schedulingId)).not.toContain(
        schedulingId,
      );
      expectAuditError(
        await w.decide(schedulingId, w.ana, { action: 'release' }),
        'AUDIT_NOT_PENDING',
      );
    }
    const exam = await w.send('GET', '/api/Exam/DEC-REPROVA', w.admin);
    expect(exam.json().exam).toMatchObject({ result: 'reproved', score: 69.99 });
  });

  it('release without a score: 409 AUDIT_SCORE_MISSING, nothing changes and the claim stays', async () => {
    await w.claim('DEC-SEM-NOTA', w.ana);
    expect((await w.detail('DEC-SEM-NOTA', w.ana)).releaseOutcome).toBeNull();
    const before = await w.counters();
    expectAuditError(
      await w.decide('DEC-SEM-NOTA', w.ana, { action: 'release' }),
      'AUDIT_SCORE_MISSING',
    );
    expect(await w.counters()).toEqual(before);
    expect(await w.exam('DEC-SEM-NOTA')).toEqual({ status: 'done', result: 'in_analysis' });
    expect(await w.decisions('DEC-SEM-NOTA')).toEqual([]);
    const mine = (await w.send('GET', '/api/Audit/mine', w.ana)).json();
    expect(mine.holding.map((c: { schedulingId: string }) => c.schedulingId)).toEqual([
      'DEC-SEM-NOTA',
    ]);
    expect(
      (await w.send('POST', `/api/Audit/${w.id('DEC-SEM-NOTA')}/release`, w.ana)).statusCode,
    ).toBe(204);
  });

  it('disqualify: an active reason of the unit and a note, or 400', async () => {
    const exam = 'DEC-DESCLASSIFICA';
    await w.claim(exam, w.ana);
    const note = 'Candidato consultou o celular durante a prova.';
    expectAuditError(
      await w.decide(exam, w.ana, { action: 'disqualify', reasonId: inactive.id, note }),
      'AUDIT_REASON_INVALID',
    );
    expectAuditError(
      await w.decide(exam, w.ana, { action: 'disqualify', reasonId: foreignReason.id, note }),
      'AUDIT_REASON_INVALID',
    );
    expectAuditError(
      await w.decide(exam, w.ana, {
        action: 'disqualify',
        reasonId: '00000000-0000-4000-8000-000000000000',
        note,
      }),
      'AUDIT_REASON_INVALID',
    );
    const noteMessage = 'Descreva o motivo da desclassificação na observação.';
    expectValidation(
      await w.decide(exam, w.ana, { action: 'disqualify', reasonId: reason.id }),
      noteMessage,
    );
    expectValidation(
      await w.decide(exam, w.ana, { action: 'disqualify', reasonId: reason.id, note: '   ' }),
      noteMessage,
    );
    expectValidation(
      await w.decide(exam, w.ana, { action: 'disqualify', reasonId: 'motivo', note }),
      'Selecione o motivo da desclassificação.',
    );
    expect((await w.decide(exam, w.ana, { action: 'aprovar' })).statusCode).toBe(400);
    // Nothing was recorded by the refused attempts, and the claim is still Ana's.
    expect(await w.decisions(exam)).toEqual([]);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });

    const before = await w.counters();
    const start = Date.now();
    const answer = await w.decide(exam, w.ana, {
      action: 'disqualify',
      reasonId: reason.id,
      note: `  ${note} `,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      state: 'effective',
      outcome: 'disqualified',
      result: 'disqualified',
    });
    expectMoved(before, await w.counters(), { pendingAudit: -1, disqualified: 1 });
    const [row] = await w.decisions(exam);
    expect(row).toMatchObject({
      auditor_id: w.ana.user.id,
      outcome: 'disqualified',
      state: 'effective',
      reason_id: reason.id,
      note,
    });
    const decidedAt = new Date(row!.decided_at).getTime();
    expect(decidedAt).toBeGreaterThanOrEqual(start - 1000);
    expect(decidedAt).toBeLessThanOrEqual(Date.now() + 1000);

    const seen = await w.detail(exam, w.bruno);
    expect(seen.decisions).toHaveLength(1);
    expect(seen.decisions[0]).toMatchObject({
      outcome: 'disqualified',
      state: 'effective',
      confirmation: null,
      reason: { code: 'AUD-COLA', text: reason.text },
      note,
      auditorName: 'Ana Auditora',
      mine: false,
      decidedAt: new Date(decidedAt).toISOString(),
      confirmedBy: null,
      reopenedBy: null,
    });
    expect(seen.current).toEqual(seen.decisions[0]);
    expect(seen.exam.result).toBe('disqualified');
    expect((await w.detail(exam, w.ana)).current.mine).toBe(true);
    const [logged] = await selectRows<{ payload: Record<string, unknown> }>(
      w.t.database.db,
      sql`select payload from activity_log where type = 'send_result' and payload->>'examId' = ${w.id(exam)}`,
    );
    expect(logged!.payload).toMatchObject({
      outcome: 'disqualified',
      reasonCode: 'AUD-COLA',
      note,
    });
  });

  it('without the claim 409 AUDIT_CLAIM_NOT_FOUND; another holder 409 AUDIT_CLAIMED_BY_OTHER with the auditor alert', async () => {
    const exam = 'DEC-SEM-POSSE';
    expectAuditError(await w.decide(exam, w.bruno, { action: 'release' }), 'AUDIT_CLAIM_NOT_FOUND');
    await w.claim(exam, w.ana);
    for (const refused of [
      await w.decide(exam, w.bruno, { action: 'release' }),
      await w.confirm(exam, w.bruno, { accept: true }),
    ]) {
      expectAuditError(refused, 'AUDIT_CLAIMED_BY_OTHER');
      const { alert } = refused.json();
      expect(alert).toMatchObject({
        title: 'Exame em auditoria',
        messageAuditor: 'Este exame está sendo auditado por:',
        auditor: { auditorName: 'Ana Auditora' },
        message: 'Auditores que já trabalharam neste exame:',
      });
      expect(alert.auditor.auditorCpf).toMatch(MASKED_CPF);
      expect(alert.auditor.auditorCpf).not.toContain(w.ana.user.cpf.slice(0, 3) + '.');
      expect(alert.audit.map((a: { auditorName: string }) => a.auditorName)).toEqual([
        'Ana Auditora',
      ]);
    }
    const other = await w.detail(exam, w.bruno);
    expect(other.claim).toMatchObject({ auditorName: 'Ana Auditora', mine: false });
    expect(other.alert).toMatchObject({ auditor: { auditorName: 'Ana Auditora' } });
    expect(other.alert.auditor.auditorCpf).toMatch(MASKED_CPF);
    const holder = await w.detail(exam, w.ana);
    expect(holder.claim).toMatchObject({ mine: true });
    expect(holder.alert).toBeNull();
    expect(await w.decisions(exam)).toEqual([]);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });
    // An expired claim holds nothing either.
    await w.t.database.db.execute(
      sql`update audit_claims set expires_at = now() - interval '1 minute'
          where exam_id = ${w.id(exam)} and ended_at is null`,
    );
    expectAuditError(await w.decide(exam, w.ana, { action: 'release' }), 'AUDIT_CLAIM_NOT_FOUND');
    expect(await w.decisions(exam)).toEqual([]);
  });

  it('reopen: ADMIN only, with a reason; the decision is kept as reopened and the exam goes back to the queue', async () => {
    const exam = 'DEC-APROVA';
    const reopen = (who: Signed, payload: object, schedulingId = exam) =>
      w.send('POST', `/api/Audit/${w.id(schedulingId)}/reopen`, who, payload);
    const why = 'Recurso do candidato deferido pela comissão.';
    expect((await reopen(w.ana, { reason: why })).statusCode).toBe(403);
    expectValidation(
      await reopen(w.admin, { reason: 'curto' }),
      'Informe o motivo da reabertura (ao menos 10 caracteres).',
    );
    expectValidation(
      await reopen(w.admin, { reason: '          ' }),
      'Informe o motivo da reabertura (ao menos 10 caracteres).',
    );
    expectAuditError(await reopen(w.admin, { reason: why }, 'DEC-SEM-POSSE'), 'AUDIT_NOT_DECIDED');
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'approved' });

    const before = await w.counters();
    const start = Date.now();
    const answer = await reopen(w.admin, { reason: why });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      state: 'reopened',
      outcome: 'approved',
      result: 'in_analysis',
    });
    expectMoved(before, await w.counters(), { approved: -1, pendingAudit: 1 });
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });
    expect((await w.queue(w.bruno)).items.map((item) => item.schedulingId)).toContain(exam);
    const [row] = await w.decisions(exam);
    expect(row).toMatchObject({
      state: 'reopened',
      outcome: 'approved',
      auditor_id: w.ana.user.id,
      reopened_by: w.admin.user.id,
      reopen_reason: why,
    });
    const history = await selectRows<{ to_result: string; actor_id: string }>(
      w.t.database.db,
      sql`select to_result, actor_id from exam_status_history
          where exam_id = ${w.id(exam)} and source = 'user' order by at`,
    );
    expect(history).toEqual([
      { to_result: 'approved', actor_id: w.ana.user.id },
      { to_result: 'in_analysis', actor_id: w.admin.user.id },
    ]);
    const [logged] = await selectRows<{ actor_id: string; payload: Record<string, unknown> }>(
      w.t.database.db,
      sql`select actor_id, payload from activity_log where type = 'reopen_audit'`,
    );
    expect(logged).toMatchObject({
      actor_id: w.admin.user.id,
      payload: { schedulingId: exam, before: 'approved', reason: why },
    });
    const seen = await w.detail(exam, w.admin);
    expect(seen.current).toBeNull();
    expect(seen.decisions).toHaveLength(1);
    expect(seen.decisions[0]).toMatchObject({
      state: 'reopened',
      outcome: 'approved',
      auditorName: 'Ana Auditora',
      reopenedBy: 'Adriana Admin',
      reopenReason: why,
    });
    const reopenedAt = Date.parse(seen.decisions[0].reopenedAt);
    expect(reopenedAt).toBeGreaterThanOrEqual(start - 1000);
    expect(reopenedAt).toBeLessThanOrEqual(Date.now() + 1000);
    // Nothing in effect any more: a second reopening is refused.
    expectAuditError(await reopen(w.admin, { reason: why }), 'AUDIT_NOT_DECIDED');

    // A new decision after the reopening; the history keeps both.
    await w.claim(exam, w.bruno);
    const again = await w.decide(exam, w.bruno, {
      action: 'disqualify',
      reasonId: reason.id,
      note: 'Revisão das imagens mostrou consulta a material.',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ state: 'effective', result: 'disqualified' });
    const after = await w.detail(exam, w.admin);
    expect(
      after.decisions.map((d: { state: string; outcome: string; auditorName: string }) => [
        d.state,
        d.outcome,
        d.auditorName,
      ]),
    ).toEqual([
      ['reopened', 'approved', 'Ana Auditora'],
      ['effective', 'disqualified', 'Bruno Auditor'],
    ]);
    expect(after.current).toEqual(after.decisions[1]);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'disqualified' });
    // My audit lists each auditor's own decisions.
    const anaMine = (await w.send('GET', '/api/Audit/mine', w.ana)).json();
    expect(
      anaMine.decided
        .filter((d: { schedulingId: string }) => d.schedulingId === exam)
        .map((d: { state: string; outcome: string }) => [d.state, d.outcome]),
    ).toEqual([['reopened', 'approved']]);
    const brunoMine = (await w.send('GET', '/api/Audit/mine', w.bruno)).json();
    expect(brunoMine.decided).toEqual([
      expect.objectContaining({ schedulingId: exam, outcome: 'disqualified', state: 'effective' }),
    ]);
  });

  it('two decisions at the same moment on the same exam: exactly one wins, the other gets a 409 in pt-BR', async () => {
    const exam = 'DEC-CONCORRE';
    await w.claim(exam, w.ana);
    const answers = await Promise.all([
      w.decide(exam, w.ana, { action: 'release' }),
      w.decide(exam, w.ana, {
        action: 'disqualify',
        reasonId: reason.id,
        note: 'Duas abas abertas ao mesmo tempo.',
      }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.statusCode === 409)!.json() as {
      code: AuditErrorCode;
      Error: string;
    };
    expect(Object.keys(AUDIT_ERRORS)).toContain(lost.code);
    expect(lost.Error).toBe(AUDIT_ERRORS[lost.code].message);
    const rows = await w.decisions(exam);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('effective');
    const won = answers.find((answer) => answer.statusCode === 200)!.json();
    expect((await w.exam(exam)).result).toBe(won.result);
    expect(
      await w.count(
        sql`select count(*)::int as n from activity_log where type = 'send_result' and payload->>'examId' = ${w.id(exam)}`,
      ),
    ).toBe(1);
  });

  it("an expired claim of A, then B claims: A and B deciding at once leave only B's decision", async () => {
    const exam = 'DEC-EXPIRA';
    await w.claim(exam, w.ana);
    await w.t.database.db.execute(
      sql`update audit_claims set expires_at = now() - interval '1 minute'
          where exam_id = ${w.id(exam)} and ended_at is null`,
    );
    await w.claim(exam, w.bruno);
    const [fromAna, fromBruno] = await Promise.all([
      w.decide(exam, w.ana, { action: 'release' }),
      w.decide(exam, w.bruno, {
        action: 'disqualify',
        reasonId: reason.id,
        note: 'Terceiro na sala durante a prova.',
      }),
    ]);
    expect(fromBruno.statusCode, fromBruno.body).toBe(200);
    expect(fromAna.statusCode, fromAna.body).toBe(409);
    expect(['AUDIT_CLAIMED_BY_OTHER', 'AUDIT_NOT_PENDING']).toContain(fromAna.json().code);
    const rows = await w.decisions(exam);
    expect(rows.map((row) => [row.auditor_id, row.outcome])).toEqual([
      [w.bruno.user.id, 'disqualified'],
    ]);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'disqualified' });
    const ends = await selectRows<{ auditor_id: string; end_reason: string }>(
      w.t.database.db,
      sql`select auditor_id, end_reason from audit_claims where exam_id = ${w.id(exam)} order by claimed_at`,
    );
    expect(ends).toEqual([
      { auditor_id: w.ana.user.id, end_reason: 'expired' },
      { auditor_id: w.bruno.user.id, end_reason: 'decided' },
    ]);
  });

  it("another unit's auditor and ADMIN find nothing of this unit's exam, and change nothing", async () => {
    const exam = 'DEC-ISOLADO';
    await w.claim(exam, w.ana);
    const snapshot = async () => ({
      exam: await selectRows(w.t.database.db, sql`select * from exams where id = ${w.id(exam)}`),
      claims: await selectRows(
        w.t.database.db,
        sql`select * from audit_claims where exam_id = ${w.id(exam)}`,
      ),
      decisions: await w.decisions(exam),
      history: await selectRows(
        w.t.database.db,
        sql`select * from exam_status_history where exam_id = ${w.id(exam)}`,
      ),
    });
    const before = await snapshot();
    const url = `/api/Audit/${w.id(exam)}`;
    const calls: Array<[Promise<Reply>, string]> = [
      [w.send('GET', url, rjAuditor), 'detail'],
      [w.send('GET', url, rjAdmin), 'detail (ADMIN)'],
      [w.send('POST', `${url}/claim`, rjAuditor), 'claim'],
      [w.send('POST', `${url}/release`, rjAuditor), 'release'],
      [w.send('POST', `${url}/decision`, rjAuditor, { action: 'release' }), 'decision'],
      [
        w.send('POST', `${url}/decision`, rjAuditor, {
          action: 'disqualify',
          reasonId: foreignReason.id,
          note: 'Tentativa de outra unidade.',
        }),
        'disqualify',
      ],
      [w.send('POST', `${url}/confirmation`, rjAuditor, { accept: true }), 'confirmation'],
      [
        w.send('POST', `${url}/reopen`, rjAdmin, { reason: 'Tentativa de outra unidade.' }),
        'reopen',
      ],
      [
        w.send('PUT', `${url}/photos/00000000-0000-4000-8000-000000000000/mark`, rjAuditor, {
          verdict: 'incompatible',
        }),
        'mark',
      ],
    ];
    for (const [call, name] of calls) {
      const answer = await call;
      expect(answer.statusCode, name).toBe(404);
      expect(answer.json().code, name).toBe('AUDIT_EXAM_NOT_FOUND');
    }
    expect((await w.queue(rjAuditor)).items).toEqual([]);
    expect((await w.send('GET', '/api/Audit/mine', rjAuditor)).json()).toEqual({
      holding: [],
      decided: [],
    });
    expect(await snapshot()).toEqual(before);
    // The unit's own auditor still holds it and decides.
    const own = await w.decide(exam, w.ana, { action: 'release' });
    expect(own.json()).toMatchObject({ state: 'effective', result: 'approved' });
  });
});

describe('two-person rule: a disqualification waits for a second auditor', () => {
  let w: World;
  let reason: { id: string };
  const note = 'Candidato olhou repetidas vezes para fora da tela.';

  beforeAll(async () => {
    w = await openWorld({ twoPersonRule: true, recheckRate: 0 }, [
      ['DUAS-CONFIRMA', 90],
      ['DUAS-LIVRE', 90],
      ['DUAS-REJEITA', 90],
      ['DUAS-INTEGRACAO', 90],
    ]);
    reason = await createReason(w, w.admin, 'AUD-OLHAR');
  });
  afterAll(() => w.t.close());

  it('the disqualification awaits; the same auditor cannot confirm; a second one does and it takes effect', async () => {
    const exam = 'DUAS-CONFIRMA';
    await w.claim(exam, w.ana);
    expect((await w.detail(exam, w.ana)).twoPersonRule).toBe(true);
    const before = await w.counters();
    const proposed = await w.decide(exam, w.ana, {
      action: 'disqualify',
      reasonId: reason.id,
      note,
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    expect(proposed.json()).toEqual({
      state: 'awaiting_confirmation',
      outcome: 'disqualified',
      result: 'in_analysis',
    });
    // Still in analysis: the report did not move.
    expect(await w.counters()).toEqual(before);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });
    expect(
      await w.count(
        sql`select count(*)::int as n from exam_status_history where exam_id = ${w.id(exam)} and source = 'user'`,
      ),
    ).toBe(0);
    const [row] = await w.decisions(exam);
    expect(row).toMatchObject({ state: 'awaiting_confirmation', confirmation: 'two_person' });

    // The queue: waiting for confirmation, not for a decision.
    const waiting = await w.queue(w.bruno, '?stage=confirmation');
    expect(waiting.items.map((item) => item.schedulingId)).toEqual([exam]);
    expect(waiting.items[0]!.awaitingConfirmation).toEqual({
      auditorName: 'Ana Auditora',
      outcome: 'disqualified',
    });
    const deciding = await w.queue(w.bruno, '?stage=decision');
    expect(deciding.items.map((item) => item.schedulingId)).toEqual([
      'DUAS-LIVRE',
      'DUAS-REJEITA',
      'DUAS-INTEGRACAO',
    ]);
    expect(deciding.items.every((item) => item.awaitingConfirmation === null)).toBe(true);
    expect((await w.queue(w.bruno)).total).toBe(4);

    // The auditor who decided cannot confirm, nor decide again.
    await w.claim(exam, w.ana);
    expectAuditError(await w.confirm(exam, w.ana, { accept: true }), 'AUDIT_SAME_AUDITOR');
    expectAuditError(
      await w.decide(exam, w.ana, { action: 'release' }),
      'AUDIT_AWAITING_CONFIRMATION',
    );
    const pending = await w.detail(exam, w.ana);
    expect(pending.current).toMatchObject({
      state: 'awaiting_confirmation',
      confirmation: 'two_person',
      mine: true,
    });
    expect((await w.send('POST', `/api/Audit/${w.id(exam)}/release`, w.ana)).statusCode).toBe(204);

    // A second auditor: claim first, then confirm.
    expectAuditError(await w.confirm(exam, w.bruno, { accept: true }), 'AUDIT_CLAIM_NOT_FOUND');
    await w.claim(exam, w.bruno);
    const confirmed = await w.confirm(exam, w.bruno, { accept: true, note: 'De acordo.' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({
      state: 'effective',
      outcome: 'disqualified',
      result: 'disqualified',
    });
    expectMoved(before, await w.counters(), { pendingAudit: -1, disqualified: 1 });
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'disqualified' });
    const history = await selectRows<{ to_result: string; actor_id: string }>(
      w.t.database.db,
      sql`select to_result, actor_id from exam_status_history where exam_id = ${w.id(exam)} and source = 'user'`,
    );
    expect(history).toEqual([{ to_result: 'disqualified', actor_id: w.bruno.user.id }]);
    const seen = await w.detail(exam, w.carla);
    expect(seen.decisions).toHaveLength(1);
    expect(seen.current).toMatchObject({
      state: 'effective',
      confirmation: 'two_person',
      auditorName: 'Ana Auditora',
      confirmedBy: 'Bruno Auditor',
      confirmationNote: 'De acordo.',
      note,
    });
    expect(seen.current.confirmedAt).not.toBeNull();
    expect((await w.queue(w.bruno, '?stage=confirmation')).items).toEqual([]);
    const logged = await selectRows<{ actor_id: string; payload: Record<string, unknown> }>(
      w.t.database.db,
      sql`select actor_id, payload from activity_log where type = 'send_result'
          and payload->>'examId' = ${w.id(exam)} order by created_at`,
    );
    expect(logged.map((entry) => [entry.actor_id, entry.payload.state])).toEqual([
      [w.ana.user.id, 'awaiting_confirmation'],
      [w.bruno.user.id, 'effective'],
    ]);
  });

  it('while a decision waits for confirmation, the integration cannot set the result', async () => {
    const exam = 'DUAS-INTEGRACAO';
    await w.claim(exam, w.ana);
    const proposed = await w.decide(exam, w.ana, {
      action: 'disqualify',
      reasonId: reason.id,
      note,
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const { key } = await createApiKeyFor(w.t.app, w.admin.auth);
    const single = await w.t.app.inject({
      method: 'PATCH',
      url: `/api/Integration/exams/${exam}/status`,
      headers: { 'x-api-key': key },
      payload: { status: 'done', result: 'approved' },
    });
    expect(single.statusCode, single.body).toBe(409);
    expect(single.json().code).toBe('EXAM_RESULT_UNDER_AUDIT');
    const batch = await postExams(w.t.app, key, [
      examPayload({
        schedulingId: exam,
        schedulingDate: at(13, 9),
        status: 'done',
        result: 'approved',
        score: 90,
        metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      }),
    ]);
    expect(batch.statusCode, batch.body).toBe(400);
    expect(batch.json().code).toBe('EXAM_BATCH_REJECTED');
    expect(batch.json().details[0].message).toContain('aguarda a confirmação');
    expect((await w.exam(exam)).result).toBe('in_analysis');
  });

  it('confirming without a pending decision: 409 AUDIT_NO_PENDING_DECISION', async () => {
    await w.claim('DUAS-LIVRE', w.bruno);
    expectAuditError(
      await w.confirm('DUAS-LIVRE', w.bruno, { accept: true }),
      'AUDIT_NO_PENDING_DECISION',
    );
    // A release needs no second auditor (and no re-check is drawn here).
    const released = await w.decide('DUAS-LIVRE', w.bruno, { action: 'release' });
    expect(released.json()).toEqual({
      state: 'effective',
      outcome: 'approved',
      result: 'approved',
    });
  });

  it('a rejection needs a note, sends the exam back to the queue, and it can be decided again', async () => {
    const exam = 'DUAS-REJEITA';
    await w.claim(exam, w.ana);
    expect(
      (await w.decide(exam, w.ana, { action: 'disqualify', reasonId: reason.id, note })).json()
        .state,
    ).toBe('awaiting_confirmation');
    await w.claim(exam, w.bruno);
    expectValidation(
      await w.confirm(exam, w.bruno, { accept: false }),
      'Diga por que a decisão não é confirmada.',
    );
    expectValidation(
      await w.confirm(exam, w.bruno, { accept: false, note: '  ' }),
      'Diga por que a decisão não é confirmada.',
    );
    const before = await w.counters();
    const rejected = await w.confirm(exam, w.bruno, {
      accept: false,
      note: 'As imagens não mostram o candidato olhando para fora.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toEqual({
      state: 'rejected',
      outcome: 'disqualified',
      result: 'in_analysis',
    });
    expect(await w.counters()).toEqual(before);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });
    const back = await w.queue(w.carla, '?stage=decision');
    expect(back.items.map((item) => item.schedulingId)).toEqual([exam]);
    expect(back.items[0]!.awaitingConfirmation).toBeNull();
    const seen = await w.detail(exam, w.carla);
    expect(seen.current).toBeNull();
    expect(seen.decisions[0]).toMatchObject({
      state: 'rejected',
      confirmedBy: 'Bruno Auditor',
      confirmationNote: 'As imagens não mostram o candidato olhando para fora.',
    });

    // Decided again, by a third auditor.
    await w.claim(exam, w.carla);
    const released = await w.decide(exam, w.carla, { action: 'release' });
    expect(released.json()).toEqual({
      state: 'effective',
      outcome: 'approved',
      result: 'approved',
    });
    expectMoved(before, await w.counters(), { pendingAudit: -1, approved: 1 });
    expect(
      (await w.detail(exam, w.carla)).decisions.map((d: { state: string }) => d.state),
    ).toEqual(['rejected', 'effective']);
  });
});

describe('re-check: an approval drawn for re-check waits for a different auditor', () => {
  let w: World;
  /** A second server on the same database that never draws a re-check. */
  let never: TestApp;
  let reason: { id: string };

  beforeAll(async () => {
    w = await openWorld({ twoPersonRule: false, recheckRate: 1 }, [
      ['RECHECA-APROVA', 88],
      ['RECHECA-REPROVA', 40],
      ['RECHECA-DESCLASSIFICA', 88],
      ['RECHECA-NUNCA', 88],
      ['RECHECA-SORTEIO-SIM', 88],
      ['RECHECA-SORTEIO-NAO', 88],
    ]);
    never = await buildTestApp({
      database: w.t.database,
      config: { audit: { ...testConfig().audit, twoPersonRule: false, recheckRate: 0 } },
    });
    reason = await createReason(w, w.admin, 'AUD-RECHECA');
  });
  afterAll(async () => {
    await never.close();
    await w.t.close();
  });

  it('rate 1: every approval awaits; the approver cannot confirm it, another auditor does', async () => {
    const exam = 'RECHECA-APROVA';
    await w.claim(exam, w.ana);
    const before = await w.counters();
    const answer = await w.decide(exam, w.ana, { action: 'release' });
    expect(answer.json()).toEqual({
      state: 'awaiting_confirmation',
      outcome: 'approved',
      result: 'in_analysis',
    });
    expect(await w.counters()).toEqual(before);
    expect(await w.exam(exam)).toEqual({ status: 'done', result: 'in_analysis' });
    expect((await w.decisions(exam))[0]).toMatchObject({
      state: 'awaiting_confirmation',
      confirmation: 'recheck',
    });
    const waiting = await w.queue(w.bruno, '?stage=confirmation');
    expect(waiting.items.map((item) => [item.schedulingId, item.awaitingConfirmation])).toEqual([
      [exam, { auditorName: 'Ana Auditora', outcome: 'approved' }],
    ]);
    await w.claim(exam, w.ana);
    expectAuditError(await w.confirm(exam, w.ana, { accept: true }), 'AUDIT_SAME_AUDITOR');
    await w.send('POST', `/api/Audit/${w.id(exam)}/release`, w.ana);
    await w.claim(exam, w.bruno);
    const confirmed = await w.confirm(exam, w.bruno, { accept: true });
    expect(confirmed.json()).toEqual({
      state: 'effective',
      outcome: 'approved',
      result: 'approved',
    });
    expectMoved(before, await w.counters(), { pendingAudit: -1, approved: 1 });
    expect((await w.detail(exam, w.bruno)).current).toMatchObject({
      confirmation: 'recheck',
      confirmedBy: 'Bruno Auditor',
    });
  });

  it('rate 1: reprovals and disqualifications are not drawn (two-person rule off): they take effect', async () => {
    await w.claim('RECHECA-REPROVA', w.ana);
    expect((await w.decide('RECHECA-REPROVA', w.ana, { action: 'release' })).json()).toEqual({
      state: 'effective',
      outcome: 'reproved',
      result: 'reproved',
    });
    await w.claim('RECHECA-DESCLASSIFICA', w.ana);
    const disqualified = await w.decide('RECHECA-DESCLASSIFICA', w.ana, {
      action: 'disqualify',
      reasonId: reason.id,
      note: 'Fone de ouvido visível.',
    });
    expect(disqualified.json()).toEqual({
      state: 'effective',
      outcome: 'disqualified',
      result: 'disqualified',
    });
  });

  it('rate 0: an approval takes effect at once', async () => {
    const exam = 'RECHECA-NUNCA';
    const claimed = await never.app.inject({
      method: 'POST',
      url: `/api/Audit/${w.id(exam)}/claim`,
      headers: w.ana.auth,
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const before = await w.counters();
    const answer = await never.app.inject({
      method: 'POST',
      url: `/api/Audit/${w.id(exam)}/decision`,
      headers: w.ana.auth,
      payload: { action: 'release' },
    });
    expect(answer.json()).toEqual({ state: 'effective', outcome: 'approved', result: 'approved' });
    expectMoved(before, await w.counters(), { pendingAudit: -1, approved: 1 });
    expect((await w.decisions(exam))[0]).toMatchObject({ state: 'effective', confirmation: null });
  });

  it('the draw: an approval is re-checked when the random number falls under the rate', async () => {
    const deps = (random: number): AuditDeps => ({
      db: w.t.database.db,
      files: w.t.app.files,
      face: {} as AuditDeps['face'],
      claimMs: 60_000,
      signedUrlTtlMs: 60_000,
      twoPersonRule: false,
      recheckRate: 0.25,
      random: () => random,
      resultChanged: revokeForResult,
    });
    const actor: SessionUser = {
      id: w.carla.user.id,
      name: w.carla.user.name,
      email: w.carla.user.email,
      cpf: w.carla.user.cpf,
      federativeUnit: 'SP',
      role: 'auditor',
      tokenHash: '',
      expiresAt: new Date(Date.now() + 60_000),
      provenAt: new Date(),
    };
    for (const [exam, random, state] of [
      ['RECHECA-SORTEIO-SIM', 0.2499, 'awaiting_confirmation'],
      ['RECHECA-SORTEIO-NAO', 0.25, 'effective'],
    ] as const) {
      await w.claim(exam, w.carla);
      const result = await decideExam(deps(random), actor, w.id(exam), { action: 'release' });
      expect(result, exam).toMatchObject({ state, outcome: 'approved' });
    }
  });
});
