/**
 * The read cache (lib/read-cache.ts, plugins/read-cache.ts): a repeated hot
 * read costs no statement while nothing changed, and every change, made by
 * any path, is seen by the next read: through the API, through any statement
 * of this instance, through another connection (NOTIFY, PostgreSQL), by a
 * handler that writes while it reads. Nothing crosses users or units, and the
 * session and access policy are still checked on every request.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../db/client';
import { ensureReferenceData } from '../db/seed/reference-data';
import { createReadCache, dataChanged, dataGeneration, mayChangeData } from '../lib/read-cache';
import {
  buildTestApp,
  createTestDatabase,
  engineName,
  type TestApp,
  type TestDatabase,
} from '../../test/helper';
import { createApiKeyFor, examPayload, pushExams } from '../../test/exams';
import { seedSignedIn, seedUser } from '../../test/identity';
import { READ_CACHE_HEADER } from './read-cache';

type Auth = { authorization: string };
type ExamPage = { items: Array<{ schedulingId: string; candidateName: string }>; total: number };

describe('read cache', () => {
  const statements: string[] = [];
  let database: TestDatabase;
  let t: TestApp;
  let admin: Auth;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase({ onQuery: (query) => statements.push(query) });
    await ensureReferenceData(database.db);
    // A long life: whatever refreshes an answer in these tests is a change, never the clock.
    t = await buildTestApp({ database, config: { readCacheMs: 60_000 } });
    admin = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth;
    apiKey = (await createApiKeyFor(t.app, admin)).key;
    await pushExams(t.app, apiKey, [examPayload({ candidate: candidate('Ana Primeira') })]);
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  function candidate(name: string) {
    return { name, cpf: '529.982.247-25', renach: 'DF123456789' };
  }

  async function read(url: string, auth: Auth) {
    const from = statements.length;
    const response = await t.app.inject({ method: 'GET', url, headers: auth });
    return {
      status: response.statusCode,
      cache: response.headers[READ_CACHE_HEADER],
      body: response.body,
      statements: statements.slice(from),
    };
  }
  /**
   * Reads until the answer comes from the cache. On PostgreSQL the
   * notifications of this test's own earlier writes arrive a moment after
   * them and make the answers stale once more; a hit comes right after.
   */
  async function cached(url: string, auth: Auth) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = await read(url, auth);
      if (answer.cache === 'hit' || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const names = (body: string) =>
    (JSON.parse(body) as ExamPage).items.map((item) => item.candidateName).sort();

  it('a repeated read is answered from the cache: the same bytes, no statement', async () => {
    const first = await read('/api/Exam?pageSize=50', admin);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    expect(first.statements.length).toBeGreaterThan(0);
    const again = await cached('/api/Exam?pageSize=50', admin);
    expect(again).toMatchObject({ status: 200, cache: 'hit', body: first.body });
    expect(again.statements).toEqual([]);
    // Another address is another answer.
    expect((await read('/api/Exam?pageSize=49', admin)).cache).toBe('miss');
  });

  it('a change through the API is in the next read', async () => {
    expect((await cached('/api/Exam?pageSize=50', admin)).cache).toBe('hit');
    await pushExams(t.app, apiKey, [examPayload({ candidate: candidate('Bruno Segundo') })]);
    const after = await read('/api/Exam?pageSize=50', admin);
    expect(after.cache).toBe('miss');
    expect(names(after.body)).toContain('Bruno Segundo');
  });

  it('any statement of this instance that may change data makes the answers stale', async () => {
    expect((await cached('/api/Exam?pageSize=50', admin)).cache).toBe('hit');
    await database.db.execute(
      sql`update exams set candidate_name = 'Ana Renomeada' where candidate_name = 'Ana Primeira'`,
    );
    const after = await read('/api/Exam?pageSize=50', admin);
    expect(after.cache).toBe('miss');
    expect(names(after.body)).toContain('Ana Renomeada');
    expect(names(after.body)).not.toContain('Ana Primeira');

    // Inside a transaction: stale once it commits, and a rollback leaves the answer right.
    await read('/api/Exam?pageSize=50', admin);
    await database.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`update exams set room = 'Sala 9' where candidate_name = 'Ana Renomeada'`,
        );
        tx.rollback();
      })
      .catch(() => undefined);
    const afterRollback = await read('/api/Exam?pageSize=50', admin);
    expect(afterRollback.cache).toBe('miss');
    expect(names(afterRollback.body)).toContain('Ana Renomeada');
  });

  it.skipIf(engineName !== 'postgres')(
    'a change committed through another connection (another instance) arrives by NOTIFY',
    async () => {
      expect((await cached('/api/Exam?pageSize=50', admin)).cache).toBe('hit');
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query(
          `update exams set candidate_name = 'Ana de Outra Instância' where candidate_name = 'Ana Renomeada'`,
        );
      } finally {
        await other.end();
      }
      // The entry lives 60 s: only the notification can make the next reads see the change.
      const deadline = Date.now() + 5_000;
      let seen: string[] = [];
      while (Date.now() < deadline) {
        seen = names((await read('/api/Exam?pageSize=50', admin)).body);
        if (seen.includes('Ana de Outra Instância')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(seen).toContain('Ana de Outra Instância');
    },
  );

  it('nothing crosses users or units; the session and the policy are checked first', async () => {
    const sp = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' })).auth;
    const spKey = (await createApiKeyFor(t.app, sp)).key;
    await pushExams(t.app, spKey, [
      examPayload({
        candidate: candidate('Carla Paulista'),
        metadata: { schedulingLocal: 'SP.POSTO01-S1' },
      }),
    ]);
    expect((await cached('/api/Exam?pageSize=50', admin)).cache).toBe('hit');
    const spRead = await read('/api/Exam?pageSize=50', sp);
    expect(spRead.cache).toBe('miss');
    expect(names(spRead.body)).toEqual(['Carla Paulista']);
    expect(names((await read('/api/Exam?pageSize=50', admin)).body)).not.toContain(
      'Carla Paulista',
    );

    // Another ADMIN of the same unit gets an answer of their own.
    const colleague = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth;
    expect((await read('/api/Exam?pageSize=50', colleague)).cache).toBe('miss');

    // An examiner may not list exams, cached or not.
    const examiner = (await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' })).auth;
    expect((await read('/api/Exam?pageSize=50', examiner)).status).toBe(403);

    // Signed out: refused, although the answer is still cached for the user.
    const leaving = await seedSignedIn(t.app, { role: 'auditor', unit: 'DF' });
    expect((await cached('/api/Exam?pageSize=50', leaving.auth)).cache).toBe('hit');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/logout',
      headers: leaving.auth,
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await read('/api/Exam?pageSize=50', leaving.auth)).status).toBe(401);
  });

  it('a read whose handler writes (the audit of whole CPFs) is never served from the cache', async () => {
    await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    const views = async () =>
      (
        await selectRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from activity_log where type = 'cpf_view'`,
        )
      )[0] ?? { n: 0 };
    const before = (await views()).n;
    for (let i = 0; i < 3; i += 1) {
      const answer = await read('/api/User?pageSize=100', admin);
      expect(answer.status).toBe(200);
      expect(answer.cache).toBe('miss');
    }
    expect((await views()).n).toBe(before + 3);
  });

  it('the report and the open check-in are cached reads too', async () => {
    const url = '/api/ExamReport?startDate=2026-11-01&endDate=2026-11-30';
    const first = await read(url, admin);
    expect(first).toMatchObject({ status: 200, cache: 'miss' });
    expect(await read(url, admin)).toMatchObject({
      cache: 'hit',
      body: first.body,
      statements: [],
    });
    await pushExams(t.app, apiKey, [examPayload({ candidate: candidate('Dora Terceira') })]);
    const after = await read(url, admin);
    expect(after.cache).toBe('miss');
    const total = (body: string) =>
      (JSON.parse(body) as Array<{ report: { total: number } }>).reduce(
        (sum, local) => sum + local.report.total,
        0,
      );
    expect(total(after.body)).toBe(total(first.body) + 1);

    // The cached reads are these four, all GET (a write is never answered from the cache).
    expect(
      t.app.registeredRoutes
        .filter((route) => route.readCache && route.method !== 'HEAD')
        .map((route) => `${route.method} ${route.url}`)
        .sort(),
    ).toEqual([
      'GET /api/Exam',
      'GET /api/ExamReport',
      'GET /api/SchedulingLocalCheckIn/findCheckIn',
      'GET /api/User',
    ]);
  });

  it('every table a cached read can use announces its changes (migration 0018)', async () => {
    const left = [
      'activity_chain_heads',
      'activity_log',
      'face_challenges',
      'login_throttle',
      'mail_outbox',
      'password_link_requests',
      'password_links',
      'rate_limits',
      'realtime_events',
      'sessions',
    ];
    const tables = (
      await selectRows<{ tablename: string }>(
        database.db,
        sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
      )
    ).map((row) => row.tablename);
    const triggered = (
      await selectRows<{ relname: string }>(
        database.db,
        sql`select c.relname from pg_trigger g join pg_class c on c.oid = g.tgrelid
            where g.tgname = 'read_cache_notify' order by c.relname`,
      )
    ).map((row) => row.relname);
    expect(triggered).toEqual(tables.filter((table) => !left.includes(table)));
    for (const table of left) expect(tables).toContain(table);
  });
});

describe('read cache, its rules', () => {
  it('classifies statements: only a plain SELECT (or WITH ... SELECT) reads', () => {
    expect(mayChangeData('select * from "exams" where "id" = $1')).toBe(false);
    expect(mayChangeData('  WITH days AS (select 1) select * from days')).toBe(false);
    expect(mayChangeData('select "updated_at", "deleted" from "users"')).toBe(false);
    for (const text of [
      'insert into "exams" values ($1)',
      'update "exams" set "room" = $1',
      'delete from "exams"',
      'with moved as (update exams set room = 1 returning id) select * from moved',
      'select * from "exams" for update',
      "select nextval('x')",
      'begin',
      'commit',
      'rollback',
      'truncate exams',
    ]) {
      expect(mayChangeData(text), text).toBe(true);
    }
  });

  it('an answer is stored only if nothing changed since the lookup, and served only until a change', () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    const answer = { payload: '{"a":1}', contentType: 'application/json' };
    const started = cache.generation();
    dataChanged();
    expect(cache.set('k', answer, started, 0)).toBe(false);
    expect(cache.get('k', 1)).toBeUndefined();

    expect(cache.set('k', answer, cache.generation(), 0)).toBe(true);
    expect(cache.get('k', 1)).toEqual(expect.objectContaining(answer));
    dataChanged();
    expect(cache.get('k', 2)).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('lives at most its TTL, and serves nothing while changes could go unseen', () => {
    const cache = createReadCache({ ttlMs: 1_000 });
    const answer = { payload: '[]', contentType: 'application/json' };
    cache.set('k', answer, dataGeneration(), 0);
    expect(cache.get('k', 999)).toBeDefined();
    expect(cache.get('k', 1_000)).toBeUndefined();

    cache.set('k', answer, dataGeneration(), 0);
    cache.setListening(false);
    expect(cache.get('k', 1)).toBeUndefined();
    expect(cache.set('k', answer, dataGeneration(), 1)).toBe(false);
    cache.setListening(true);
    expect(cache.set('k', answer, dataGeneration(), 1)).toBe(true);
    expect(cache.get('k', 2)).toBeDefined();

    const off = createReadCache({ ttlMs: 0 });
    expect(off.set('k', answer, dataGeneration(), 0)).toBe(false);
  });
});
