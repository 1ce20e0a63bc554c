import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  buildQueryString,
  createApiClient,
  describeStatus,
  formatLocalIso,
  joinUrl,
  timeoutFor,
  type ApiClientOptions,
  type ApiFailureLog,
} from './api-client';

describe('query strings', () => {
  it('uses bracket arrays and leaves out empty values', () => {
    expect(
      buildQueryString({ status: ['done', 'started'], page: 2, name: undefined, cpf: null }),
    ).toBe('status[]=done&status[]=started&page=2');
  });

  it('writes dates as ISO 8601 with the local offset', () => {
    const date = new Date(2026, 10, 21, 9, 30, 5);
    const offsetMinutes = -date.getTimezoneOffset();
    const sign = offsetMinutes >= 0 ? '+' : '-';
    const hh = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
    expect(formatLocalIso(date)).toBe(`2026-11-21T09:30:05${sign}${hh}:${mm}`);
    expect(buildQueryString({ startDate: date })).toBe(
      `startDate=${encodeURIComponent(`2026-11-21T09:30:05${sign}${hh}:${mm}`)}`,
    );
  });

  it('joins the base address and the path', () => {
    expect(joinUrl('https://api.example.gov.br/', 'api/User', { page: 1 })).toBe(
      'https://api.example.gov.br/api/User?page=1',
    );
    expect(joinUrl('', '/api/User/1')).toBe('/api/User/1');
  });
});

describe('timeout table (spec 9)', () => {
  it.each([
    ['api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/DF', 300_000],
    ['api/SchedulingLocalCheckIn/checkOut', 300_000],
    ['api/SchedulingLocalCheckIn/exams', 300_000],
    ['api/Auth/biometric-viewer-checkin', 300_000],
    ['api/SchedulingLocalCheckIn/update-checkIn/42', 300_000],
    ['/api/SchedulingLocalCheckIn/checkOut?x=1', 300_000],
    ['api/SchedulingLocalCheckIn/checkIn', 45_000],
    ['api/SchedulingLocalCheckIn/findCheckIn', 45_000],
    ['api/Auth', 45_000],
    ['api/User', 45_000],
  ])('%s -> %i ms', (path, expected) => {
    expect(timeoutFor(path)).toBe(expected);
  });
});

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A client of '' without a token over `fetchImpl`, its failures not logged. */
function clientOver(fetchImpl: typeof fetch, options: Partial<ApiClientOptions> = {}) {
  return createApiClient({
    baseUrl: '',
    getToken: () => null,
    fetchImpl,
    logFailure: () => undefined,
    ...options,
  });
}

/** A fetch that never answers: it rejects only when the call is aborted. */
const hangingFetch: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () =>
      reject(new DOMException('aborted', 'AbortError')),
    );
  });

