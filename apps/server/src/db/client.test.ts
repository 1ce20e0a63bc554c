/**
 * The database handle under load-related options: PGlite on its worker
 * thread (the event loop keeps running while a statement runs; errors,
 * transactions and notifications behave as on the main thread) and prepared
 * statements (PGlite's worker and PostgreSQL's pool).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engineName, type TestDatabase } from '../../test/helper';
import { uniqueViolation } from './errors';
import { openDatabase, plannedPerCall, type DatabaseHandle } from './client';
import { selectRows } from './select-rows';

/** The longest the event loop went without running a 5 ms timer while `run` ran. */
async function longestStall(run: () => Promise<unknown>): Promise<{ stall: number; took: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    await run();
    // A stall still going on when the statement ends counts too.
    stall = Math.max(stall, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return { stall, took: performance.now() - started };
}

const HEAVY = sql`select count(*)::int as n from generate_series(1, 1500000) as g where g % 7 = 3`;

describe.skipIf(engineName === 'postgres')('PGlite on its worker thread', () => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: 'memory' });
    await db.db.execute(
      sql`create table t (id int primary key, label text unique not null, at timestamptz)`,
    );
  });
  afterAll(() => db.close());

  it('a long statement does not hold up the event loop (on the main thread it does)', async () => {
    const worker = await longestStall(() => db.db.execute(HEAVY));
    const inThread = await openDatabase({ kind: 'pglite', dataDir: 'memory', thread: 'main' });
    try {
      const main = await longestStall(() => inThread.db.execute(HEAVY));
      // On the main thread the whole statement is one stall.
      expect(main.stall).toBeGreaterThan(main.took * 0.8);
    } finally {
      await inThread.close();
    }
    expect(worker.took).toBeGreaterThan(100);
    expect(worker.stall).toBeLessThan(Math.max(100, worker.took / 3));
  });

  it('database errors keep their code and constraint', async () => {
    await db.db.execute(sql`insert into t (id, label) values (${1}, ${'um'})`);
    const error = await db.db.execute(sql`insert into t (id, label) values (${2}, ${'um'})`).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(uniqueViolation(error)).toBe('t_label_key');
    const syntax = await db.db.execute(sql`select ${'x'}::int`).then(
      () => null,
      (caught: unknown) => caught as { cause?: { code?: string } },
    );
    expect(syntax?.cause?.code).toBe('22P02');
  });

  it('transactions commit, roll back, and nest with savepoints', async () => {
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, label) values (${10}, ${'dez'})`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t (id, label) values (${11}, ${'onze'})`);
          throw new Error('desfaz só o de dentro');
        })
        .catch(() => undefined);
    });
    await db.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t (id, label) values (${12}, ${'doze'})`);
        throw new Error('desfaz tudo');
      })
      .catch(() => undefined);
    const rows = await selectRows<{ id: number }>(
      db.db,
      sql`select id from t where id >= ${10} order by id`,
    );
    expect(rows.map((row) => row.id)).toEqual([10]);
  });

  it('a statement outside a transaction waits until it ends, as on the main thread', async () => {
    let inside: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release: () => void = () => undefined;
    const finish = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id, label) values (${20}, ${'vinte'})`);
      inside();
      await finish;
    });
    await held;
    let seen: number | null = null;
    const outside = selectRows<{ n: number }>(
      db.db,
      sql`select count(*)::int as n from t where id = ${20}`,
    ).then((rows) => {
      seen = rows[0]?.n ?? 0;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toBeNull();
    release();
    await transaction;
    await outside;
    expect(seen).toBe(1);
  });

  it('notifications arrive after commit, and never from a rolled-back transaction', async () => {
    const received: string[] = [];
    const unlisten = await db.listen('pglite_thread_test', (payload) => received.push(payload));
    try {
      await db.db
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_notify('pglite_thread_test', ${'desfeito'})`);
          throw new Error('rollback');
        })
        .catch(() => undefined);
      await db.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('pglite_thread_test', ${'feito'})`);
        expect(received).toEqual([]);
      });
      await expect.poll(() => received).toEqual(['feito']);
    } finally {
      await unlisten();
    }
  });

  it('prepared statements: values, dates and more statements than are kept', async () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    await db.db.execute(sql`insert into t (id, label, at) values (${30}, ${'trinta'}, ${at})`);
    const [row] = await selectRows<{ label: string; at: string }>(
      db.db,
      sql`select label, at from t where id = ${30}`,
    );
    expect(row?.label).toBe('trinta');
    expect(new Date(row?.at ?? 0).toISOString()).toBe(at.toISOString());
    // More distinct statements than the worker keeps prepared (256): the oldest are let go.
    for (let index = 0; index < 300; index += 1) {
      const [sum] = await selectRows<{ n: number }>(
        db.db,
        sql`select ${index}::int + ${sql.raw(String(index))} as n`,
      );
      expect(sum?.n).toBe(index * 2);
    }
    const [first] = await selectRows<{ n: number }>(db.db, sql`select ${1}::int + 0 as n`);
    expect(first?.n).toBe(1);
  });

  it('a statement marked planned per call is never prepared', async () => {
    // A database of its own: the test above filled the worker's prepared statements.
    const own = await openDatabase({ kind: 'pglite', dataDir: 'memory' });
    try {
      const names = async () =>
        (
          await selectRows<{ name: string }>(
            own.db,
            sql`select name from pg_prepared_statements order by name`,
          )
        ).map((row) => row.name);
      const before = await names();
      for (let index = 0; index < 3; index += 1) {
        const [row] = await selectRows<{ n: number }>(
          own.db,
          sql`select ${index}::int as n where ${plannedPerCall()}`,
        );
        expect(row?.n).toBe(index);
      }
      expect(await names()).toEqual(before);
      // Unmarked, the same statement is prepared.
      await selectRows(own.db, sql`select ${7}::int as n where true`);
      expect((await names()).length).toBe(before.length + 1);
    } finally {
      await own.close();
    }
  });
});

describe.skipIf(engineName !== 'postgres')('PostgreSQL prepared statements', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** The pool has one connection here, so this reads the same session the statements ran on. */
  async function prepared(handle: DatabaseHandle): Promise<string[]> {
    const rows = await selectRows<{ name: string }>(
      handle.db,
      sql`select name from pg_prepared_statements where name like ${'s\\_%'}`,
    );
    return rows.map((row) => row.name);
  }

  it('parameterised statements are prepared once per connection; off when told', async () => {
    const url = database.url ?? '';
    for (const preparedStatements of [true, false]) {
      const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1, preparedStatements });
      try {
        for (let index = 0; index < 3; index += 1) {
          await handle.db.execute(sql`select ${index}::int as n`);
        }
        const names = await prepared(handle);
        if (preparedStatements) expect(names.length).toBeGreaterThanOrEqual(1);
        else expect(names).toEqual([]);
        // Statements without values keep the simple protocol: several at once still run.
        await handle.db.execute(sql.raw('select 1; select 2'));
        // A statement marked planned per call is sent unnamed: planned with its values each time.
        const kept = await prepared(handle);
        for (let index = 0; index < 3; index += 1) {
          await handle.db.execute(sql`select ${index}::int as n where ${plannedPerCall()}`);
        }
        expect(await prepared(handle)).toEqual(kept);
      } finally {
        await handle.close();
      }
    }
  });
});
