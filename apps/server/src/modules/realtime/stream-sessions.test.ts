/**
 * An open event stream lives no longer than its session: logout, disabling
 * the user or changing their role end it at once (by NOTIFY, on every
 * instance; the periodic check is set to a minute here so that only the
 * notice can do it), expiry, idle time and a change of unit end it at the
 * next check, and one user holds a bounded number of streams.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, examPayload } from '../../../test/exams';
import {
  buildTestApp,
  engineName,
  openSameDatabase,
  type TestApp,
  type TestDatabase,
} from '../../../test/helper';
import { seedSignedIn, signInAs } from '../../../test/identity';
import { listenOnLoopback, openStream, type StreamClient } from '../../../test/realtime';
import { logout, setRegisterStatus, setRole } from '../../../test/sessions';
import { hashToken } from '../../lib/crypto';

const NOTICE_ONLY = { realtime: { maxStreamsPerUser: 2, sessionCheckMs: 60_000 } };

/** Whether the stream ended within `ms`. */
async function endsWithin(stream: StreamClient, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const ended = await Promise.race([stream.ended.then(() => true as const), timeout]);
  clearTimeout(timer);
  return ended;
}

async function streamStatus(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/api/Realtime/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status;
}

describe(`event streams end with their session on ${engineName}`, () => {
  let t: TestApp;
  let base: string;
  const streams: StreamClient[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ config: NOTICE_ONLY });
    base = await listenOnLoopback(t.app);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  const stream = async (token: string) => {
    const opened = await openStream(base, token);
    expect(opened.status).toBe(200);
    streams.push(opened);
    return opened;
  };
  const announce = async (adminAuth: { authorization: string }): Promise<void> => {
    const key = (await createApiKeyFor(t.app, adminAuth)).key;
    const response = await fetch(`${base}/api/Integration/exams`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ exams: [examPayload()] }),
    });
    expect(response.status).toBe(200);
  };

  it("logout ends that session's stream at once and refuses its reconnection; another session's stream goes on", async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const otherDevice = await signInAs(t.app, viewer.user.email);
    const leaving = await stream(viewer.token);
    const staying = await stream(otherDevice);
    await expect.poll(() => t.app.realtimeSessions.size()).toBe(2);

    expect((await logout(t.app, viewer.auth)).statusCode).toBe(204);
    expect(await endsWithin(leaving, 3000)).toBe(true);
    expect(await streamStatus(base, viewer.token)).toBe(401);

    await announce(admin.auth);
    const [event] = await staying.waitForEvents(1);
    expect(event!.kind).toBe('exam_changed');
    expect(leaving.events).toHaveLength(0);
  });

  it('disabling the user or changing their role ends their streams at once', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const disabled = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const demoted = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    const disabledStream = await stream(disabled.token);
    const demotedStream = await stream(demoted.token);

    const disable = await setRegisterStatus(t.app, admin.auth, disabled.user.id, 'disabled');
    expect(disable.statusCode).toBe(200);
    expect(await endsWithin(disabledStream, 3000)).toBe(true);
    expect(await endsWithin(demotedStream, 200)).toBe(false);

    expect((await setRole(t.app, admin.auth, demoted.user.id, 'VIEWER')).statusCode).toBe(200);
    expect(await endsWithin(demotedStream, 3000)).toBe(true);
    expect(await streamStatus(base, demoted.token)).toBe(401);
  });

  it('expiry, idle time and a change of unit end the stream at the next check', async () => {
    const expiring = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const idle = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const moved = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const kept = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const [expiringStream, idleStream, movedStream, keptStream] = await Promise.all(
      [expiring, idle, moved, kept].map((signed) => stream(signed.token)),
    );
    const db = t.database.db;
    await db.execute(
      sql`update sessions set expires_at = now() - interval '1 second'
          where token_hash = ${hashToken(expiring.token)}`,
    );
    await db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 hours'
          where token_hash = ${hashToken(idle.token)}`,
    );
    await db.execute(sql`update users set federative_unit = 'SP' where id = ${moved.user.id}`);

    await t.app.realtimeSessions.checkAll();
    expect(await endsWithin(expiringStream!, 1000)).toBe(true);
    expect(await endsWithin(idleStream!, 1000)).toBe(true);
    expect(await endsWithin(movedStream!, 1000)).toBe(true);
    expect(await endsWithin(keptStream!, 200)).toBe(false);
  });

  it('one user holds at most the configured number of streams: a new one ends the oldest', async () => {
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const first = await stream(viewer.token);
    const second = await stream(viewer.token);
    const third = await stream(viewer.token);
    expect(await endsWithin(first, 3000)).toBe(true);
    expect(await endsWithin(second, 200)).toBe(false);
    expect(await endsWithin(third, 10)).toBe(false);
    const opened: StreamClient[] = [];
    for (let index = 0; index < 5; index += 1) opened.push(await stream(viewer.token));
    await Promise.all([second, third, ...opened.slice(0, 3)].map((s) => s.ended));
    expect(await endsWithin(opened[3]!, 200)).toBe(false);
    expect(await endsWithin(opened[4]!, 10)).toBe(false);
  });

  it('the periodic check ends a stream whose session expired, without any notice', async () => {
    const quick = await buildTestApp({
      database: await openSameDatabase(t.database),
      config: { realtime: { maxStreamsPerUser: 10, sessionCheckMs: 100 } },
    });
    try {
      const quickBase = await listenOnLoopback(quick.app);
      const viewer = await seedSignedIn(quick.app, { role: 'VIEWER', unit: 'DF' });
      const open = await openStream(quickBase, viewer.token);
      streams.push(open);
      await t.database.db.execute(
        sql`update sessions set expires_at = now() - interval '1 second'
            where token_hash = ${hashToken(viewer.token)}`,
      );
      expect(await endsWithin(open, 3000)).toBe(true);
    } finally {
      await quick.close();
      await quick.database.drop();
    }
  });
});

describe(`event streams end with their session on every instance (${engineName})`, () => {
  let a: TestApp;
  let b: TestApp;
  let second: TestDatabase;
  let baseB: string;

  beforeAll(async () => {
    a = await buildTestApp({ config: NOTICE_ONLY });
    second = await openSameDatabase(a.database);
    b = await buildTestApp({ database: second, config: NOTICE_ONLY });
    baseB = await listenOnLoopback(b.app);
  });
  afterAll(async () => {
    await b?.close();
    await second?.drop();
    await a?.close();
  });

  it('logout and disabling through instance A end the streams held by instance B', async () => {
    const admin = await seedSignedIn(a.app, { role: 'ADMIN', unit: 'DF' });
    const leaving = await seedSignedIn(a.app, { role: 'VIEWER', unit: 'DF' });
    const disabled = await seedSignedIn(a.app, { role: 'VIEWER', unit: 'DF' });
    const leavingStream = await openStream(baseB, leaving.token);
    const disabledStream = await openStream(baseB, disabled.token);
    try {
      await expect.poll(() => b.app.realtimeSessions.size()).toBe(2);
      expect((await logout(a.app, leaving.auth)).statusCode).toBe(204);
      expect(await endsWithin(leavingStream, 3000)).toBe(true);
      expect(await endsWithin(disabledStream, 200)).toBe(false);

      const disable = await setRegisterStatus(a.app, admin.auth, disabled.user.id, 'disabled');
      expect(disable.statusCode).toBe(200);
      expect(await endsWithin(disabledStream, 3000)).toBe(true);
      expect(b.app.realtimeSessions.size()).toBe(0);
    } finally {
      leavingStream.close();
      disabledStream.close();
    }
  });
});
