import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  createTestDatabase,
  engineName,
  testDatabaseUrl,
  type TestDatabase,
} from '../../../test/helper';
import { webEvent } from '../../../test/web-events';
import { selectRows } from '../../db/select-rows';
import { activityLog } from '../../db/schema/index';
import { replaceEventCpf } from '../retention/retention.repository';
import { verifyAllChains, verifyChain } from './activity-chain';
import { appendWebEvents, insertActivity } from './activity.repository';
import { chainAnchors, logChainAnchors } from './chain-upkeep.service';

/** The guard's refusal, wrapped by drizzle ("Failed query") around the driver's error. */
const REFUSED = { cause: { message: expect.stringMatching(/append-only/) } };

async function links(database: TestDatabase, unit: string) {
  return selectRows<{ id: string; seq: string; prev_hash: string | null; hash: string }>(
    database.db,
    sql`select id, seq, prev_hash, hash from activity_log where federative_unit = ${unit} order by seq`,
  );
}

describe(`activity log hash chain on ${engineName}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('numbers each unit’s events and links each to the previous one; the chain verifies', async () => {
    const db = database.db;
    for (let i = 0; i < 5; i += 1) {
      await insertActivity(db, {
        type: 'load_exam',
        actorId: null,
        federativeUnit: 'GO',
        payload: { schedulingId: `S-${i}` },
        target: `exam:S-${i}`,
      });
      await insertActivity(db, { type: 'retention_purge', actorId: null, federativeUnit: null });
    }
    // A seq sent by the caller is ignored: the trigger numbers the event.
    await db.insert(activityLog).values({ type: 'page_view', federativeUnit: 'GO', seq: 99 });
    const rows = await links(database, 'GO');
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows[0]?.prev_hash).toBeNull();
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]?.prev_hash).toBe(rows[i - 1]?.hash);
    expect(new Set(rows.map((row) => row.hash)).size).toBe(6);
    expect(await verifyChain(db, 'GO')).toEqual({ ok: true, checked: 6, firstBroken: null });
    // Events with no unit form their own chain.
    expect(await verifyChain(db, null)).toMatchObject({ ok: true, checked: 5 });
    expect(await verifyChain(db, 'AC')).toEqual({ ok: true, checked: 0, firstBroken: null });
  });

  it('refuses UPDATE and DELETE of an event', async () => {
    const db = database.db;
    const [row] = await links(database, 'GO');
    await expect(
      db.execute(
        sql`update activity_log set payload = '{"schedulingId":"X"}' where id = ${row!.id}`,
      ),
    ).rejects.toMatchObject(REFUSED);
    await expect(
      db.execute(sql`update activity_log set actor_id = gen_random_uuid() where id = ${row!.id}`),
    ).rejects.toMatchObject(REFUSED);
    await expect(
      db.execute(sql`delete from activity_log where id = ${row!.id}`),
    ).rejects.toMatchObject(REFUSED);
    expect(await verifyChain(db, 'GO')).toMatchObject({ ok: true, checked: 6 });
  });

  it('allows exactly the retention redaction of a CPF, and the chain still verifies', async () => {
    const db = database.db;
    await insertActivity(db, {
      type: 'face_image_view',
      actorId: null,
      federativeUnit: 'MT',
      payload: { cpf: '98765432100', purpose: 'check-in' },
      target: 'cpf:PSEUDO-1',
    });
    const [row] = await links(database, 'MT');
    // Another pseudonym than the one the event names: refused.
    await expect(replaceEventCpf(db, row!.id, 'OTHER')).rejects.toMatchObject(REFUSED);
    await replaceEventCpf(db, row!.id, 'PSEUDO-1');
    const [payload] = await selectRows<{ payload: Record<string, unknown> }>(
      db,
      sql`select payload from activity_log where id = ${row!.id}`,
    );
    expect(payload?.payload).toEqual({ cpfPseudonym: 'PSEUDO-1', purpose: 'check-in' });
    // Once redacted, nothing more may change.
    await expect(replaceEventCpf(db, row!.id, 'PSEUDO-1')).rejects.toMatchObject(REFUSED);
    expect(await verifyChain(db, 'MT')).toEqual({ ok: true, checked: 1, firstBroken: null });
  });

  it('finds a row changed directly in the database, bypassing the guard, as the first broken link', async () => {
    const db = database.db;
    const rows = await links(database, 'GO');
    const victim = rows[2]!;
    await db.transaction(async (tx) => {
      // A superuser's session turns the triggers off: the guard does not run.
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`update activity_log set payload = '{"schedulingId":"FORJADO"}' where id = ${victim.id}`,
      );
    });
    const report = await verifyChain(db, 'GO');
    expect(report.ok).toBe(false);
    expect(report.checked).toBe(2);
    expect(report.firstBroken).toMatchObject({ id: victim.id, seq: 3 });
    expect(report.firstBroken?.reason).toMatch(/não confere com o hash/);
    // Recomputing that event's hash in place breaks the next link instead.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`update activity_log set hash = activity_event_hash(prev_hash, activity_log) where id = ${victim.id}`,
      );
    });
    expect((await verifyChain(db, 'GO')).firstBroken).toMatchObject({ id: rows[3]!.id, seq: 4 });
    // A deleted tail shows against the chain's recorded head.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from activity_log where federative_unit = 'MT'`);
    });
    expect(await verifyChain(db, 'MT')).toMatchObject({
      ok: false,
      checked: 0,
      firstBroken: { id: null, seq: 1 },
    });
  });

  it('keeps one chain when transactions append to the same unit at the same time', async () => {
    const db = database.db;
    const writers = Array.from({ length: 12 }, (_, i) =>
      db.transaction(async (tx) => {
        await insertActivity(tx, { type: 'page_view', actorId: null, federativeUnit: 'RO' });
        // Holds the transaction open so the others try to append meanwhile.
        await tx.execute(sql`select pg_sleep(0.02)`);
        await insertActivity(tx, {
          type: 'error',
          actorId: null,
          federativeUnit: 'RO',
          payload: { writer: i },
        });
      }),
    );
    // One writer fails and rolls back: its numbers are not left as a gap.
    writers.push(
      db
        .transaction(async (tx) => {
          await insertActivity(tx, { type: 'page_view', actorId: null, federativeUnit: 'RO' });
          throw new Error('desistiu');
        })
        .catch(() => undefined),
    );
    await Promise.all(writers);
    const rows = await links(database, 'RO');
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(await verifyChain(db, 'RO')).toEqual({ ok: true, checked: 24, firstBroken: null });
  });

  it('refuses TRUNCATE of the log and of the heads, and any head that does not move forward; a rewrite past the guards shows against the anchors kept outside', async () => {
    const db = database.db;
    for (let i = 0; i < 3; i += 1) {
      await insertActivity(db, { type: 'load_exam', actorId: null, federativeUnit: 'PI' });
    }
    const refusedAs = (pattern: RegExp) => ({ cause: { message: expect.stringMatching(pattern) } });
    await expect(db.execute(sql`truncate activity_log`)).rejects.toMatchObject(
      refusedAs(/TRUNCATE refused/),
    );
    await expect(db.execute(sql`truncate activity_chain_heads`)).rejects.toMatchObject(
      refusedAs(/TRUNCATE refused/),
    );
    for (const statement of [
      sql`update activity_chain_heads set seq = 0, hash = '' where chain = 'PI'`,
      sql`update activity_chain_heads set hash = 'x' where chain = 'PI'`,
      sql`update activity_chain_heads set base_seq = 2 where chain = 'PI'`,
      sql`delete from activity_chain_heads where chain = 'PI'`,
    ]) {
      await expect(db.execute(statement)).rejects.toMatchObject(refusedAs(/only moves forward/));
    }
    expect(await verifyChain(db, 'PI')).toMatchObject({ ok: true, checked: 3 });

    // The anchors: what the hourly log line and /metrics keep outside the database.
    const lines: unknown[] = [];
    const log = { info: (fields: unknown) => lines.push(fields) };
    const anchors = await logChainAnchors({ db, log: log as never });
    expect(anchors).toEqual(await chainAnchors(db));
    const pi = anchors.find((anchor) => anchor.chain === 'PI')!;
    expect(pi).toMatchObject({ seq: 3, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(lines).toContainEqual({ activityChainAnchor: pi });
    // (The chains GO and MT were broken on purpose above.)
    const intact = (await verifyAllChains(db, anchors)).filter(
      (r) => !['GO', 'MT'].includes(r.chain),
    );
    expect(intact.map((r) => [r.chain, r.ok])).toContainEqual(['PI', true]);
    expect(intact.every((report) => report.ok)).toBe(true);

    // Someone with the owner's rights turns the guards off and starts the unit's chain over.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from activity_log where chain = 'PI'`);
      await tx.execute(sql`delete from activity_chain_heads where chain = 'PI'`);
    });
    await insertActivity(db, { type: 'load_exam', actorId: null, federativeUnit: 'PI' });
    expect(await verifyChain(db, 'PI')).toMatchObject({ ok: true, checked: 1 });
    const [report] = (await verifyAllChains(db, [pi])).filter((r) => r.chain === 'PI');
    expect(report).toMatchObject({ ok: false, firstBroken: { seq: 3 } });
    expect(report!.firstBroken!.reason).toMatch(/termina no nº 1/);
    // Rewritten to the same length: the anchor's hash no longer matches.
    await insertActivity(db, { type: 'load_exam', actorId: null, federativeUnit: 'PI' });
    await insertActivity(db, { type: 'load_exam', actorId: null, federativeUnit: 'PI' });
    const [rewritten] = (await verifyAllChains(db, [pi])).filter((r) => r.chain === 'PI');
    expect(rewritten!.firstBroken!.reason).toMatch(/reescrita/);
  });

  it.skipIf(!testDatabaseUrl)(
    'a web event another request stores while this one waits is stored once, and the chain has no gap (PostgreSQL)',
    async () => {
      const db = database.db;
      const actor = { id: randomUUID(), federativeUnit: 'AP' };
      const shared = webEvent();
      const own = webEvent();
      // The first request has written the event and has not committed yet.
      let written!: () => void;
      let commit!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const committing = new Promise<void>((resolve) => (commit = resolve));
      const first = db.transaction(async (tx) => {
        await appendWebEvents(tx, actor, [shared]);
        written();
        await committing;
      });
      await wrote;
      // The second sends it again with one of its own: its statement does not see the first's
      // row and waits on the chain's head; after the commit it breaks the unique index and is
      // sent again.
      const second = appendWebEvents(db, actor, [shared, own]);
      await expect
        .poll(
          async () => {
            const [row] = await selectRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
                  and query like '%insert into activity_log%'`,
            );
            return row?.n;
          },
          { timeout: 10_000 },
        )
        .toBe(1);
      commit();
      await first;
      expect(await second).toEqual([own.clientId]);
      const web = await selectRows<{ client_id: string; seq: string }>(
        db,
        sql`select client_id, seq from activity_log where chain = 'AP/web' order by seq`,
      );
      expect(web.map((row) => [row.client_id, Number(row.seq)])).toEqual([
        [shared.clientId, 1],
        [own.clientId, 2],
      ]);
      expect(await verifyChain(db, 'AP/web')).toEqual({ ok: true, checked: 2, firstBroken: null });
    },
  );
});
