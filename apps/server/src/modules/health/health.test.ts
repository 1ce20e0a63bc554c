import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('live answers without touching the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('ready checks the database', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/health/ready',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('ready answers 503 while shutting down', async () => {
    t.app.lifecycle.shuttingDown = true;
    try {
      const response = await t.app.inject({
        method: 'GET',
        url: '/health/ready',
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      t.app.lifecycle.shuttingDown = false;
    }
  });

  it('ready answers 503 when the database is gone', async () => {
    const broken = await buildTestApp();
    await broken.database.close();
    try {
      const response = await broken.app.inject({
        method: 'GET',
        url: '/health/ready',
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      expect(response.headers['retry-after']).toBe('5');
    } finally {
      await broken.app.close();
      await broken.database.drop().catch(() => undefined);
    }
  });
});
