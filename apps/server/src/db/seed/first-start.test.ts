import { isValidCpf } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';
import { cpfFromBase, describeFirstStart, seedFirstStart } from './first-start';

describe('first start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('creates the first ADMIN of DEMO and demo users of each role, once', async () => {
    const result = await seedFirstStart(
      t.database.db,
      {
        adminEmail: undefined,
        adminPassword: undefined,
        seedDemo: true,
        adminFederativeUnit: 'DEMO',
      },
      t.app.identity.hasher,
    );
    expect(result?.accounts.map((account) => `${account.unit} ${account.role}`).sort()).toEqual([
      'DEMO ADMIN',
      'DEMO ROOM_INSPECTOR',
      'DEMO VIEWER',
      'DEMO auditor',
      // The second auditor confirms a decision of the first (two-person rule, re-check).
      'DEMO auditor',
      'DF ADMIN',
      // The two DF examiners who try the check-in with face validation.
      'DF ROOM_INSPECTOR',
      'DF VIEWER',
    ]);
    expect(result?.password).toMatch(/^[A-Za-z2-9]{16}$/);
    // Each unit of the first start begins with the usual disqualification reasons.
    const reasons = await t.database.db.execute(
      sql`select federative_unit as unit, count(*)::int as n from disqualification_reasons
          where federative_unit in ('DEMO', 'DF') group by 1 order by 1`,
    );
    expect((reasons as unknown as { rows: unknown[] }).rows).toEqual([
      { unit: 'DEMO', n: 5 },
      { unit: 'DF', n: 5 },
    ]);
    expect(describeFirstStart(result!)).toContain(result!.password);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: 'admin@demo.exame.local', password: result?.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ federativeUnit: 'DEMO', roleDescription: 'ADMIN' });
    expect(
      await seedFirstStart(
        t.database.db,
        {
          adminEmail: undefined,
          adminPassword: undefined,
          seedDemo: true,
          adminFederativeUnit: 'DEMO',
        },
        t.app.identity.hasher,
      ),
    ).toBeNull();
  });

  it('takes the first ADMIN from ADMIN_EMAIL and ADMIN_PASSWORD without printing the password', async () => {
    const other = await buildTestApp();
    try {
      const result = await seedFirstStart(
        other.database.db,
        {
          adminEmail: 'chefe@detran.gov.br',
          adminPassword: 'Chefe#Forte2026',
          seedDemo: false,
          adminFederativeUnit: 'DF',
        },
        other.app.identity.hasher,
      );
      expect(result?.accounts).toEqual([
        { email: 'chefe@detran.gov.br', role: 'ADMIN', name: 'Administrador', unit: 'DF' },
      ]);
      expect(describeFirstStart(result!)).not.toContain('Chefe#Forte2026');
      // Outside demo mode nothing lands in DEMO: the first ADMIN is of the configured unit.
      const units = await other.database.db.execute(
        sql`select federative_unit, count(*)::int as n from users group by 1`,
      );
      expect((units as unknown as { rows: unknown[] }).rows).toEqual([
        { federative_unit: 'DF', n: 1 },
      ]);
    } finally {
      await other.close();
    }
  });

  it('outside demo mode an empty database needs ADMIN_FEDERATIVE_UNIT and creates nobody without it', async () => {
    const other = await buildTestApp();
    try {
      await expect(
        seedFirstStart(
          other.database.db,
          {
            adminEmail: 'chefe@detran.gov.br',
            adminPassword: undefined,
            seedDemo: false,
            adminFederativeUnit: undefined,
          },
          other.app.identity.hasher,
        ),
      ).rejects.toThrow(/ADMIN_FEDERATIVE_UNIT/);
      const users = await other.database.db.execute(sql`select count(*)::int as n from users`);
      expect((users as unknown as { rows: unknown[] }).rows).toEqual([{ n: 0 }]);
    } finally {
      await other.close();
    }
  });

  it('makes valid CPFs', () => {
    for (const base of ['100200300', '000000001', '999999998'])
      expect(isValidCpf(cpfFromBase(base))).toBe(true);
  });
});
