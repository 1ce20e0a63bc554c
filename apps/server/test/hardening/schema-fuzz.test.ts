/**
 * Fuzzing of every route from its own schema (security guide, test 7). The
 * route table is the app's OpenAPI document, which is generated from the
 * same zod schemas that validate the requests; for each route the test
 * derives fast-check arbitraries for its path parameters, query and JSON
 * body, sends FUZZ_RUNS requests (fixed seed) as a signed-in ADMIN of the
 * route's unit, then a fixed list of hostile variants (wrong types, 1 MB
 * strings, unknown and prototype keys, NUL bytes, invalid UTF-8, truncated,
 * oversized and mistyped bodies, very long addresses), some of them
 * anonymous. Every answer must be < 500 (503 SERVER_BUSY aside), every 4xx
 * a JSON body with `Error` and `code`, and a rejected request must leave the
 * row count of every table and the file-storage folder as they were.
 *
 * More runs: FUZZ_RUNS=200 npx vitest run --project server test/hardening/schema-fuzz.test.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_UNIT } from '@exame/shared';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPluginRoute, type AccessPolicy } from '../../src/lib/route-policy';
import { createApiKeyFor, examPayload, postExams } from '../exams';
import { buildTestApp, type TestApp } from '../helper';
import { nextCpf, seedSignedIn, seedUser } from '../identity';
import { answerProblem, snapshotDiff, snapshotter, type Snapshot } from './state';

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 10) || 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
/** Generated strings stay short; the hostile variants send the long ones. */
const MAX_GENERATED_LENGTH = 48;
const MEGABYTE_STRING = 'a'.repeat(1_000_000);

/**
 * Routes left out of the generated runs: the event stream never ends while
 * its request is valid, and logout would end the session the others use
 * (both still get the hostile variants that cannot pass validation).
 */
const NOT_GENERATED = new Set(['GET /api/Realtime/events', 'POST /api/Auth/logout']);

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

type Operation = {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};

type Route = {
  method: string;
  /** Fastify form, `/api/User/:id`. */
  url: string;
  access: AccessPolicy | undefined;
  params: Record<string, JsonSchema>;
  query: Record<string, JsonSchema>;
  requiredQuery: string[];
  body?: { contentType: string; schema: JsonSchema };
};

/** Texts that have broken parsers, databases and CSV readers elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFFx',
  '\u202Egnp.exe',
  '💥'.repeat(20),
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '../../../../etc/passwd',
  '%00%ff',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  '9'.repeat(40),
];

function stringArbitrary(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 64, MAX_GENERATED_LENGTH));
  const nasty = fc.constantFrom(...NASTY_STRINGS);
  let valid: fc.Arbitrary<string>;
  if (schema.format === 'uuid') valid = fc.uuid({ version: 4 });
  else if (schema.format === 'date-time')
    valid = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString());
  else if (schema.format === 'date')
    valid = fc
      .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  else if (schema.format === 'email' || /email/i.test(name)) valid = fc.emailAddress();
  else if (/cpf/i.test(name)) valid = fc.constant(null).map(() => nextCpf());
  else if (schema.pattern) {
    try {
      valid = fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? 1e9));
    } catch {
      valid = fc.string({ minLength, maxLength });
    }
  } else valid = fc.string({ minLength, maxLength, unit: 'binary' });
  return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: nasty, weight: 1 });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1e6) + (integer ? 1 : 0);
  const max = schema.maximum ?? (schema.exclusiveMaximum ?? 1e6) - (integer ? 1 : 0);
  const valid = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(
    { arbitrary: valid, weight: 4 },
    { arbitrary: fc.constantFrom(min, max, 0, -1, 2 ** 31, 1.5), weight: 1 },
  );
}

/** An arbitrary of the values the schema accepts, with edge values mixed in. */
export function arbitraryFor(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryFor(s, name)));
  if (schema.allOf?.length) return arbitraryFor(Object.assign({}, ...schema.allOf), name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema, name);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      return fc.array(arbitraryFor(schema.items ?? {}, name), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, arbitraryFor(value, key)]),
      );
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another JSON type than the schema asks for. */
function wrongTypeFor(schema: JsonSchema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const all: Record<string, unknown> = {
    string: 'texto',
    number: 12.5,
    boolean: true,
    object: { a: 1 },
    array: [1, 'x'],
    null: null,
  };
  const own = type === 'integer' ? 'number' : (type ?? (schema.enum ? 'string' : 'any'));
  // A scalar of another type, a structure and null cover what the validators branch on.
  const scalar = own === 'string' ? all.number : all.string;
  const structure = own === 'object' ? all.array : all.object;
  return own === 'null' ? [scalar, structure] : [scalar, structure, null];
}

