import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

describe('loadConfig', () => {
  it('has working defaults: embedded database and demo seed', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.librasWidgetUrl).toBeUndefined();
  });

  it('a PostgreSQL address turns the demo seed off unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SEED_DEMO: 'true' }).seedDemo).toBe(
      true,
    );
  });

  it('an empty optional address counts as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', LIBRAS_WIDGET_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('fails fast naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'não é endereço' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'verbose' });
    } catch (error) {
      expect((error as Error).message).toMatch(/Configuração inválida/);
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/LOG_LEVEL/);
    }
  });

  it('splits the trusted proxies', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
    ]);
  });
});
