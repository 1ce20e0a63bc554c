import { describe, expect, it } from 'vitest';
import { resolveTenant } from './tenant';

describe('resolveTenant', () => {
  it('a two-letter first label is the unit, with its theme', () => {
    expect(resolveTenant('df.localhost', null)).toMatchObject({
      federativeUnit: 'DF',
      theme: 'valid-df-theme',
    });
    expect(resolveTenant('ce.exame.gov.br', 'default-theme')).toMatchObject({
      federativeUnit: 'CE',
      theme: 'valid-theme',
    });
    expect(resolveTenant('Sp.localhost', 'valid-theme')).toMatchObject({
      federativeUnit: 'SP',
      theme: 'default-theme',
    });
  });

  it('otherwise the stored theme, then the default theme', () => {
    expect(resolveTenant('localhost', 'valid-df-theme')).toMatchObject({
      federativeUnit: null,
      theme: 'valid-df-theme',
    });
    expect(resolveTenant('localhost', null)).toMatchObject({
      federativeUnit: null,
      theme: 'default-theme',
    });
    expect(resolveTenant('admin.exame.gov.br', 'tema-inexistente')).toMatchObject({
      federativeUnit: null,
      theme: 'default-theme',
    });
    expect(resolveTenant('127.0.0.1', null).theme).toBe('default-theme');
  });

  it('an unknown two-letter label is uppercased but falls back to the stored theme', () => {
    expect(resolveTenant('xx.localhost', 'valid-theme')).toMatchObject({
      federativeUnit: 'XX',
      theme: 'valid-theme',
    });
    expect(resolveTenant('xx.localhost', null)).toMatchObject({
      federativeUnit: 'XX',
      theme: 'default-theme',
    });
  });

  it('the first path segment of two letters is the unit too, and the app lives under it', () => {
    expect(resolveTenant({ hostname: 'exame.gov.br', pathname: '/df/home' }, null)).toEqual({
      federativeUnit: 'DF',
      theme: 'valid-df-theme',
      basename: '/df',
    });
    expect(resolveTenant({ hostname: 'localhost', pathname: '/Ce' }, null)).toEqual({
      federativeUnit: 'CE',
      theme: 'valid-theme',
      basename: '/Ce',
    });
    // The path is read before the host.
    expect(resolveTenant({ hostname: 'sp.exame.gov.br', pathname: '/df/login' }, null)).toEqual({
      federativeUnit: 'DF',
      theme: 'valid-df-theme',
      basename: '/df',
    });
    // Host form: no prefix.
    expect(resolveTenant({ hostname: 'df.exame.gov.br', pathname: '/home' }, null).basename).toBe(
      '',
    );
    // Longer or shorter first segments are routes, not units.
    for (const pathname of ['/home', '/exames/1', '/x', '/', '/d1/home']) {
      expect(resolveTenant({ hostname: 'localhost', pathname }, 'valid-theme')).toEqual({
        federativeUnit: null,
        theme: 'valid-theme',
        basename: '',
      });
    }
  });
});
