/**
 * The sign-in counters under many sign-ins of one account from one address
 * at once, on a pool as wide as production's: reservations (counters created
 * and locked) and releases (the account's counter deleted, the address's
 * given back) cross, PostgreSQL picks deadlock victims, and the victim runs
 * again instead of failing the sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { ensureReferenceData } from '../../db/seed/reference-data';
import {
  buildTestApp,
  createTestDatabase,
  engineName,
  type TestApp,
  type TestDatabase,
} from '../../../test/helper';
import { DEFAULT_PASSWORD, seedUser } from '../../../test/identity';
import { createPasswordHasher } from '../../lib/password-hash';
import { accountKey, ipKey, releaseAttempt, reserveAttempt } from './login-throttle';

const SETTINGS = { failureFactor: 3, ipFailureFactor: 50, waitIncrementMs: 1, maxWaitMs: 1 };

describe('sign-in counters, concurrent', () => {
  let database: TestDatabase;
  let wide: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    wide = database.url
      ? await openDatabase({ kind: 'postgres', url: database.url, poolSize: 12 })
      : database;
  });
  afterAll(async () => {
    if (wide !== database) await wide.close();
    await database.drop();
  });

  it(`reserve and release of one account and address, 240 at once, never fail (${engineName})`, async () => {
    const keys = [
      { key: accountKey('muitos@teste.gov.br'), factor: SETTINGS.failureFactor },
      { key: ipKey('10.9.0.1'), factor: SETTINGS.ipFailureFactor },
    ];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 240 }, async () => {
        const reservation = await reserveAttempt(wide.db, keys, SETTINGS, new Date());
        if (!reservation.admitted) return 'blocked';
        await releaseAttempt(wide.db, reservation.keys);
        return 'released';
      }),
    );
    const failures = outcomes
      .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
      .map((outcome) => String((outcome.reason as Error).cause ?? outcome.reason));
    expect(failures).toEqual([]);
  });

  it('sign-ins of one account from one address, 10 at a time for 4 s: 200 or 429, never 5xx', async () => {
    await ensureReferenceData(wide.db);
    // The production hasher: its time is what lets releases and reservations cross.
    const t: TestApp = await buildTestApp({
      database: { ...database, ...wide } as TestDatabase,
      hasher: createPasswordHasher({ memoryCost: 19_456, timeCost: 2 }),
    });
    try {
      const user = await seedUser(t.app);
      const statuses = new Map<number, number>();
      const until = Date.now() + 4_000;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (Date.now() < until) {
            const response = await t.app.inject({
              method: 'POST',
              url: '/api/Auth',
              payload: { email: user.email, password: DEFAULT_PASSWORD },
              remoteAddress: '10.9.0.2',
            });
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          }
        }),
      );
      expect([...statuses.keys()].filter((status) => status !== 200 && status !== 429)).toEqual([]);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    } finally {
      await t.app.close();
    }
  });
});