function routesOf(t: TestApp): Route[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const access = new Map(
    t.app.registeredRoutes.map((route) => [`${route.method} ${route.url}`, route.access]),
  );
  const routes: Route[] = [];
  for (const [openApiPath, operations] of Object.entries(doc.paths)) {
    const url = openApiPath.replace(/\{([^}]+)\}/g, ':$1');
    if (isPluginRoute(url)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (upper === 'HEAD') continue;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const [contentType, media] = Object.entries(content)[0] ?? [];
      routes.push({
        method: upper,
        url,
        access: access.get(`${upper} ${url}`),
        params: Object.fromEntries(
          parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema]),
        ),
        query: Object.fromEntries(
          parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
        ),
        requiredQuery: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        body:
          contentType && media
            ? {
                // The CSV import is declared as a string body: it travels as text/csv.
                contentType:
                  media.schema.type === 'string' ? 'text/csv; charset=utf-8' : contentType,
                schema: media.schema,
              }
            : undefined,
      });
    }
  }
  return routes;
}

function fillPath(url: string, params: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    const text = value === undefined || value === null ? 'x' : String(value);
    return encodeURIComponent(text) || 'x';
  });
}

function queryText(query: Record<string, unknown>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [
        key,
        Array.isArray(value) ? value.map((v) => String(v)) : String(value),
      ]),
  );
}

