/**
 * The API client (spec 7): base address from configuration, `Authorization:
 * Bearer`, bracket-style array query strings and ISO 8601 dates with the local
 * offset, per-call timeouts (spec 9), and errors rejected with the server's
 * `Error` text or the default text followed by the error description.
 */
import {
  API_DEFAULT_ERROR_TEXT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  LONG_REQUEST_TIMEOUT_MS,
  LONG_TIMEOUT_PATHS,
  SHARED_CLIENT_TIMEOUT_MS,
} from '@exame/shared';
import dayjs from 'dayjs';
import qs from 'qs';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryParams = Record<string, unknown>;

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export type ApiFailureLog = {
  method: HttpMethod;
  path: string;
  status: number | null;
  message: string;
};

export type ApiClientOptions = {
  baseUrl: string;
  getToken: () => string | null;
  fetchImpl?: typeof fetch;
  logFailure?: (entry: ApiFailureLog) => void;
  /** Called when the server answers 401 to a call that carried a token. */
  onUnauthorized?: () => void;
};

export type RequestOptions = {
  query?: QueryParams;
  body?: unknown;
  /** Overrides the timeout of the call. */
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

/** ISO 8601 with the local offset, e.g. 2026-11-21T09:30:00-03:00. */
export function formatLocalIso(date: Date): string {
  return dayjs(date).format('YYYY-MM-DDTHH:mm:ssZ');
}

/** `ids[]=1&ids[]=2&start=2026-11-21T00:00:00-03:00`; null and undefined values are left out. */
export function buildQueryString(params: QueryParams | undefined): string {
  if (!params) return '';
  return qs.stringify(params, {
    arrayFormat: 'brackets',
    encodeValuesOnly: true,
    skipNulls: true,
    serializeDate: formatLocalIso,
  });
}

function normalisePath(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The timeout of a call made through the method wrappers (spec 9). */
export function timeoutFor(path: string): number {
  const clean = normalisePath(path).split('?')[0] ?? '';
  return LONG_TIMEOUT_PATHS.some((pattern) => pattern.test(clean))
    ? LONG_REQUEST_TIMEOUT_MS
    : DEFAULT_REQUEST_TIMEOUT_MS;
}

export function joinUrl(baseUrl: string, path: string, query?: QueryParams): string {
  const base = baseUrl.replace(/\/+$/, '');
  const queryString = buildQueryString(query);
  return `${base}/${normalisePath(path)}${queryString ? `?${queryString}` : ''}`;
}

function describeFailure(error: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `tempo limite de ${Math.round(timeoutMs / 1000)} s excedido`;
  if (error instanceof DOMException && error.name === 'AbortError') return 'requisição cancelada';
  if (error instanceof TypeError) return 'falha de comunicação com o servidor';
  return error instanceof Error ? error.message : String(error);
}

export function defaultErrorText(description: string): string {
  return `${API_DEFAULT_ERROR_TEXT} (${description})`;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const logFailure =
    options.logFailure ??
    ((entry: ApiFailureLog) =>
      console.error(
        `[api] ${entry.method} ${entry.path} -> ${entry.status ?? 'sem resposta'}: ${entry.message}`,
      ));

  async function request<T>(
    method: HttpMethod,
    path: string,
    init: RequestOptions = {},
  ): Promise<T> {
    const timeoutMs = init.timeoutMs ?? SHARED_CLIENT_TIMEOUT_MS;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = () => controller.abort();
    init.signal?.addEventListener('abort', forwardAbort, { once: true });

    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (init.body !== undefined) {
      if (init.body instanceof FormData || init.body instanceof Blob) {
        body = init.body;
      } else {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.body);
      }
    }

    const fail = (status: number | null, message: string, code: string | null): never => {
      logFailure({ method, path, status, message });
      throw new ApiError(message, status, code);
    };

    let response: Response;
    try {
      response = await fetchImpl(joinUrl(options.baseUrl, path, init.query), {
        method,
        headers,
        body,
        signal: controller.signal,
      });
    } catch (error) {
      return fail(
        null,
        defaultErrorText(describeFailure(error, timeoutMs, timedOut)),
        timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      );
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', forwardAbort);
    }

    const text = await response.text().catch(() => '');
    let payload: unknown = undefined;
    if (text !== '') {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }
    if (!response.ok) {
      if (response.status === 401 && token) options.onUnauthorized?.();
      const serverBody = payload as { Error?: unknown; code?: unknown } | undefined;
      const serverText = typeof serverBody?.Error === 'string' ? serverBody.Error : null;
      const code = typeof serverBody?.code === 'string' ? serverBody.code : null;
      return fail(
        response.status,
        serverText ??
          defaultErrorText(
            `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
          ),
        code,
      );
    }
    return payload as T;
  }

  const withTimeout = (path: string, init: RequestOptions = {}): RequestOptions => ({
    ...init,
    timeoutMs: init.timeoutMs ?? timeoutFor(path),
  });

  return {
    request,
    get: <T>(path: string, init?: RequestOptions) =>
      request<T>('GET', path, withTimeout(path, init)),
    post: <T>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>('POST', path, withTimeout(path, { ...init, body })),
    patch: <T>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>('PATCH', path, withTimeout(path, { ...init, body })),
    put: <T>(path: string, body?: unknown, init?: RequestOptions) =>
      request<T>('PUT', path, withTimeout(path, { ...init, body })),
    delete: <T>(path: string, init?: RequestOptions) =>
      request<T>('DELETE', path, withTimeout(path, init)),
  };
}
