/**
 * The API client (spec 7): base address from configuration, `Authorization:
 * Bearer`, bracket-style array query strings and ISO 8601 dates with the local
 * offset, per-call timeouts (spec 9), and errors rejected with the server's
 * `Error` text or the default text followed by the error description (spec 8;
 * the HTTP status goes to the log, not to the person). The one door to the
 * API for JSON calls, file downloads and uploads with progress.
 */
import {
  API_DEFAULT_ERROR_TEXT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  ERROR_MESSAGES,
  LONG_REQUEST_TIMEOUT_MS,
  LONG_TIMEOUT_PATHS,
  SHARED_CLIENT_TIMEOUT_MS,
} from '@exame/shared';
import dayjs from 'dayjs';
import qs from 'qs';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryParams = Record<string, unknown>;

export type ApiErrorDetail = { path: string; message: string };

/** What a sensitive action says when its confirmation of identity was closed without one. */
export const REAUTH_DECLINED = 'A ação não foi feita: a sua identidade não foi confirmada.';

export class ApiError extends Error {
  override name = 'ApiError';
  /** Per-field or per-line problems the server listed (validation, CSV import). */
  details: ApiErrorDetail[] = [];
  /** Spec 8: the record a failed check-in met (its id and check-in date), when the answer names it. */
  record: { id: string; checkInDate: string } | null = null;
  /** The auditor alert (spec 2, 3) of an exam another auditor holds, when the answer carries it. */
  alert: unknown = null;
  /** The pending sign-in of a `multi-factor-*-required` answer (its ticket and methods). */
  mfa: unknown = null;
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
  /** The server's stable code, or NETWORK_ERROR / TIMEOUT when there was no answer. */
  code: string | null;
  message: string;
};

export type ApiClientOptions = {
  baseUrl: string;
  getToken: () => string | null;
  fetchImpl?: typeof fetch;
  logFailure?: (entry: ApiFailureLog) => void;
  /** Called when the server answers 401 to a call that carried a token. */
  onUnauthorized?: () => void;
  /**
   * A sensitive action answered `reauth-required`: asks the person to prove
   * who they are again; true when they did, and the call is then made once more.
   */
  onReauthRequired?: () => Promise<boolean>;
};

