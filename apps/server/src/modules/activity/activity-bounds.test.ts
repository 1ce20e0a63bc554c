import { dayInZone } from '@exame/shared';
/**
 * What a browser may put in the activity log, and how long it stays: bounded
 * fields, a bounded number of events per user and hour, the server's target
 * names reserved, the server's time beside the browser's, and a retention of
 * their own for browser events that leaves every chain verifiable.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';
import { verifyAllChains, verifyChain, verifyUnitChains } from './activity-chain';
import { insertActivity } from './activity.repository';
import { purgeBrowserEvents } from './chain-upkeep.service';
import { webEvent } from '../../../test/web-events';

type Signed = Awaited<ReturnType<typeof seedSignedIn>>;

const EVENTS_PER_HOUR = 150;
const REFUSED = { cause: { message: expect.stringMatching(/append-only/) } };

describe(`browser events in the activity log on ${engineName}`, () => {
  let t: TestApp;
  let admin: Signed;
  beforeAll(async () => {
    t = await buildTestApp({
      config: { activity: { clientEventsPerHour: EVENTS_PER_HOUR, webRetentionDays: 90 } },
    });
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'GO' });
  });
  afterAll(() => t.close());

  const send = (who: Signed, events: object[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ActivityLog/events',
      headers: who.auth,
      payload: { events },
    });
  const storedOf = async (actorId: string) =>
    (
      await selectRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from activity_log where actor_id = ${actorId}`,
      )
    )[0]!.n;

  it('refuses oversized fields and the server target names, storing nothing of the batch', async () => {
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'GO' });
    const refused = [
      { details: { stack: 'x'.repeat(4100) } },
      { target: `/${'a'.repeat(300)}` },
      { target: 'exam:GO-123' },
      { target: '/exames user:9b1c' },
      { target: 'CPF: 529.982.247-25' },
      { deviceId: 'd'.repeat(101) },
    ];
    for (const overrides of refused) {
      const answer = await send(viewer, [webEvent(), webEvent(overrides)]);
      expect(answer.statusCode, JSON.stringify(overrides).slice(0, 60)).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const named = await send(viewer, [webEvent({ target: 'exam:GO-123' })]);
    expect(JSON.stringify(named.json())).toContain('nome reservado ao servidor');
    expect(await storedOf(viewer.user.id)).toBe(0);
    // What the web sends: paths, requests, a modal's title.
    const accepted = await send(viewer, [
      webEvent({ target: '/exames/GO-123' }),
      webEvent({ type: 'error', target: 'GET /api/Exam', details: { status: 500 } }),
      webEvent({ type: 'stream_log', target: 'Validação facial', details: { step: 2 } }),
    ]);
    expect(accepted.json()).toEqual({ accepted: 3, duplicates: 0 });
  });

  it('bounds the events of one user per hour (a batch counts its events); another user is not affected', async () => {
    const busy = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'GO' });
    const other = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'GO' });
    const batch = () => Array.from({ length: 100 }, () => webEvent());
    expect((await send(busy, batch())).statusCode).toBe(200);
    const over = await send(busy, batch());
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedOf(busy.user.id)).toBe(100);
    expect((await send(other, batch())).statusCode).toBe(200);
  });

  it("stamps the server's time beside the browser's: searches and periods go by the server's", async () => {
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'GO' });
    const before = Date.now();
    const sent = await send(viewer, [
      webEvent({ occurredAt: '2001-01-01T00:00:00.000Z', target: '/antigo' }),
    ]);
    expect(sent.statusCode).toBe(200);
    // The period is in the product's time zone (São Paulo), not UTC.
    const today = dayInZone(new Date());
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/ActivityLog?actorId=${viewer.user.id}&from=${today}&to=${today}`,
      headers: admin.auth,
    });
    expect(page.statusCode).toBe(200);
    const [item] = page.json<{ items: Array<{ occurredAt: string; createdAt: string }> }>().items;
    expect(item!.occurredAt).toBe('2001-01-01T00:00:00.000Z');
    expect(Date.parse(item!.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const old = await t.app.inject({
      method: 'GET',
      url: `/api/ActivityLog?actorId=${viewer.user.id}&from=2001-01-01&to=2001-01-02`,
      headers: admin.auth,
    });
    expect(old.json()).toMatchObject({ total: 0 });
  });

  it('browser events go after their own period, server events stay, and every chain still checks out', async () => {
    const unit = 'TO';
    const [viewer, unitAdmin] = await Promise.all([
      seedSignedIn(t.app, { role: 'VIEWER', unit }),
      seedSignedIn(t.app, { role: 'ADMIN', unit }),
    ]);
    const db = t.database.db;
    await insertActivity(db, {
      type: 'user_add',
      actorId: unitAdmin.user.id,
      federativeUnit: unit,
    });
    expect((await send(viewer, [webEvent(), webEvent(), webEvent()])).statusCode).toBe(200);
    await insertActivity(db, {
      type: 'user_add',
      actorId: unitAdmin.user.id,
      federativeUnit: unit,
    });
    expect(await verifyUnitChains(db, unit)).toMatchObject({ ok: true, checked: 5 });

    // A browser event not yet past its period, or a server event, cannot be deleted.
    await expect(
      db.execute(
        sql`delete from activity_log where federative_unit = ${unit} and client_id is not null`,
      ),
    ).rejects.toMatchObject(REFUSED);
    await expect(
      db.execute(
        sql`delete from activity_log where federative_unit = ${unit} and client_id is null`,
      ),
    ).rejects.toMatchObject(REFUSED);

    const later = new Date(Date.now() + 91 * 86_400_000);
    const dropped = await purgeBrowserEvents({ db }, 90, later);
    expect(dropped[unit]).toBe(3);
    const left = await selectRows<{ type: string }>(
      db,
      sql`select type from activity_log where federative_unit = ${unit} order by created_at, seq`,
    );
    expect(left.map((row) => row.type)).toEqual(['user_add', 'user_add', 'retention_purge']);
    expect(await verifyUnitChains(db, unit)).toMatchObject({ ok: true, checked: 3 });
    expect(await verifyChain(db, `${unit}/web`)).toEqual({
      ok: true,
      checked: 0,
      firstBroken: null,
    });

    // The browser chain goes on from where it was cut, and checks out.
    expect((await send(viewer, [webEvent(), webEvent()])).statusCode).toBe(200);
    expect(await verifyChain(db, `${unit}/web`)).toMatchObject({ ok: true, checked: 2 });
    const reports = await verifyAllChains(db);
    expect(reports.every((report) => report.ok)).toBe(true);
    expect(reports.find((report) => report.chain === `${unit}/web`)).toMatchObject({
      unit,
      ok: true,
    });
    const [head] = await selectRows<{ seq: number; base_seq: number }>(
      db,
      sql`select seq::int, base_seq::int from activity_chain_heads where chain = ${`${unit}/web`}`,
    );
    expect(head).toEqual({ seq: 5, base_seq: 3 });
    // A second run drops nothing more than what is past the period.
    expect(await purgeBrowserEvents({ db }, 90, new Date())).toEqual({});
  });
});
