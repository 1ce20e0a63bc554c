/**
 * Request ids: every answer carries one in `x-request-id`, every error body
 * carries the same, and every log line of the request names it. An incoming
 * id is kept only from a trusted proxy, and only when it is a sane token.
 */
import { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testConfig, type TestApp } from '../../test/helper';
import { loggerOptions } from '../app';
import { DEFAULT_PASSWORD, seedUser } from '../../test/identity';
import { requestIdGenerator } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function incoming(remoteAddress: string, id?: string): IncomingMessage {
  return {
    headers: id === undefined ? {} : { 'x-request-id': id },
    socket: { remoteAddress },
  } as unknown as IncomingMessage;
}

describe('request id generator', () => {
  it('keeps a sane id from a trusted proxy (address, CIDR, IPv6, IPv4 written as IPv6)', () => {
    const generate = requestIdGenerator(['10.0.0.5', '192.168.10.0/24', 'fd00::/8']);
    expect(generate(incoming('10.0.0.5', 'lb-7f3a9c2e'))).toBe('lb-7f3a9c2e');
    expect(generate(incoming('192.168.10.77', 'abc.def:123_x'))).toBe('abc.def:123_x');
    expect(generate(incoming('::ffff:10.0.0.5', 'proxy-req-0001'))).toBe('proxy-req-0001');
    expect(generate(incoming('fd12::1', 'v6-proxy-id-1'))).toBe('v6-proxy-id-1');
  });

  it('makes a new id for a client, an insane id, or no id', () => {
    const generate = requestIdGenerator(['10.0.0.5']);
    for (const request of [
      incoming('203.0.113.9', 'escolhido-pelo-cliente'),
      incoming('10.0.0.5', 'curto'),
      incoming('10.0.0.5', 'com espaço e quebra\nde linha'),
      incoming('10.0.0.5', 'x'.repeat(129)),
      incoming('10.0.0.5', '{"json":1}'),
      incoming('10.0.0.5'),
    ]) {
      expect(generate(request)).toMatch(UUID);
    }
    // Without TRUST_PROXY no one is trusted, loopback included.
    expect(requestIdGenerator([])(incoming('127.0.0.1', 'lb-7f3a9c2e'))).toMatch(UUID);
  });

  it('never repeats itself', () => {
    const generate = requestIdGenerator([]);
    const ids = new Set(Array.from({ length: 500 }, () => generate(incoming('127.0.0.1'))));
    expect(ids.size).toBe(500);
  });
});

describe('request ids in answers and logs', () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    const logger = { ...(loggerOptions(testConfig({ logLevel: 'info' })) as object), stream };
    t = await buildTestApp({
      // The app's own logger settings (redaction, serializers), at info, into the test's stream.
      logger: logger as never,
      config: { trustProxy: ['127.0.0.1'] },
    });
  });
  afterAll(() => t.close());

  it('each answer has its own id; an error body and every log line of the request carry it', async () => {
    const user = await seedUser(t.app);
    const ok = await t.app.inject({ method: 'GET', url: '/health/live' });
    const failed = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: user.email, password: 'senha-errada-123' },
    });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/Auth',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    const ids = [ok, failed, signedIn].map((response) => String(response.headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);

    expect(failed.statusCode).toBe(401);
    expect(failed.json()).toEqual({
      Error: 'E-mail ou senha incorretos.',
      code: 'invalid-credentials',
      requestId: ids[1],
    });
    // A success body is the route's own: no id added to it.
    expect(signedIn.json()).not.toHaveProperty('requestId');

    const ofFailed = lines.filter((line) => line.requestId === ids[1]);
    // Fastify's "incoming request" and "request completed", and the app's "request rejected".
    expect(ofFailed.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request rejected', 'request completed']),
    );
    // Every line written while the request ran names it.
    const requestLines = lines.filter((line) => 'req' in line || 'res' in line);
    for (const line of requestLines) expect(line.requestId).toEqual(expect.any(String));
    expect(lines.some((line) => 'reqId' in line)).toBe(false);
  });

  it("a trusted proxy's id is kept end to end; a client's or an insane one is replaced", async () => {
    // app.inject comes from 127.0.0.1, named in TRUST_PROXY for this app.
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/NaoExiste',
      headers: { 'x-request-id': 'balanceador-0042' },
    });
    expect(kept.headers['x-request-id']).toBe('balanceador-0042');
    expect(kept.json().requestId).toBe('balanceador-0042');
    expect(lines.filter((line) => line.requestId === 'balanceador-0042').length).toBeGreaterThan(1);

    const insane = await t.app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'id com espaços' },
    });
    expect(insane.headers['x-request-id']).toMatch(UUID);

    const client = await t.app.inject({
      method: 'GET',
      url: '/health/live',
      remoteAddress: '203.0.113.50',
      headers: { 'x-request-id': 'escolhido-pelo-cliente' },
    });
    expect(client.headers['x-request-id']).toMatch(UUID);
  });
});