export type RequestOptions = {
  query?: QueryParams;
  body?: unknown;
  /** Overrides the timeout of the call. */
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Gives back the Response itself (files), after the same error handling. */
  raw?: boolean;
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

export const FAILURE_DESCRIPTIONS = {
  network: 'Não foi possível falar com o servidor. Verifique a sua conexão.',
  cancelled: 'A requisição foi cancelada.',
} as const;

function timeoutDescription(timeoutMs: number): string {
  return `O servidor não respondeu em ${Math.round(timeoutMs / 1000)} s.`;
}

function describeFailure(error: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return timeoutDescription(timeoutMs);
  if (error instanceof DOMException && error.name === 'AbortError')
    return FAILURE_DESCRIPTIONS.cancelled;
  if (error instanceof TypeError) return FAILURE_DESCRIPTIONS.network;
  return error instanceof Error ? error.message : String(error);
}

/** What went wrong, in words, for an answer without the server's `Error` (the status is logged). */
export function describeStatus(status: number): string {
  if (status === 404) return 'O endereço pedido não foi encontrado.';
  if (status === 408 || status === 504) return 'O servidor demorou demais para responder.';
  if (status === 413) return ERROR_MESSAGES.PAYLOAD_TOO_LARGE;
  if (status === 429) return 'Muitas requisições em pouco tempo.';
  if (status === 502 || status === 503) return 'O servidor está indisponível no momento.';
  if (status >= 500) return 'O servidor encontrou um erro ao atender o pedido.';
  return 'O servidor recusou o pedido.';
}

/** Spec 8: the default text followed by the error's description. */
export function defaultErrorText(description: string): string {
  return `${API_DEFAULT_ERROR_TEXT}. ${description}`;
}

type ServerBody =
  | {
      Error?: unknown;
      code?: unknown;
      details?: unknown;
      id?: unknown;
      checkInDate?: unknown;
      alert?: unknown;
      mfa?: unknown;
    }
  | undefined;

/** The error of a failed answer: the server's `Error` and `code`, or the default text. */
function errorOf(status: number, payload: unknown): ApiError {
  const body = payload as ServerBody;
  const serverText = typeof body?.Error === 'string' ? body.Error : null;
  const code = typeof body?.code === 'string' ? body.code : null;
  const error = new ApiError(serverText ?? defaultErrorText(describeStatus(status)), status, code);
  if (Array.isArray(body?.details)) error.details = body.details as ApiErrorDetail[];
  if (typeof body?.id === 'string' && typeof body.checkInDate === 'string') {
    error.record = { id: body.id, checkInDate: body.checkInDate };
  }
  if (body?.alert && typeof body.alert === 'object') error.alert = body.alert;
  if (body?.mfa && typeof body.mfa === 'object') error.mfa = body.mfa;
  return error;
}

/**
 * A 401 about the session itself (expired, revoked, user disabled) ends it
 * locally. Other 401s name someone else's credentials (examiner 2's password
 * at the room's check-in, a proof that expired) and leave the session as it is.
 */
function endsSession(error: ApiError, token: string | null): boolean {
  return (
    error.status === 401 && token !== null && (error.code === 'UNAUTHORIZED' || error.code === null)
  );
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `attachment; filename="a.csv"; filename*=UTF-8''a.csv` -> `a.csv`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1]);
    } catch {
      // Fall back to the plain name below.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}

export type DownloadedFile = { blob: Blob; filename: string | null };

export type UploadOptions = {
  query?: QueryParams;
  contentType: string;
  /** Called with the fraction sent, from 0 to 1. */
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
};

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
    try {
      return await send<T>(method, path, init);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'reauth-required') throw error;
      if (!options.onReauthRequired) throw error;
      if (await options.onReauthRequired()) return send<T>(method, path, init);
      // The person closed the confirmation: the action says it was not done, not "confirm".
      const declined = new ApiError(REAUTH_DECLINED, error.status, error.code);
      declined.details = error.details;
      throw declined;
    }
  }

  async function send<T>(method: HttpMethod, path: string, init: RequestOptions): Promise<T> {
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

    const fail = (error: ApiError): never => {
      logFailure({ method, path, status: error.status, code: error.code, message: error.message });
      throw error;
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
        new ApiError(
          defaultErrorText(describeFailure(error, timeoutMs, timedOut)),
          null,
          timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
        ),
      );
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', forwardAbort);
    }

    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const error = errorOf(response.status, parseBody(text));
      if (endsSession(error, token)) options.onUnauthorized?.();
      return fail(error);
    }
    if (init.raw) return response as T;
    const payload = parseBody(await response.text().catch(() => ''));
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
    /** A file answer (an export): its bytes and the name the server gave it. */
    async download(path: string, init: RequestOptions = {}): Promise<DownloadedFile> {
      const response = await request<Response>(
        'GET',
        path,
        withTimeout(path, { ...init, raw: true, headers: { accept: '*/*', ...init.headers } }),
      );
      return {
        blob: await response.blob(),
        filename: filenameFromDisposition(response.headers.get('content-disposition')),
      };
    },
    upload<T>(path: string, body: Blob, init: UploadOptions): Promise<T> {
      return upload<T>(path, body, init);
    },
  };

  /** A POST whose body is a file, with upload progress (fetch has none): XMLHttpRequest. */
  function upload<T>(path: string, body: Blob, init: UploadOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const token = options.getToken();
      const timeoutMs = init.timeoutMs ?? LONG_REQUEST_TIMEOUT_MS;
      const fail = (error: ApiError) => {
        logFailure({
          method: 'POST',
          path,
          status: error.status,
          code: error.code,
          message: error.message,
        });
        reject(error);
      };
      xhr.open('POST', joinUrl(options.baseUrl, path, init.query));
      xhr.setRequestHeader('accept', 'application/json');
      xhr.setRequestHeader('content-type', init.contentType);
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      xhr.timeout = timeoutMs;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) init.onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => {
        const payload = parseBody(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) {
          init.onProgress?.(1);
          resolve(payload as T);
          return;
        }
        const error = errorOf(xhr.status, payload);
        if (endsSession(error, token)) options.onUnauthorized?.();
        fail(error);
      };
      xhr.onerror = () =>
        fail(new ApiError(defaultErrorText(FAILURE_DESCRIPTIONS.network), null, 'NETWORK_ERROR'));
      xhr.ontimeout = () =>
        fail(new ApiError(defaultErrorText(timeoutDescription(timeoutMs)), null, 'TIMEOUT'));
      xhr.send(body);
    });
  }
}