describe('createApiClient', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the bearer token, the JSON body and the query', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(jsonResponse(200, { ok: true }));
    const client = createApiClient({ baseUrl: 'http://api', getToken: () => 'tok-1', fetchImpl });
    await expect(
      client.post('api/User/admin', { name: 'Ana' }, { query: { ids: [1, 2] } }),
    ).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchImpl.mock.calls[0] ?? [];
    expect(url).toBe('http://api/api/User/admin?ids[]=1&ids[]=2');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(init?.body).toBe('{"name":"Ana"}');
  });

  it("rejects with the server's Error text and code, and logs the status", async () => {
    const logs: ApiFailureLog[] = [];
    const client = createApiClient({
      baseUrl: '',
      getToken: () => null,
      fetchImpl: async () =>
        jsonResponse(403, { Error: 'Você não tem permissão.', code: 'FORBIDDEN' }),
      logFailure: (entry) => logs.push(entry),
    });
    const error = await client.get('api/User/1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Você não tem permissão.',
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(logs).toEqual([
      {
        method: 'GET',
        path: 'api/User/1',
        status: 403,
        code: 'FORBIDDEN',
        message: 'Você não tem permissão.',
      },
    ]);
  });

  it('a failed check-in keeps the id and check-in date of the record it met (spec 8)', async () => {
    const client = clientOver(async () =>
      jsonResponse(409, {
        Error: 'Ana já tem uma entrada aberta no posto DF.POSTO01.',
        code: 'CHECKIN_ALREADY_OPEN',
        id: '5c0e2b7a-1d3f-4a6b-8c9d-0e1f2a3b4c5d',
        checkInDate: '2026-11-25T12:00:00.000Z',
      }),
    );
    const error = await client
      .post('api/SchedulingLocalCheckIn/checkIn', {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CHECKIN_ALREADY_OPEN',
      record: {
        id: '5c0e2b7a-1d3f-4a6b-8c9d-0e1f2a3b4c5d',
        checkInDate: '2026-11-25T12:00:00.000Z',
      },
    });
    const plain = clientOver(async () =>
      jsonResponse(404, { Error: 'Não encontrado.', code: 'NOT_FOUND' }),
    );
    expect(await plain.get('api/x').catch((e: unknown) => e)).toMatchObject({ record: null });
  });

  it('a sign-in that needs a second factor keeps the pending sign-in (`mfa`) of the answer', async () => {
    const mfa = { ticket: 't'.repeat(24), enrolment: false, methods: ['totp'], expiresAt: 'x' };
    const client = clientOver(async () =>
      jsonResponse(401, { Error: 'Confirme.', code: 'multi-factor-auth-required', mfa }),
    );
    expect(await client.post('api/Auth', {}).catch((e: unknown) => e)).toMatchObject({
      code: 'multi-factor-auth-required',
      mfa,
    });
    const plain = clientOver(async () => jsonResponse(401, { Error: 'x', code: 'invalid' }));
    expect(await plain.post('api/Auth', {}).catch((e: unknown) => e)).toMatchObject({ mfa: null });
  });

  it('without an Error field: the default text followed by the description', async () => {
    const client = clientOver(
      async () =>
        new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const logs: ApiFailureLog[] = [];
    const client502 = createApiClient({
      baseUrl: '',
      getToken: () => null,
      fetchImpl: async () =>
        new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      logFailure: (entry) => logs.push(entry),
    });
    // Spec 8: the default text followed by the description, never an HTTP status line.
    const failure = await client502.get('api/User').catch((caught: unknown) => caught);
    expect(failure).toMatchObject({
      message: 'Por favor, tente novamente em breve. O servidor está indisponível no momento.',
      status: 502,
    });
    expect((failure as Error).message).not.toMatch(/HTTP|502|\(/);
    // The status still goes to the log.
    expect(logs).toMatchObject([{ method: 'GET', path: 'api/User', status: 502 }]);
    await expect(client.get('api/User')).rejects.toThrow(
      'Por favor, tente novamente em breve. O servidor está indisponível no momento.',
    );
  });

  it('describes a status with the texts of the shared catalogue where it has one', () => {
    expect(describeStatus(413)).toBe('O conteúdo enviado é grande demais.');
    expect(describeStatus(404)).toBe('O endereço pedido não foi encontrado.');
  });

  it('a network failure rejects with the default text', async () => {
    const client = clientOver(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.get('api/User')).rejects.toMatchObject({
      message:
        'Por favor, tente novamente em breve. Não foi possível falar com o servidor. Verifique a sua conexão.',
      status: null,
      code: 'NETWORK_ERROR',
    });
  });

  it('aborts after the timeout of the call', async () => {
    vi.useFakeTimers();
    const client = clientOver(hangingFetch);
    const pending = client.get('api/User').catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(44_999);
    const long = client
      .post('api/SchedulingLocalCheckIn/checkOut', {})
      .catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      code: 'TIMEOUT',
      message: 'Por favor, tente novamente em breve. O servidor não respondeu em 45 s.',
    });
    let settled = false;
    void long.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(250_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(50_000);
    expect(await long).toMatchObject({ code: 'TIMEOUT' });
  });

  it('the raw request uses the shared client timeout of 180 000 ms', async () => {
    vi.useFakeTimers();
    const client = clientOver(hangingFetch);
    let settled = false;
    const pending = client.request('GET', 'api/User').catch((caught: unknown) => {
      settled = true;
      return caught;
    });
    await vi.advanceTimersByTimeAsync(179_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: 'TIMEOUT' });
  });

  it('a 401 to a call with a token ends the local session', async () => {
    const onUnauthorized = vi.fn();
    const client = createApiClient({
      baseUrl: '',
      getToken: () => 'expired',
      fetchImpl: async () => jsonResponse(401, { Error: 'Sessão expirada.', code: 'UNAUTHORIZED' }),
      logFailure: () => undefined,
      onUnauthorized,
    });
    await expect(client.get('api/User')).rejects.toThrow('Sessão expirada.');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it("a 401 about someone else's credentials (examiner 2's password) keeps the session", async () => {
    const onUnauthorized = vi.fn();
    for (const code of ['invalid-credentials', 'PROCTORING_TOKEN_INVALID']) {
      const client = createApiClient({
        baseUrl: '',
        getToken: () => 'valid-session-token',
        fetchImpl: async () => jsonResponse(401, { Error: 'E-mail ou senha incorretos.', code }),
        logFailure: () => undefined,
        onUnauthorized,
      });
      await expect(client.post('api/Auth/viewer-checkin', {})).rejects.toMatchObject({ code });
    }
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
