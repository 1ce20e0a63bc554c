/**
 * Request limits live in the database: every instance counts into the same
 * windows. Face verification and enrolment are limited per user and per CPF,
 * so nobody can climb a score step by step.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { nextCpf, seedSignedIn } from '../../test/identity';
import { selectRows } from './select-rows';
import { RATE_LIMITS } from './rate-limit';

describe('rate limits', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await buildTestApp();
    // A second instance behind the same load balancer: same database, its own memory.
    b = await buildTestApp({ database: a.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  // A CPF without an enrolment is refused before any challenge or picture: a cheap call that still counts.
  const verify = (app: TestApp, auth: { authorization: string }, cpf: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/BiopassID/Verify',
      headers: auth,
      payload: { cpf, image: 'A'.repeat(64), uf: 'DF' },
    });

  it('Verify: per user and CPF across instances, then per user', async () => {
    const examiner = await seedSignedIn(a.app, { role: 'VIEWER', unit: 'DF' });
    const target = nextCpf();
    const perCpf = RATE_LIMITS.verifyPerCpf.limit;
    for (let index = 0; index < perCpf; index += 1) {
      // Alternating instances: a limit kept in each process's memory would allow twice as many.
      const response = await verify(index % 2 ? b : a, examiner.auth, target);
      expect(response.statusCode).toBe(404);
    }
    const limited = await verify(b, examiner.auth, target);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The count is this user's for this CPF: another user is not locked out of it.
    const other = await seedSignedIn(a.app, { role: 'VIEWER', unit: 'DF' });
    expect((await verify(b, other.auth, target)).statusCode).toBe(404);

    // Other CPFs go on until the per-user limit.
    let status = 0;
    let calls = perCpf + 1;
    while (calls < RATE_LIMITS.verifyPerUser.limit) {
      status = (await verify(a, examiner.auth, nextCpf())).statusCode;
      expect(status).toBe(404);
      calls += 1;
    }
    expect((await verify(a, examiner.auth, nextCpf())).statusCode).toBe(429);
    // Another examiner is not held back by this one.
    const colleague = await seedSignedIn(a.app, { role: 'VIEWER', unit: 'DF' });
    expect((await verify(a, colleague.auth, nextCpf())).statusCode).toBe(404);
  });

  it('Verify: junk of one user never locks out another; all users together meet a ceiling (FACE_VERIFY_CPF_LIMIT)', async () => {
    // A ceiling of 20: twice what one user may try per CPF.
    const c = await buildTestApp({ database: a.database, config: { faceVerifyCpfLimit: 20 } });
    try {
      const colleague = nextCpf();
      const attacker = await seedSignedIn(c.app, { role: 'VIEWER', unit: 'DF' });
      const perCpf = RATE_LIMITS.verifyPerCpf.limit;
      for (let index = 0; index <= perCpf; index += 1) {
        const junk = await verify(c, attacker.auth, colleague);
        expect(junk.statusCode).toBe(index < perCpf ? 404 : 429);
      }
      // The colleague (or whoever checks them in) is not held back by the attacker's junk.
      const victim = await seedSignedIn(c.app, { role: 'VIEWER', unit: 'DF' });
      for (let index = 0; index < perCpf; index += 1) {
        expect((await verify(c, victim.auth, colleague)).statusCode).toBe(404);
      }
      // Twenty tries of that CPF by everyone together: the next user meets the ceiling.
      const third = await seedSignedIn(c.app, { role: 'VIEWER', unit: 'DF' });
      const ceiling = await verify(c, third.auth, colleague);
      expect(ceiling.statusCode).toBe(429);
      expect(ceiling.json().code).toBe('RATE_LIMITED');
      // Another CPF is untouched.
      expect((await verify(c, third.auth, nextCpf())).statusCode).toBe(404);
    } finally {
      await c.close();
    }
  });

  it('Create: per CPF, before any picture is read', async () => {
    const admin = await seedSignedIn(a.app, { role: 'ADMIN', unit: 'DF' });
    const cpf = nextCpf();
    const enrol = () =>
      b.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Create',
        headers: admin.auth,
        payload: { cpf, image: 'A'.repeat(64) },
      });
    for (let index = 0; index < RATE_LIMITS.enrolPerCpf.limit; index += 1) {
      expect((await enrol()).statusCode).toBe(404);
    }
    expect((await enrol()).statusCode).toBe(429);
  });

  it('keeps no CPF, e-mail or address in its keys', async () => {
    const rows = await selectRows<{ key: string }>(a.database.db, sql`select key from rate_limits`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).toMatch(/^[a-z-]+:[A-Za-z0-9_-]{32}$/);
  });
});