describe('route fuzzing from the schemas', () => {
  let t: TestApp;
  let dataDir = '';
  let filesRoot: string;
  let snapshot: () => Promise<Snapshot>;
  const headersByUnit = new Map<string, Record<string, string>>();
  let apiKey = '';
  /** Ids that exist, so that generated requests also reach the services, not only 404s. */
  const knownIds: Record<string, string[]> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-fuzz-'));
    filesRoot = path.join(dataDir, 'files');
    t = await buildTestApp({
      // The link worker would empty its queue while a later request is being compared.
      linkRequests: 'manual',
      config: {
        dataDir,
        fileStorage: { kind: 'disk', root: filesRoot },
        loginThrottle: {
          failureFactor: 100_000,
          ipFailureFactor: 100_000,
          waitIncrementMs: 1000,
          maxWaitMs: 1000,
        },
      },
      rateLimits: {
        verifyPerUser: { limit: 100_000 },
        verifyPerCpf: { limit: 100_000 },
        enrolPerUser: { limit: 100_000 },
        enrolPerCpf: { limit: 100_000 },
        certificatePerIp: { limit: 100_000 },
        linkPerIp: { limit: 100_000 },
        linkPerValue: { limit: 100_000 },
        passwordPerIp: { limit: 100_000 },
        passwordPerCpf: { limit: 100_000 },
      },
    });
    const admin = await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' });
    const demoAdmin = await seedSignedIn(t.app, { role: 'ADMIN', unit: DEMO_UNIT });
    headersByUnit.set('DF', admin.auth);
    headersByUnit.set(DEMO_UNIT, demoAdmin.auth);
    apiKey = (await createApiKeyFor(t.app, admin.auth)).key;
    const local = await t.app.inject({
      method: 'POST',
      url: '/api/SchedulingLocal',
      headers: admin.auth,
      payload: { identifier: 'DF.POSTO01-S1', description: 'Posto central' },
    });
    const exam = examPayload();
    await postExams(t.app, apiKey, [exam]);
    // Another user's id, not the caller's: a generated request may disable or demote it.
    const target = await seedUser(t.app, { role: 'VIEWER', unit: 'DF' });
    knownIds.id = [target.id, (local.json() as { id: string }).id];
    knownIds.schedulingId = [exam.schedulingId];
    knownIds.examId = [exam.schedulingId];
    knownIds.cpf = [admin.user.cpf];
    snapshot = await snapshotter(t, filesRoot);
  }, 120_000);
  /** The snapshot after one request is the one before the next. */
  let last: Snapshot | undefined;
  afterAll(async () => {
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function headersFor(route: Route, signedIn: boolean): Record<string, string> {
    if (!signedIn) return {};
    if (route.access === 'integration') return { 'x-api-key': apiKey };
    return headersByUnit.get(route.url.startsWith('/api/Demo/') ? DEMO_UNIT : 'DF') ?? {};
  }

  /** Sends one request and records what is wrong with the outcome. */
  async function check(failures: string[], label: string, options: InjectOptions): Promise<number> {
    const before = (last ??= await snapshot());
    const response = await t.app.inject(options);
    last = await snapshot();
    const problem = answerProblem(response);
    if (problem) failures.push(`${label}: ${problem}`);
    if (response.statusCode >= 400) {
      const changes = snapshotDiff(before, last);
      if (changes.length > 0)
        failures.push(`${label}: recusada com ${response.statusCode} mas gravou ${changes}`);
    }
    return response.statusCode;
  }

  function paramsArbitrary(route: Route) {
    return fc.record(
      Object.fromEntries(
        Object.entries(route.params).map(([name, schema]) => [
          name,
          knownIds[name]
            ? fc.oneof(fc.constantFrom(...knownIds[name]!), arbitraryFor(schema, name))
            : arbitraryFor(schema, name),
        ]),
      ),
    );
  }

  function queryArbitrary(route: Route) {
    return fc.record(
      Object.fromEntries(
        Object.entries(route.query).map(([name, schema]) => [name, arbitraryFor(schema, name)]),
      ),
      { requiredKeys: route.requiredQuery },
    );
  }

  it('generated requests: no 5xx, errors carry Error and code, rejections write nothing', async () => {
    const routes = routesOf(t).filter(
      (route) => !NOT_GENERATED.has(`${route.method} ${route.url}`),
    );
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const request = fc.record({
        params: paramsArbitrary(route),
        query: queryArbitrary(route),
        body: route.body ? arbitraryFor(route.body.schema) : fc.constant(undefined),
        signedIn: fc.boolean(),
      });
      const samples = fc.sample(request, { numRuns: RUNS, seed: SEED });
      for (const [index, sample] of samples.entries()) {
        const signedIn = route.access !== 'public' && (index === 0 ? false : true);
        const options: InjectOptions = {
          method: route.method as InjectOptions['method'],
          url: fillPath(route.url, sample.params),
          query: queryText(sample.query),
          headers: headersFor(route, signedIn || sample.signedIn),
        };
        if (route.body && sample.body !== undefined) {
          options.headers = { ...options.headers, 'content-type': route.body.contentType };
          options.payload =
            typeof sample.body === 'string' ? sample.body : JSON.stringify(sample.body);
        }
        const status = await check(failures, `${route.method} ${route.url} #${index}`, options);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }
    // The runs must reach past validation on some routes, or they prove little.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    expect(failures).toEqual([]);
    // The session used all along is still good: the runs were not refused wholesale with 401.
    const me = await t.app.inject({ url: '/api/Auth/me', headers: headersByUnit.get('DF') });
    expect(me.statusCode, me.body).toBe(200);
  }, 600_000);

  it('hostile variants of every route are refused cleanly and write nothing', async () => {
    const routes = routesOf(t);
    const failures: string[] = [];
    for (const route of routes) {
      const label = (what: string) => `${route.method} ${route.url} [${what}]`;
      const headers = headersFor(route, true);
      const [params] = fc.sample(paramsArbitrary(route), { numRuns: 1, seed: SEED });
      const url = fillPath(route.url, params ?? {});
      const send = (what: string, options: Partial<InjectOptions>) =>
        check(failures, label(what), {
          method: route.method as InjectOptions['method'],
          url,
          headers,
          ...options,
        });

      // Addresses: a path parameter and a query string far too long, NUL and broken escapes.
      if (route.url.includes(':'))
        await send('parâmetro de 20 kB', {
          url: route.url.replace(/:([A-Za-z]+)/g, () => 'x'.repeat(20_000)),
        });
      await send('consulta de 200 kB', { url: `${url}?q=${'y'.repeat(200_000)}` });
      await send('NUL na consulta', { url: `${url}?search=a%00b&local=%00` });
      await send('escape quebrado', { url: `${url}?search=%E0%A4%A&x=%` });
      if (route.url.includes(':'))
        await send('escape quebrado no caminho', {
          url: route.url.replace(/:([A-Za-z]+)/g, () => '%E0%A4%A'),
        });
      for (const name of Object.keys(route.query)) {
        for (const [what, value] of [
          ['objeto', `${name}[a][b]=1`],
          ['lista longa', Array.from({ length: 300 }, () => `${name}[]=1`).join('&')],
          ['__proto__', `${name}[__proto__][x]=1&__proto__[y]=1`],
          ['NUL', `${name}=%00`],
          ['1 MB', `${name}=${'z'.repeat(1_000_000)}`],
        ] as const)
          await send(`consulta ${name} ${what}`, { url: `${url}?${value}` });
      }

      if (route.method === 'GET' || route.method === 'DELETE') continue;
      const json = (payload: string | Buffer, contentType = 'application/json') => ({
        payload,
        headers: { ...headers, 'content-type': contentType },
      });
      await send('anônimo com corpo', {
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      await send('JSON truncado', json('{"name": "Ana'));
      await send('JSON vazio', json(''));
      await send(
        'UTF-8 inválido',
        json(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d])),
      );
      const limit = route.body?.schema.type === 'string' ? 10 * 1024 * 1024 : 1024 * 1024;
      await send('corpo acima do limite', json(`{"a":"${'b'.repeat(limit + 1024)}"}`));
      await send('tipo text/xml', json('<a>1</a>', 'text/xml'));
      await send('tipo form', json('a=1&b=2', 'application/x-www-form-urlencoded'));
      await send('tipo multipart', json('--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'));
      await send('JSON não objeto', json('[1,2,3]'));
      await send('JSON número', json('42'));
      await send('__proto__', json('{"__proto__":{"role":"ADMIN","isAdmin":true}}'));
      await send(
        'constructor.prototype',
        json('{"constructor":{"prototype":{"role":"ADMIN"}},"prototype":{"x":1}}'),
      );
      const schema = route.body?.schema;
      if (!schema || schema.type !== 'object' || !schema.properties) {
        if (schema?.type === 'string') {
          await send('CSV com NUL', json('a;b\n\u0000;\u0000\n', 'text/csv'));
          await send(
            'CSV UTF-8 inválido',
            json(Buffer.from([0x61, 0x3b, 0xff, 0xfe, 0x0a]), 'text/csv'),
          );
        }
        continue;
      }
      const [base] = fc.sample(arbitraryFor(schema), { numRuns: 1, seed: SEED });
      const valid = (base ?? {}) as Record<string, unknown>;
      await send(
        'chave desconhecida',
        json(
          JSON.stringify({ ...valid, zzDesconhecida: 'x', role: 'ADMIN', federativeUnit: 'SP' }),
        ),
      );
      await send(
        'chave __proto__ junto',
        json(`{"__proto__":{"x":1},${JSON.stringify(valid).slice(1)}`),
      );
      for (const [field, fieldSchema] of Object.entries(schema.properties)) {
        for (const wrong of wrongTypeFor(fieldSchema))
          await send(
            `${field} tipo errado ${JSON.stringify(wrong)}`,
            json(JSON.stringify({ ...valid, [field]: wrong })),
          );
        await send(`${field} NUL`, json(JSON.stringify({ ...valid, [field]: 'a\u0000b' })));
        await send(`${field} 1 MB`, json(JSON.stringify({ ...valid, [field]: MEGABYTE_STRING })));
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('the refusals found by fuzzing answer their catalogue codes', async () => {
    const auth = (await seedSignedIn(t.app, { role: 'ADMIN', unit: 'DF' })).auth;
    const cases: Array<[InjectOptions, number, string]> = [
      [
        { method: 'GET', url: `/api/Exam/${'x'.repeat(20_000)}`, headers: auth },
        414,
        'URI_TOO_LONG',
      ],
      [{ method: 'GET', url: '/api/Exam/%E0%A4%A', headers: auth }, 400, 'BAD_REQUEST'],
      [{ method: 'GET', url: '/api/Exam/a%00b', headers: auth }, 400, 'INVALID_CHARACTER'],
      [
        { method: 'GET', url: '/api/ExamRoom/unplaced?schedulingLocal=%00', headers: auth },
        400,
        'INVALID_CHARACTER',
      ],
      [
        { method: 'POST', url: '/api/Auth', payload: { email: 'a\u0000@b.br', password: 'x' } },
        400,
        'INVALID_CHARACTER',
      ],
    ];
    for (const [options, status, code] of cases) {
      const response = await t.app.inject(options);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ code, Error: expect.any(String) });
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });
});
