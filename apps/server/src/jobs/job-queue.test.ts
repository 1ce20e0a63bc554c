/**
 * The job queue's start when another instance is creating its schema at the
 * same moment: the catalog refuses the loser's CREATE (a unique violation,
 * SQLSTATE 23505) or picks it as a deadlock victim. The start is tried again
 * and the queue runs its jobs. The lost race is injected on a real database:
 * the first statement that creates the schema fails as PostgreSQL fails it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engineName, type TestDatabase } from '../../test/helper';
import { startJobQueue } from './job-queue';

function lostRace(code: '23505' | '40P01'): Error {
  const error = new Error(
    code === '23505'
      ? 'duplicate key value violates unique constraint "pg_namespace_nspname_index"'
      : 'deadlock detected',
  );
  return Object.assign(error, { code });
}

describe(`job queue start under a lost creation race (${engineName})`, () => {
  // A fresh database per case: the queue's schema is created only once.
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened) await database.drop();
  });

  it.each(['23505', '40P01'] as const)(
    'a start that loses with %s tries again and runs the jobs',
    async (code) => {
      const database = await createTestDatabase();
      opened.push(database);
      let injected = 0;
      const racing = {
        executeRaw: async (text: string, values?: unknown[]) => {
          if (injected === 0 && /CREATE SCHEMA IF NOT EXISTS/i.test(text)) {
            injected += 1;
            throw lostRace(code);
          }
          return database.executeRaw(text, values);
        },
      };
      let runs = 0;
      const queue = await startJobQueue(
        racing,
        [{ name: `prova-${code}`, atStart: true, run: async () => void (runs += 1) }],
        { log: { info: () => undefined, error: () => undefined }, pollingSeconds: 0.5 },
      );
      try {
        expect(injected).toBe(1);
        await expect.poll(() => runs, { timeout: 15_000 }).toBe(1);
      } finally {
        await queue.stop();
      }
    },
  );

  it('any other failure of the start is not hidden', async () => {
    const broken = {
      executeRaw: async () => {
        throw Object.assign(new Error('permission denied for database'), { code: '42501' });
      },
    };
    await expect(
      startJobQueue(broken, [], { log: { info: () => undefined, error: () => undefined } }),
    ).rejects.toThrow(/permission denied/);
  });
});
