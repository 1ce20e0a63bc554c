/**
 * What the busiest requests of a working day cost the database, in
 * statements: each one is a round trip with a fixed cost on the server (the
 * bench:day load showed that cost, not the statements' own work, as most of
 * the database's CPU per request). The budgets are the counts of today; a
 * change that adds a statement to one of these requests shows here.
 */
import { dayInZone, zonedDayStartIso } from '@exame/shared';
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, examPayload, postExams } from './exams';
import { engineName, type TestApp } from './helper';
import { DEFAULT_PASSWORD, seedSignedIn } from './identity';
import { buildRecordingApp } from './sessions';
import { webEvent } from './web-events';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

describe(`statements per request on ${engineName}`, () => {
  let t: TestApp;
  const statements: string[] = [];
  const post = 'SP.POSTO01';
  let examiner: Signed;
  let checkInId: string;
  let apiKey: { 'x-api-key': string };

  beforeAll(async () => {
    t = await buildRecordingApp(statements, { config: { sessionCacheMs: 60_000 } });
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    examiner = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Ana Um' });
    const second = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'SP', name: 'Bia Dois' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocal',
      headers: admin.auth,
      payload: { identifier: post, description: 'Posto Sé' },
    });
    expect(created.statusCode).toBe(201);
    const key = await createApiKeyFor(t.app, admin.auth);
    apiKey = { 'x-api-key': key.key };
    const nine = zonedDayStartIso(dayInZone(new Date())).replace('T00:00', 'T09:00');
    const pushed = await postExams(t.app, key.key, [
      examPayload({
        schedulingId: 'SP-1',
        schedulingDate: nine,
        metadata: { schedulingLocal: `${post}-S1` },
      }),
      examPayload({
        schedulingId: 'SP-2',
        schedulingDate: nine,
        metadata: { schedulingLocal: `${post}-S1` },
      }),
    ]);
    expect(pushed.statusCode, pushed.body).toBe(200);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/viewer-checkin',
      headers: examiner.auth,
      payload: { email: second.user.email, password: DEFAULT_PASSWORD, schedulingLocal: post },
    });
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocalCheckIn/checkIn',
      headers: examiner.auth,
      payload: {
        viewers: [
          { cpf: examiner.user.cpf },
          { proctoringToken: confirmed.json().proctoringToken },
        ],
        schedulingLocal: post,
      },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    checkInId = opened.json().id;
  }, 60_000);
  afterAll(() => t.close());

  /**
   * The statements of `request`, sent after one call of `warm` (sessions
   * cached), without a transaction's begin and commit (which only the
   * PostgreSQL driver reports): those are in `transactions`.
   */
  async function statementsOf(request: InjectOptions, warm: InjectOptions = request) {
    await t.app.inject(warm);
    statements.length = 0;
    const answer = await t.app.inject(request);
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    const ends = /^\s*(begin|commit|rollback)\s*$/i;
    return Object.assign(
      statements.filter((text) => !ends.test(text)),
      { transactions: statements.filter((text) => /^\s*begin\s*$/i.test(text)).length },
    );
  }

  const pageView = (): InjectOptions => ({
    method: 'POST',
    url: '/api/ActivityLog/events',
    headers: examiner.auth,
    payload: { events: [webEvent({ target: '/sala' })] },
  });

  it('a page view: its two limits counted in one statement, and the event stored in one (no transaction)', async () => {
    const sent = await statementsOf(pageView(), pageView());
    expect(sent).toHaveLength(2);
    expect(sent.transactions).toBe(0);
    expect(sent[0]).toMatch(/insert into rate_limits[\s\S]*insert into rate_limits/);
    expect(sent[1]).toMatch(/\binsert into activity_log\b/);
  });

  it('the room board: the open record with its access, its examiners and its history in one statement; the post’s exams after the record', async () => {
    const board = await statementsOf({
      method: 'GET',
      url: `/api/SchedulingLocalCheckIn/findCheckIn?viewerCpf=${examiner.user.cpf}&schedulingLocal=${post}`,
      headers: examiner.auth,
    });
    expect(board).toHaveLength(1);
    expect(board[0]).toMatch(/check_in_viewers[\s\S]*check_in_events[\s\S]*from "check_ins"/);
    const exams = await statementsOf({
      method: 'GET',
      url: `/api/SchedulingLocalCheckIn/exams?checkInId=${checkInId}&pageSize=50`,
      headers: examiner.auth,
    });
    expect(exams).toHaveLength(2);
  });

  it('a change from the delivery system publishes its event in one statement (lock, row and notification)', async () => {
    const started = await statementsOf(
      {
        method: 'PATCH',
        url: '/api/Integration/exams/SP-1/status',
        headers: apiKey,
        payload: { status: 'started' },
      },
      { method: 'GET', url: '/api/Auth/me', headers: examiner.auth },
    );
    const published = started.filter((text) => /realtime_events|pg_notify|pg_advisory/.test(text));
    expect(published).toHaveLength(1);
    expect(published[0]).toMatch(
      /pg_advisory_xact_lock[\s\S]*insert into realtime_events[\s\S]*pg_notify/,
    );
    expect(started.length).toBeLessThanOrEqual(5);
    const occurrence = await statementsOf(
      {
        method: 'POST',
        url: '/api/Integration/exams/SP-2/occurrences',
        headers: apiKey,
        payload: {
          occurrences: [
            {
              externalId: randomUUID(),
              type: 'ruido',
              description: 'Ruído.',
              occurredAt: new Date().toISOString(),
            },
          ],
        },
      },
      { method: 'GET', url: '/api/Auth/me', headers: examiner.auth },
    );
    expect(occurrence).toHaveLength(4);
  });
});
