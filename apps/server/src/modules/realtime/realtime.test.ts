/**
 * Realtime events over real HTTP: every exam change is written with its event
 * and reaches the SSE clients of its unit (of its local, when they asked),
 * on this instance and on another one on the same database; a client that
 * drops resumes after the last id it saw, missing nothing, getting nothing
 * twice.
 */
import type { RealtimeEvent } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { createApiKeyFor, examPayload, sampleJpeg } from '../../../test/exams';
import {
  buildTestApp,
  engineName,
  openSameDatabase,
  testDatabaseUrl,
  type TestApp,
  type TestDatabase,
} from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { listenOnLoopback, openStream, type StreamClient } from '../../../test/realtime';
import { publishRealtimeAll } from './realtime.repository';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

describe(`realtime events on ${engineName}`, () => {
  let t: TestApp;
  let base: string;
  let df: Signed;
  let dfViewer: Signed;
  let sp: Signed;
  let dfKey: string;
  let spKey: string;
  const streams: StreamClient[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    df = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    dfViewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    sp = await seedSignedIn(t.app, { role: 'auditor', unit: 'SP' });
    dfKey = (await createApiKeyFor(t.app, df.auth)).key;
    const spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    spKey = (await createApiKeyFor(t.app, spAdmin.auth)).key;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  const stream = async (...args: Parameters<typeof openStream>) => {
    const opened = await openStream(...args);
    streams.push(opened);
    return opened;
  };
  const push = async (key: string, exams: unknown[]) => {
    const response = await fetch(`${base}/api/Integration/exams`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ exams }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  };
  const setStatus = async (key: string, schedulingId: string, body: Record<string, unknown>) => {
    const response = await fetch(`${base}/api/Integration/exams/${schedulingId}/status`, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const kinds = (events: RealtimeEvent[]) =>
    events.map(
      (event) =>
        `${event.kind}:${'schedulingId' in event.payload ? event.payload.schedulingId : ''}`,
    );

  it("a status change through the integration API reaches the unit's clients, filtered by local; another unit's client gets nothing", async () => {
    const here = examPayload({ metadata: { schedulingLocal: 'DF.POSTO01-S2' } });
    const there = examPayload({ metadata: { schedulingLocal: 'DF.POSTO02-S1' } });
    await push(dfKey, [here, there]);

    const all = await stream(base, dfViewer.token);
    const local = await stream(base, df.token, { local: 'DF.POSTO01-S2' });
    const other = await stream(base, sp.token);
    for (const client of [all, local, other]) {
      expect(client.status).toBe(200);
      expect(client.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(client.headers.get('cache-control')).toBe('no-cache');
      expect(client.headers.get('x-accel-buffering')).toBe('no');
    }

    await setStatus(dfKey, there.schedulingId, { status: 'started' });
    await setStatus(dfKey, here.schedulingId, { status: 'started' });
    const [first, second] = await all.waitForEvents(2);
    expect(first).toMatchObject({
      kind: 'exam_changed',
      federativeUnit: 'DF',
      schedulingLocal: 'DF.POSTO02-S1',
      payload: { schedulingId: there.schedulingId, status: 'started', result: null },
    });
    expect(second!.payload).toMatchObject({
      schedulingId: here.schedulingId,
      status: 'started',
      schedulingLocal: 'DF.POSTO01-S2',
      room: 'Sala 1',
      station: 'Estação 01',
      candidateName: 'Candidato de Teste',
      candidateCpf: '***.982.247-**',
    });
    expect(second!.id).toBeGreaterThan(first!.id);
    expect(Number.isNaN(Date.parse(second!.at))).toBe(false);

    // The local's client got its own exam only (the other local's change came first).
    const [onlyHere] = await local.waitForEvents(1);
    expect(onlyHere).toEqual(second);

    // SP's first event is SP's own: DF's changes never reached it.
    const spExam = examPayload({ metadata: { schedulingLocal: 'SP.POSTO01-S1' } });
    await push(spKey, [spExam]);
    const [spFirst] = await other.waitForEvents(1);
    expect(spFirst).toMatchObject({
      federativeUnit: 'SP',
      payload: { schedulingId: spExam.schedulingId },
    });
    await setStatus(dfKey, here.schedulingId, { status: 'done', result: 'approved' });
    const [, , done] = await all.waitForEvents(3);
    expect(done!.payload).toMatchObject({ status: 'done', result: 'approved' });
    await local.waitForEvents(2);
    expect(local.events.map((event) => event.id)).toEqual([second!.id, done!.id]);
    expect(other.events).toHaveLength(1);
    // The whole CPF sent by the delivery system never goes out on the stream.
    expect(JSON.stringify(all.messages)).not.toContain('52998224725');
  });

  it('the unit comes from the session, whatever the query says', async () => {
    const client = await stream(base, sp.token, { query: 'federativeUnit=DF&unit=DF' });
    const exam = examPayload();
    await push(dfKey, [exam]);
    const spExam = examPayload({ metadata: { schedulingLocal: 'SP.POSTO01-S1' } });
    await push(spKey, [spExam]);
    const [first] = await client.waitForEvents(1);
    expect(first!.federativeUnit).toBe('SP');
  });

  it('batch upserts announce each created or changed exam, not the unchanged; a rejected batch announces nothing', async () => {
    const client = await stream(base, df.token);
    const [a, b, c] = [examPayload(), examPayload(), examPayload()];
    await push(dfKey, [a, b]);
    await push(dfKey, [a, { ...b, room: 'Sala 9' }, c]);
    const rejected = await fetch(`${base}/api/Integration/exams`, {
      method: 'POST',
      headers: { 'x-api-key': dfKey, 'content-type': 'application/json' },
      body: JSON.stringify({ exams: [examPayload(), { ...a, status: 'done' }] }),
    });
    expect(rejected.status).toBe(400);
    const sentinel = examPayload();
    await push(dfKey, [sentinel]);
    const events = await client.waitForEvents(5);
    expect(kinds(events)).toEqual([
      `exam_changed:${a.schedulingId}`,
      `exam_changed:${b.schedulingId}`,
      `exam_changed:${b.schedulingId}`,
      `exam_changed:${c.schedulingId}`,
      `exam_changed:${sentinel.schedulingId}`,
    ]);
    expect(events[2]!.payload).toMatchObject({ room: 'Sala 9' });
  });

  it('occurrences, photos and the CSV import are announced', async () => {
    const exam = examPayload({ status: 'started', metadata: { schedulingLocal: 'DF.POSTO05-S1' } });
    await push(dfKey, [exam]);
    const client = await stream(base, df.token, { local: 'DF.POSTO05-S1' });
    const photo = (await sampleJpeg(200)).toString('base64');
    const occurrences = await fetch(
      `${base}/api/Integration/exams/${exam.schedulingId}/occurrences`,
      {
        method: 'POST',
        headers: { 'x-api-key': dfKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          occurrences: [
            {
              externalId: 'rt-1',
              type: 'terceiro',
              description: 'Pessoa ao lado',
              occurredAt: '2026-11-20T10:00:00-03:00',
              photo,
            },
            {
              externalId: 'rt-2',
              type: 'ruido',
              description: 'Barulho',
              occurredAt: '2026-11-20T10:01:00-03:00',
            },
          ],
        }),
      },
    );
    expect(occurrences.status).toBe(200);
    const photos = await fetch(`${base}/api/Integration/exams/${exam.schedulingId}/photos`, {
      method: 'POST',
      headers: { 'x-api-key': dfKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        image: (await sampleJpeg(240, 7)).toString('base64'),
        capturedAt: '2026-11-20T10:05:00-03:00',
      }),
    });
    const stored = (await photos.json()) as { id: string };
    const events = await client.waitForEvents(4);
    expect(events.map((event) => event.kind)).toEqual([
      'photo_added',
      'occurrence_added',
      'occurrence_added',
      'photo_added',
    ]);
    expect(events[1]!.payload).toMatchObject({
      schedulingId: exam.schedulingId,
      type: 'terceiro',
      description: 'Pessoa ao lado',
      occurredAt: '2026-11-20T13:00:00.000Z',
      hasPhoto: true,
    });
    expect(events[2]!.payload).toMatchObject({ hasPhoto: false });
    expect(events[3]!.payload).toEqual({
      examId: (events[0]!.payload as { examId: string }).examId,
      schedulingId: exam.schedulingId,
      photoId: stored.id,
    });

    const all = await stream(base, df.token);
    const csv = await fetch(`${base}/api/Exam/import`, {
      method: 'POST',
      headers: { ...df.auth, 'content-type': 'text/csv' },
      body: [
        'schedulingId;candidateName;candidateCpf;schedulingDate;schedulingLocal',
        'RT-CSV-1;Candidata Um;529.982.247-25;20/11/2026 10:00;DF.POSTO05-S1',
        'RT-CSV-2;Candidato Dois;529.982.247-25;20/11/2026 11:00;DF.POSTO06-S1',
      ].join('\n'),
    });
    expect(csv.status).toBe(200);
    expect(kinds(await all.waitForEvents(2))).toEqual([
      'exam_changed:RT-CSV-1',
      'exam_changed:RT-CSV-2',
    ]);
    const [imported] = await client.waitForEvents(5).then((list) => list.slice(4));
    expect(imported).toMatchObject({ payload: { schedulingId: 'RT-CSV-1', status: 'scheduled' } });
  });

  it('a client that drops and reconnects with Last-Event-ID gets what it missed, in order, once', async () => {
    const exam = examPayload({ metadata: { schedulingLocal: 'DF.POSTO07-S1' } });
    const first = await stream(base, df.token, { local: 'DF.POSTO07-S1' });
    await push(dfKey, [exam]);
    const [seen] = await first.waitForEvents(1);
    expect(first.lastId()).toBe(String(seen!.id));
    first.close();

    // While it is away: a status change, other locals' changes, an occurrence.
    await setStatus(dfKey, exam.schedulingId, { status: 'started' });
    await push(dfKey, [examPayload({ metadata: { schedulingLocal: 'DF.POSTO08-S1' } })]);
    await fetch(`${base}/api/Integration/exams/${exam.schedulingId}/occurrences`, {
      method: 'POST',
      headers: { 'x-api-key': dfKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        occurrences: [
          { externalId: 'rt-3', type: 'x', description: 'y', occurredAt: '2026-11-20T10:00:00Z' },
        ],
      }),
    });
    await setStatus(dfKey, exam.schedulingId, { status: 'done', result: 'reproved' });

    const again = await stream(base, df.token, {
      local: 'DF.POSTO07-S1',
      lastEventId: first.lastId(),
    });
    const missed = await again.waitForEvents(3);
    expect(missed.map((event) => event.kind)).toEqual([
      'exam_changed',
      'occurrence_added',
      'exam_changed',
    ]);
    expect(missed[0]!.payload).toMatchObject({ status: 'started' });
    expect(missed[2]!.payload).toMatchObject({ status: 'done', result: 'reproved' });
    const ids = missed.map((event) => event.id);
    expect(ids[0]).toBeGreaterThan(seen!.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);

    // Live again: the next change arrives once, after the replay.
    const next = examPayload({ metadata: { schedulingLocal: 'DF.POSTO07-S1' } });
    await push(dfKey, [next]);
    const events = await again.waitForEvents(4);
    expect(events[3]!.payload).toMatchObject({ schedulingId: next.schedulingId });
    const all = again.events.map((event) => event.id);
    expect(new Set(all).size).toBe(all.length);
    // The same resume point through the query parameter replays the same events.
    const byQuery = await stream(base, df.token, {
      local: 'DF.POSTO07-S1',
      query: `lastEventId=${seen!.id}`,
    });
    expect((await byQuery.waitForEvents(4)).map((event) => event.id)).toEqual(all);
  });

  it('a new client starts from now, with the id to resume from even before its first event', async () => {
    await push(dfKey, [examPayload()]);
    const client = await stream(base, df.token);
    const [row] = await selectRows<{ id: number }>(
      t.database.db,
      sql`select max(id)::int as id from realtime_events where federative_unit = 'DF'`,
    );
    await expect.poll(() => client.lastId()).toBe(String(row!.id));
    expect(client.events).toEqual([]);
  });

  it('a client too far behind is told to reload instead of replaying everything', async () => {
    const start = await stream(base, df.token);
    await expect.poll(() => start.lastId()).not.toBeNull();
    const from = start.lastId();
    // One import-sized write: the rows in batches, one notification.
    await t.database.db.transaction((tx) =>
      publishRealtimeAll(
        tx,
        Array.from({ length: 1001 }, (_, index) => ({
          federativeUnit: 'DF',
          schedulingLocal: 'DF.POSTO99-S1',
          kind: 'photo_added' as const,
          payload: { examId: 'x', schedulingId: 'x', photoId: String(index) },
        })),
      ),
    );
    const written = await start.waitForEvents(1001);
    expect(written.map((event) => (event.payload as { photoId: string }).photoId)).toEqual(
      Array.from({ length: 1001 }, (_, index) => String(index)),
    );
    const behind = await stream(base, df.token, { lastEventId: from });
    await expect.poll(() => behind.messages.some((m) => m.event === 'resync')).toBe(true);
    expect(behind.events).toEqual([]);
    expect(behind.lastId()).toBe(String(start.events.at(-1)!.id));
  });

  it.skipIf(!testDatabaseUrl)(
    "a unit's second writer draws its event's id only after the first one commits (PostgreSQL)",
    async () => {
      const db = t.database.db;
      const event = (unit: string, photoId: string) => ({
        federativeUnit: unit,
        schedulingLocal: `${unit}.POSTO01-S1`,
        kind: 'photo_added' as const,
        payload: { examId: 'x', schedulingId: 'x', photoId },
      });
      let wrote!: (id: number) => void;
      let commit!: () => void;
      const firstId = new Promise<number>((resolve) => (wrote = resolve));
      const committing = new Promise<void>((resolve) => (commit = resolve));
      const first = db.transaction(async (tx) => {
        const [id] = await publishRealtimeAll(tx, [event('GO', 'primeiro')]);
        wrote(id!);
        await committing;
      });
      const idOfFirst = await firstId;
      const second = db.transaction((tx) => publishRealtimeAll(tx, [event('GO', 'segundo')]));
      await expect
        .poll(
          async () =>
            (
              await selectRows<{ n: number }>(
                db,
                sql`select count(*)::int as n from pg_stat_activity
                    where datname = current_database() and wait_event = 'advisory'`,
              )
            )[0]?.n,
          { timeout: 10_000 },
        )
        .toBe(1);
      // Another unit writes meanwhile (its own lock): its id is drawn now, from the same sequence.
      const [meanwhile] = await db.transaction((tx) =>
        publishRealtimeAll(tx, [event('MT', 'outra unidade')]),
      );
      commit();
      await first;
      const [idOfSecond] = await second;
      expect(meanwhile!).toBeGreaterThan(idOfFirst);
      // Drawn after the wait: a client that saw the first event misses nothing of GO.
      expect(idOfSecond!).toBeGreaterThan(meanwhile!);
    },
  );

  it('through app.inject: refused before streaming without a session, and an allowed call ends after the replay', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/Realtime/events' });
    expect(anonymous.statusCode).toBe(401);
    const badHeader = await t.app.inject({
      method: 'GET',
      url: '/api/Realtime/events',
      headers: { ...df.auth, 'last-event-id': 'abc' },
    });
    expect(badHeader.statusCode).toBe(400);
    const badQuery = await t.app.inject({
      method: 'GET',
      url: '/api/Realtime/events?lastEventId=-1',
      headers: df.auth,
    });
    expect(badQuery.statusCode).toBe(400);
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/Realtime/events?lastEventId=0&local=DF.POSTO07-S1',
      headers: dfViewer.auth,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(replay.body).toContain('event: exam_changed');
    expect(replay.body).not.toContain('DF.POSTO08-S1');
  });

  it('closing the app ends the open streams instead of waiting for them', async () => {
    const own = await buildTestApp({ database: t.database });
    const ownBase = await listenOnLoopback(own.app);
    const client = await openStream(ownBase, df.token);
    await expect.poll(() => own.app.realtime.size()).toBe(1);
    const started = Date.now();
    await own.close();
    await client.ended;
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe(`realtime across two instances on one database (${engineName})`, () => {
  let a: TestApp;
  let b: TestApp;
  let second: TestDatabase;
  let baseA: string;
  let baseB: string;

  beforeAll(async () => {
    a = await buildTestApp();
    second = await openSameDatabase(a.database);
    b = await buildTestApp({ database: second });
    baseA = await listenOnLoopback(a.app);
    baseB = await listenOnLoopback(b.app);
  });
  afterAll(async () => {
    await b?.close();
    await second?.drop();
    await a?.close();
  });

  it('a status change through instance A reaches an SSE client of instance B', async () => {
    const admin = await seedSignedIn(a.app, { role: 'ADMIN', unit: 'DF' });
    const key = (await createApiKeyFor(a.app, admin.auth)).key;
    const exam = examPayload();
    const pushed = await fetch(`${baseA}/api/Integration/exams`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ exams: [exam] }),
    });
    expect(pushed.status).toBe(200);

    const onB = await openStream(baseB, admin.token);
    const onA = await openStream(baseA, admin.token);
    try {
      await expect.poll(() => b.app.realtime.size()).toBe(1);
      const started = Date.now();
      const changed = await fetch(`${baseA}/api/Integration/exams/${exam.schedulingId}/status`, {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'started' }),
      });
      expect(changed.status).toBe(200);
      const [event] = await onB.waitForEvents(1);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(event).toMatchObject({
        kind: 'exam_changed',
        payload: { schedulingId: exam.schedulingId, status: 'started' },
      });
      expect(await onA.waitForEvents(1)).toEqual([event]);

      // B's client drops; what A writes meanwhile is replayed by B on reconnect.
      onB.close();
      await fetch(`${baseA}/api/Integration/exams/${exam.schedulingId}/status`, {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'done', result: 'approved' }),
      });
      const back = await openStream(baseB, admin.token, { lastEventId: String(event!.id) });
      try {
        const [missed] = await back.waitForEvents(1);
        expect(missed!.payload).toMatchObject({ status: 'done', result: 'approved' });
      } finally {
        back.close();
      }
    } finally {
      onA.close();
      onB.close();
    }
  });

  it.skipIf(!testDatabaseUrl)(
    'PostgreSQL: a lost listening connection comes back and delivers what was written meanwhile',
    async () => {
      const admin = await seedSignedIn(a.app, { role: 'ADMIN', unit: 'SP' });
      const key = (await createApiKeyFor(a.app, admin.auth)).key;
      const client = await openStream(baseB, admin.token);
      try {
        await expect.poll(() => b.app.realtime.size()).toBe(1);
        // Both instances' listening connections go down; the exam is written before they are back
        // (the first retry waits 250 ms), so its notification is lost and only the catch-up brings it.
        const killed = await selectRows<{ pid: number }>(
          a.database.db,
          sql`select pid from pg_stat_activity, pg_terminate_backend(pid)
              where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`,
        );
        expect(killed).toHaveLength(2);
        const exam = examPayload({ metadata: { schedulingLocal: 'SP.POSTO01-S1' } });
        await fetch(`${baseA}/api/Integration/exams`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ exams: [exam] }),
        });
        const [event] = await client.waitForEvents(1, 10_000);
        expect(event!.payload).toMatchObject({ schedulingId: exam.schedulingId });
      } finally {
        client.close();
      }
    },
  );
});
