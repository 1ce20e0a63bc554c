import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestDatabase, testConfig, type TestApp } from '../../test/helper';
import { buildApp } from '../app';
import { findRoutesWithoutPolicy, isPluginRoute } from './route-policy';

describe('route access policies (deny by default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('every registered route declares a policy', () => {
    const own = t.app.registeredRoutes.filter((route) => !isPluginRoute(route.url));
    expect(own.length).toBeGreaterThan(3);
    expect(findRoutesWithoutPolicy(t.app.registeredRoutes)).toEqual([]);
  });

  it('the app refuses to start with a route that declares nothing', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      logger: false,
    });
    app.get('/api/esquecida', async () => ({ ok: true }));
    try {
      await expect(app.ready()).rejects.toThrow(/GET \/api\/esquecida/);
    } finally {
      await app.close().catch(() => undefined);
      await database.drop();
    }
  });
});
