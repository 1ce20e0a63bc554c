/**
 * The `enrolled` flag of a demonstration candidate, on both database tiers:
 * true only when a face enrolment of the candidate's own unit (DEMO) and own
 * CPF exists; an enrolment of another person, or of the same CPF in another
 * unit, leaves it false, in the list and in the single read.
 */
import type { DemoCandidate } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { nextCpf, seedSignedIn } from '../../../test/identity';
import { upsertTemplate } from '../face-enrolment/face-enrolment.repository';

describe('demonstration candidates: the enrolled flag', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedSignedIn>>;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DEMO' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const enrol = (unit: string, cpf: string) =>
    upsertTemplate(
      t.database.db,
      {
        federativeUnit: unit,
        cpf,
        templateSealed: 'selado',
        descriptorVersion: 'teste',
        imageKeys: [],
        enrolledBy: admin.user.id,
      },
      new Date(),
    );
  const register = async (cpf: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Demo/candidates',
      headers: admin.auth,
      payload: { name: 'Pessoa Candidata', cpf, birthDate: '1990-01-01' },
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const enrolledOf = async (cpf: string) => {
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/Demo/candidates/${cpf}`,
      headers: admin.auth,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/Demo/candidates',
      headers: admin.auth,
    });
    const listed = (list.json() as DemoCandidate[]).find((item) => item.cpf === cpf);
    return { one: (one.json() as DemoCandidate).enrolled, listed: listed?.enrolled };
  };

  it('is true only for an enrolment of the same unit and the same CPF', async () => {
    const candidate = nextCpf();
    const other = nextCpf();
    await register(candidate);
    await register(other);

    // Someone else enrolled in DF, and the candidate's own CPF enrolled in DF (not DEMO).
    await enrol('DF', nextCpf());
    await enrol('DF', candidate);
    expect(await enrolledOf(candidate)).toEqual({ one: false, listed: false });
    expect(await enrolledOf(other)).toEqual({ one: false, listed: false });

    // The candidate enrolled in DEMO: true for them, still false for the other candidate.
    await enrol('DEMO', candidate);
    expect(await enrolledOf(candidate)).toEqual({ one: true, listed: true });
    expect(await enrolledOf(other)).toEqual({ one: false, listed: false });
  });
});
