/**
 * The route policy enumeration and the authorization matrix of the security
 * guide: every registered route against each role, a disabled user and an
 * anonymous caller.
 */
import { DEMO_UNIT, ROLES, type Role } from '@exame/shared';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';
import { findRoutesWithoutPolicy, isPluginRoute } from '../lib/route-policy';

const PLACEHOLDERS: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  cpf: '52998224725',
  value: 'ninguem@teste.gov.br',
};

function concretePath(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => PLACEHOLDERS[name] ?? 'x');
}

/**
 * The unit whose users call the route: the demonstration flows exist in the
 * DEMO unit only (another unit's ADMIN gets 403 DEMO_UNIT_ONLY, tested in
 * demo.test.ts); every other route, in DF.
 */
function unitOf(url: string): string {
  return url.startsWith('/api/Demo/') ? DEMO_UNIT : 'DF';
}

describe('authorization matrix', () => {
  let t: TestApp;
  const tokens = new Map<Role | 'disabled', string>();
  const demoTokens = new Map<Role, string>();

  beforeAll(async () => {
    t = await buildTestApp();
    for (const role of ROLES) {
      tokens.set(role, (await seedSignedIn(t.app, { role, unit: 'DF' })).token);
      demoTokens.set(role, (await seedSignedIn(t.app, { role, unit: DEMO_UNIT })).token);
    }
    const disabled = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    await t.database.db.execute(
      sql`update users set register_status = 'disabled' where id = ${disabled.user.id}`,
    );
    tokens.set('disabled', disabled.token);
  });
  afterAll(() => t.close());

  it('every route declares a policy (deny by default)', () => {
    expect(findRoutesWithoutPolicy(t.app.registeredRoutes)).toEqual([]);
  });

  it('every signed-in role may ask for a face challenge; anonymous and disabled callers get 401', async () => {
    const route = t.app.registeredRoutes.find(
      (registered) => registered.method === 'POST' && registered.url === '/api/BiopassID/Challenge',
    );
    expect(route?.access).toEqual(ROLES);
    const ask = (authorization?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/BiopassID/Challenge',
        headers: authorization ? { authorization: `Bearer ${authorization}` } : {},
        payload: { purpose: 'verification', cpf: PLACEHOLDERS.cpf },
      });
    expect((await ask()).statusCode).toBe(401);
    expect((await ask(tokens.get('disabled'))).statusCode).toBe(401);
    // Each flow that captures a face starts here; the flow itself checks the role.
    for (const role of ROLES) {
      const response = await ask(tokens.get(role));
      expect(response.statusCode, `${role}: ${response.body}`).toBe(201);
    }
  });

  it('each role gets exactly what the route declares; anonymous and disabled callers get 401', async () => {
    const routes = t.app.registeredRoutes
      .filter(
        (route) =>
          !isPluginRoute(route.url) && route.method !== 'HEAD' && route.access !== 'public',
      )
      // Logout ends the session the other calls use: run it last.
      .sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    expect(routes.length).toBeGreaterThan(8);
    const failures: string[] = [];
    for (const route of routes) {
      const access = route.access as readonly Role[];
      const request = (authorization?: string): InjectOptions => ({
        method: route.method as InjectOptions['method'],
        url: concretePath(route.url),
        headers: authorization ? { authorization: `Bearer ${authorization}` } : {},
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const anonymous = await t.app.inject(request());
      if (anonymous.statusCode !== 401)
        failures.push(`${route.method} ${route.url} anônimo -> ${anonymous.statusCode}`);
      const disabled = await t.app.inject(request(tokens.get('disabled')));
      if (disabled.statusCode !== 401)
        failures.push(`${route.method} ${route.url} desabilitado -> ${disabled.statusCode}`);
      if (
        route.access === 'integration' ||
        route.access === 'operator' ||
        route.access === 'metrics'
      ) {
        // Machine, operator and metrics routes: a user's token is never enough, whatever the role.
        for (const role of ROLES) {
          const response = await t.app.inject(request(tokens.get(role)));
          if (response.statusCode !== 401)
            failures.push(`${route.method} ${route.url} ${role} -> ${response.statusCode}`);
        }
        continue;
      }
      const unitTokens = unitOf(route.url) === DEMO_UNIT ? demoTokens : tokens;
      for (const role of ROLES) {
        const response = await t.app.inject(request(unitTokens.get(role)));
        const allowed = access.includes(role);
        const denied = response.statusCode === 401 || response.statusCode === 403;
        if (allowed === denied)
          failures.push(`${route.method} ${route.url} ${role} -> ${response.statusCode}`);
        if (!allowed && response.statusCode !== 403)
          failures.push(`${route.method} ${route.url} ${role} esperava 403`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the admin-only routes (users, the unit settings) refuse every other role', () => {
    const adminOnly = t.app.registeredRoutes
      .filter(
        (route) =>
          route.method !== 'HEAD' && Array.isArray(route.access) && route.access.length === 1,
      )
      .map((route) => `${route.method} ${route.url}`);
    expect(adminOnly).toEqual(
      expect.arrayContaining([
        'GET /api/User',
        'GET /api/User/:id',
        'PUT /api/User/:id/enableDisable',
        'PUT /api/User/:id/role',
        'POST /api/User/admin',
        'POST /api/User',
        'GET /api/FederativeUnit/settings',
        'PUT /api/FederativeUnit/settings',
      ]),
    );
  });
});
