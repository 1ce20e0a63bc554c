/**
 * The security headers computed once are exactly what helmet's middleware
 * sets on a real HTTP response with the same options, and every kind of
 * answer of the app carries them: a JSON route, a refused request, an
 * unknown address, the health route and the realtime stream.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { seedSignedIn } from '../../test/identity';
import { PERMISSIONS_POLICY, securityHeaders } from './security-headers';

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'] },
  },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/** The headers helmet's middleware puts on a real response of a bare Node server. */
async function helmetOnRealResponse(options: HelmetOptions): Promise<Record<string, string>> {
  const middleware = helmet(options);
  const server = http.createServer((request, response) => {
    middleware(request, response, () => response.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (
        !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)
      )
        headers[name] = value;
    });
    return headers;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('security headers', () => {
  it("are helmet's own headers for the same options, plus the Permissions-Policy", async () => {
    for (const options of [OPTIONS, { ...OPTIONS, strictTransportSecurity: true }]) {
      const computed = securityHeaders(options);
      const { 'permissions-policy': permissions, ...fromHelmet } = computed;
      expect(permissions).toBe(PERMISSIONS_POLICY);
      expect(fromHelmet).toEqual(await helmetOnRealResponse(options));
      expect(Object.keys(fromHelmet).length).toBeGreaterThan(8);
    }
    expect(securityHeaders(OPTIONS)['strict-transport-security']).toBeUndefined();
    expect(
      securityHeaders({ ...OPTIONS, strictTransportSecurity: true })['strict-transport-security'],
    ).toMatch(/^max-age=/);
  });

  describe('on every answer of the app', () => {
    let t: TestApp;
    let expected: string[];
    beforeAll(async () => {
      t = await buildTestApp();
      const health = await t.app.inject({ method: 'GET', url: '/health/live' });
      expected = [
        'content-security-policy',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'permissions-policy',
        'x-request-id',
      ];
      for (const name of expected) expect(health.headers[name], name).toBeDefined();
    });
    afterAll(() => t.close());

    it('a JSON route, a refused request, an unknown address and the realtime stream', async () => {
      const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
      const answers = [
        await t.app.inject({ method: 'GET', url: '/api/User', headers: admin.auth }),
        await t.app.inject({ method: 'GET', url: '/api/User' }),
        await t.app.inject({ method: 'GET', url: '/api/Nada' }),
        await t.app.inject({
          method: 'POST',
          url: '/api/Auth',
          payload: '{"email":',
          headers: { 'content-type': 'application/json' },
        }),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 400]);
      for (const answer of answers) {
        for (const name of expected) expect(answer.headers[name], `${name}`).toBeDefined();
        expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(answer.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      }

      // The realtime stream takes the socket over; it still sends them.
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const controller = new AbortController();
      const stream = await fetch(`http://127.0.0.1:${port}/api/Realtime/events`, {
        headers: admin.auth,
        signal: controller.signal,
      });
      try {
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toContain('text/event-stream');
        for (const name of expected) expect(stream.headers.get(name), name).not.toBeNull();
      } finally {
        controller.abort();
      }
    });
  });
});
