import { FEDERATIVE_UNITS, federativeUnitSchema, ROLES } from '@exame/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { selectRows } from '../../db/select-rows';
import { buildTestApp, engineName, type TestApp } from '../../../test/helper';
import { seedSignedIn } from '../../../test/identity';

describe('GET /api/FederativeUnit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('is public and lists the 27 units plus DEMO with the spec constants', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/FederativeUnit',
    });
    expect(response.statusCode).toBe(200);
    const units = z.array(federativeUnitSchema).parse(response.json());
    expect(units).toHaveLength(28);
    const byUf = new Map(units.map((unit) => [unit.uf, unit]));
    expect([...byUf.keys()].sort()).toEqual(FEDERATIVE_UNITS.map((unit) => unit.uf).sort());
    expect(
      units
        .filter((unit) => unit.isActive)
        .map((unit) => unit.uf)
        .sort(),
    ).toEqual(['CE', 'DEMO', 'DF', 'MA', 'PB', 'PE', 'SP']);
    expect(units.filter((unit) => !unit.isProctoringEnable).map((unit) => unit.uf)).toEqual(['CE']);
    expect(byUf.get('CE')?.theme).toBe('valid-theme');
    expect(byUf.get('DF')?.theme).toBe('valid-df-theme');
    expect(byUf.get('SP')?.theme).toBe('default-theme');
    expect(byUf.get('DF')?.name).toBe('Distrito Federal');
  });

  it('filters the active units', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/FederativeUnit?onlyActive=true',
    });
    const units = z.array(federativeUnitSchema).parse(response.json());
    expect(units.map((unit) => unit.uf).sort()).toEqual([
      'CE',
      'DEMO',
      'DF',
      'MA',
      'PB',
      'PE',
      'SP',
    ]);
  });
});

describe(`api/FederativeUnit/settings on ${engineName}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const settings = (method: 'GET' | 'PUT', auth: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: '/api/FederativeUnit/settings', headers: auth, payload });
  const faceAlone = async (uf: string) =>
    (
      await selectRows<{ face_alone_allowed: boolean }>(
        t.database.db,
        sql`select face_alone_allowed from federative_units where uf = ${uf}`,
      )
    )[0]?.face_alone_allowed;

  it('the ADMIN reads and changes their own unit only (a unit in the body is ignored), with the change in the activity log; every other role gets 403', async () => {
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const spAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'SP' });
    const read = await settings('GET', admin.auth);
    expect(read.statusCode).toBe(200);
    // Off by default.
    expect(read.json()).toEqual({ federativeUnit: 'DF', faceAloneAllowed: false });

    const changed = await settings('PUT', admin.auth, {
      faceAloneAllowed: true,
      federativeUnit: 'SP',
      uf: 'SP',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ federativeUnit: 'DF', faceAloneAllowed: true });
    expect(await faceAlone('DF')).toBe(true);
    expect(await faceAlone('SP')).toBe(false);
    expect((await settings('GET', spAdmin.auth)).json()).toEqual({
      federativeUnit: 'SP',
      faceAloneAllowed: false,
    });
    const events = await selectRows<{
      actor_id: string;
      federative_unit: string;
      payload: Record<string, unknown>;
    }>(
      t.database.db,
      sql`select actor_id, federative_unit, payload from activity_log where type = 'unit_settings_change'`,
    );
    expect(events).toEqual([
      {
        actor_id: admin.user.id,
        federative_unit: 'DF',
        payload: { setting: 'faceAloneAllowed', from: false, to: true },
      },
    ]);
    // The same value again changes nothing and records nothing.
    expect((await settings('PUT', admin.auth, { faceAloneAllowed: true })).statusCode).toBe(200);
    // The check-in configuration tells the unit's examiners.
    const viewer = await seedSignedIn(t.app, { role: 'VIEWER', unit: 'DF' });
    const config = await t.app.inject({
      method: 'GET',
      url: '/api/SchedulingLocalCheckIn/getConfig?federativeUnit=DF',
      headers: viewer.auth,
    });
    expect(config.json()).toMatchObject({ faceAloneAllowed: true });
    // Back off.
    const off = await settings('PUT', admin.auth, { faceAloneAllowed: false });
    expect(off.json().faceAloneAllowed).toBe(false);
    const after = await selectRows<{ payload: Record<string, unknown> }>(
      t.database.db,
      sql`select payload from activity_log where type = 'unit_settings_change' order by created_at`,
    );
    expect(after.map((event) => event.payload.to)).toEqual([true, false]);

    for (const role of ROLES.filter((item) => item !== 'ADMIN')) {
      const other = await seedSignedIn(t.app, { role, unit: 'DF' });
      expect((await settings('GET', other.auth)).statusCode, role).toBe(403);
      const refused = await settings('PUT', other.auth, { faceAloneAllowed: true });
      expect(refused.statusCode, role).toBe(403);
    }
    expect(await faceAlone('DF')).toBe(false);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/FederativeUnit/settings' })).statusCode,
    ).toBe(401);
    const invalid = await settings('PUT', admin.auth, { faceAloneAllowed: 'sim' });
    expect(invalid.statusCode).toBe(400);
  });
});
