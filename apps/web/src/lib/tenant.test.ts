import { describe, expect, it } from 'vitest';
import { resolveTenant } from './tenant';

describe('resolveTenant', () => {
  it('a two-letter first label is the unit, with its theme', () => {
    expect(resolveTenant('df.localhost', null)).toEqual({
      federativeUnit: 'DF',
      theme: 'valid-df-theme',
    });
    expect(resolveTenant('ce.exame.gov.br', 'default-theme')).toEqual({
      federativeUnit: 'CE',
      theme: 'valid-theme',
    });
    expect(resolveTenant('Sp.localhost', 'valid-theme')).toEqual({
      federativeUnit: 'SP',
      theme: 'default-theme',
    });
  });

  it('otherwise the stored theme, then the default theme', () => {
    expect(resolveTenant('localhost', 'valid-df-theme')).toEqual({
      federativeUnit: null,
      theme: 'valid-df-theme',
    });
    expect(resolveTenant('localhost', null)).toEqual({
      federativeUnit: null,
      theme: 'default-theme',
    });
    expect(resolveTenant('admin.exame.gov.br', 'tema-inexistente')).toEqual({
      federativeUnit: null,
      theme: 'default-theme',
    });
    expect(resolveTenant('127.0.0.1', null).theme).toBe('default-theme');
  });

  it('an unknown two-letter label is uppercased but falls back to the stored theme', () => {
    expect(resolveTenant('xx.localhost', 'valid-theme')).toEqual({
      federativeUnit: 'XX',
      theme: 'valid-theme',
    });
    expect(resolveTenant('xx.localhost', null)).toEqual({
      federativeUnit: 'XX',
      theme: 'default-theme',
    });
  });
});
