import { errorBodySchema } from '@exame/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../../test/helper';
import { AppError } from '../lib/app-error';

describe('error responses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      beforeReady: (app) => {
        const routes = app.withTypeProvider<ZodTypeProvider>();
        routes.get('/api/test/unauthorized', { config: { access: 'public' } }, async () => {
          throw AppError.unauthorized();
        });
        routes.get('/api/test/forbidden', { config: { access: 'public' } }, async () => {
          throw AppError.forbidden();
        });
        routes.get('/api/test/crash', { config: { access: 'public' } }, async () => {
          throw new Error('senha do banco: hunter2 em 10.0.0.5');
        });
        routes.get(
          '/api/test/bad-response',
          {
            config: { access: 'public' },
            schema: { response: { 200: z.object({ id: z.number() }) } },
          },
          async () => ({ id: 'não é número' }) as unknown as { id: number },
        );
        routes.post(
          '/api/test/echo',
          {
            config: { access: 'public' },
            schema: {
              body: z.object({
                name: z.string().min(2),
                age: z.number().int(),
              }),
            },
          },
          async (request) => request.body,
        );
      },
    });
  });
  afterAll(() => t.close());

  async function expectErrorBody(response: {
    json: () => unknown;
    headers: Record<string, unknown>;
  }) {
    expect(String(response.headers['content-type'])).toContain('application/json');
    const body = errorBodySchema.strict().parse(response.json());
    expect(body.Error.length).toBeGreaterThan(0);
    expect(body.code).toMatch(/^[A-Z_]+$/);
    // The request's id names it in the server's log; the header says the same.
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.requestId).toBe(response.headers['x-request-id']);
    return body;
  }

  it('400: a body failing its schema lists each problem', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'a', age: 1.5, extra: true },
    });
    expect(response.statusCode).toBe(400);
    const body = await expectErrorBody(response);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.Error).toBe('Os dados enviados são inválidos.');
    expect(body.details?.map((detail) => detail.path).sort()).toEqual(['body.age', 'body.name']);
  });

  it('400: a query failing its schema', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/FederativeUnit?onlyActive=talvez',
    });
    expect(response.statusCode).toBe(400);
    expect((await expectErrorBody(response)).code).toBe('VALIDATION_ERROR');
  });

  it('400: malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    const body = await expectErrorBody(response);
    expect(body).toEqual({
      Error: 'O corpo da requisição não é um JSON válido.',
      code: 'INVALID_JSON',
      requestId: response.headers['x-request-id'],
    });
  });

  it('401 and 403 keep the shape', async () => {
    const unauthorized = await t.app.inject({
      method: 'GET',
      url: '/api/test/unauthorized',
    });
    expect(unauthorized.statusCode).toBe(401);
    expect((await expectErrorBody(unauthorized)).code).toBe('UNAUTHORIZED');
    const forbidden = await t.app.inject({
      method: 'GET',
      url: '/api/test/forbidden',
    });
    expect(forbidden.statusCode).toBe(403);
    expect((await expectErrorBody(forbidden)).code).toBe('FORBIDDEN');
  });

  it('404: an unknown API path, any method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: '/api/NaoExiste/123',
      });
      expect(response.statusCode).toBe(404);
      expect((await expectErrorBody(response)).code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('415: an unsupported content type', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/x-desconhecido' },
      payload: 'x',
    });
    expect(response.statusCode).toBe(415);
    expect((await expectErrorBody(response)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('500: never leaks the internal message', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/crash',
    });
    expect(response.statusCode).toBe(500);
    const body = await expectErrorBody(response);
    expect(body).toEqual({
      Error: 'Ocorreu um erro inesperado. Tente novamente em breve.',
      code: 'INTERNAL_ERROR',
      requestId: response.headers['x-request-id'],
    });
    expect(response.body).not.toContain('hunter2');
  });

  it('500: a response that breaks its own schema is not sent', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/test/bad-response',
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('não é número');
    expect((await expectErrorBody(response)).code).toBe('INTERNAL_ERROR');
  });
});
