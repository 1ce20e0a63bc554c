/**
 * What NODE_ENV=production changes in the app itself (see the production
 * section of docs/operations.md): HSTS, and the Secure attribute of the device
 * cookie.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/helper';
import { seedUser, DEFAULT_PASSWORD } from '../test/identity';

describe('production mode', () => {
  it('sends HSTS and marks the device cookie Secure only in production', async () => {
    for (const nodeEnv of ['production', 'development'] as const) {
      const t = await buildTestApp({ config: { nodeEnv } });
      try {
        const health = await t.app.inject({ method: 'GET', url: '/health/live' });
        const user = await seedUser(t.app);
        const login = await t.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: { email: user.email, password: DEFAULT_PASSWORD },
        });
        if (nodeEnv === 'production') {
          expect(health.headers['strict-transport-security']).toBe(
            'max-age=31536000; includeSubDomains',
          );
          expect(String(login.headers['set-cookie'])).toMatch(/; Secure$/);
        } else {
          expect(health.headers['strict-transport-security']).toBeUndefined();
          expect(String(login.headers['set-cookie'])).not.toMatch(/Secure/);
        }
      } finally {
        await t.close();
      }
    }
  });

  it('the operations guide documents every setting, and what production requires', () => {
    const guide = path.resolve(import.meta.dirname, '../../../docs/operations.md');
    const operations = readFileSync(guide, 'utf8');
    const env = readFileSync(path.resolve(import.meta.dirname, 'config/env-schema.ts'), 'utf8');
    const variables = [...env.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(20);
    const table = operations.slice(
      operations.indexOf('## Configuração'),
      operations.indexOf('## Produção'),
    );
    expect(variables.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
    const production = operations.slice(operations.indexOf('## Produção'));
    const productionNames = ['TRUST_PROXY', 'FILE_ENCRYPTION_KEY', 'SMTP_URL', 'NODE_ENV', 'HSTS'];
    // What production no longer does unless asked, and the key of the backups.
    productionNames.push('SEED_DEMO', 'API_DOCS', 'BACKUP_KEY');
    for (const name of productionNames) {
      expect(production, name).toContain(name);
    }
  });
});
