/**
 * Fuzzing of every route (security guide, test 7): random paths parameters,
 * queries and JSON bodies, anonymous and as an ADMIN. Nothing may answer 5xx,
 * and every 4xx carries `Error` and `code`.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPluginRoute } from '../src/lib/route-policy';
import { buildTestApp, type TestApp } from './helper';
import { seedSignedIn } from './identity';

describe('route fuzzing', () => {
  let t: TestApp;
  let adminAuth: string;
  beforeAll(async () => {
    t = await buildTestApp({
      config: {
        loginThrottle: {
          failureFactor: 10_000,
          ipFailureFactor: 10_000,
          waitIncrementMs: 1000,
          maxWaitMs: 1000,
        },
      },
    });
    adminAuth = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth.authorization;
  });
  afterAll(() => t.close());

  it('no route answers 5xx or an error without Error and code', async () => {
    const routes = t.app.registeredRoutes.filter(
      (route) =>
        !isPluginRoute(route.url) && route.method !== 'HEAD' && !route.url.endsWith('/logout'),
    );
    const segment = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '00000000-0000-4000-8000-000000000000',
        '529.982.247-25',
        '__proto__',
        '../../etc/passwd',
        '%00',
        'constructor',
      ),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          email: fc.string(),
          password: fc.string(),
          cpf: fc.string(),
          name: fc.string(),
          role: fc.string(),
          registerStatus: fc.string(),
          token: fc.string(),
          __proto__: fc.jsonValue({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      ),
    );
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        segment,
        fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        body,
        fc.boolean(),
        async (route, param, query, payload, asAdmin) => {
          const url = route.url.replace(/:([A-Za-z]+)/g, () => encodeURIComponent(param) || 'x');
          const options: InjectOptions = {
            method: route.method as InjectOptions['method'],
            url,
            query,
            headers: asAdmin ? { authorization: adminAuth } : {},
            remoteAddress: `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          };
          if (route.method !== 'GET' && route.method !== 'DELETE')
            options.payload = payload as object;
          const response = await t.app.inject(options);
          if (response.statusCode >= 500)
            failures.push(`${route.method} ${url} -> ${response.statusCode} ${response.body}`);
          if (response.statusCode >= 400) {
            const parsed = (() => {
              try {
                return JSON.parse(response.body) as { Error?: unknown; code?: unknown };
              } catch {
                return {};
              }
            })();
            if (typeof parsed.Error !== 'string' || typeof parsed.code !== 'string') {
              failures.push(
                `${route.method} ${url} -> ${response.statusCode} sem Error/code: ${response.body}`,
              );
            }
          }
        },
      ),
      { numRuns: 400, seed: 20261121 },
    );
    expect(failures).toEqual([]);
  });
});
