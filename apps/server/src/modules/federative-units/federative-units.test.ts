import { FEDERATIVE_UNITS, federativeUnitSchema } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../../test/helper';

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
