import { describe, expect, it } from 'vitest';
import { FEDERATIVE_UNITS, findFederativeUnit, themeOfUnit } from './federative-units';

describe('federative units (spec 1, 9)', () => {
  it('are the 27 Brazilian units plus DEMO, each once', () => {
    expect(FEDERATIVE_UNITS).toHaveLength(28);
    expect(new Set(FEDERATIVE_UNITS.map((unit) => unit.uf)).size).toBe(28);
    expect(FEDERATIVE_UNITS.every((unit) => unit.name.length > 2)).toBe(true);
  });

  it('active: SP, DEMO, CE, DF, MA, PB, PE; all others inactive', () => {
    expect(
      FEDERATIVE_UNITS.filter((unit) => unit.isActive)
        .map((unit) => unit.uf)
        .sort(),
    ).toEqual(['CE', 'DEMO', 'DF', 'MA', 'PB', 'PE', 'SP']);
  });

  it('proctoring is disabled only for CE', () => {
    expect(
      FEDERATIVE_UNITS.filter((unit) => !unit.isProctoringEnable).map((unit) => unit.uf),
    ).toEqual(['CE']);
  });

  it('themes: CE valid-theme, DF valid-df-theme, others default-theme', () => {
    for (const unit of FEDERATIVE_UNITS) {
      const expected =
        unit.uf === 'CE' ? 'valid-theme' : unit.uf === 'DF' ? 'valid-df-theme' : 'default-theme';
      expect(unit.theme, unit.uf).toBe(expected);
    }
  });

  it('finds a unit case-insensitively and falls back to the default theme', () => {
    expect(findFederativeUnit('df')?.name).toBe('Distrito Federal');
    expect(findFederativeUnit('ZZ')).toBeUndefined();
    expect(themeOfUnit(undefined)).toBe('default-theme');
    expect(themeOfUnit({ theme: null })).toBe('default-theme');
    expect(themeOfUnit({ theme: 'tema-desconhecido' })).toBe('default-theme');
    expect(themeOfUnit({ theme: 'valid-theme' })).toBe('valid-theme');
  });
});
