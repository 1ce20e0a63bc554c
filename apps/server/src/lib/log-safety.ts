/**
 * What may reach the logs (security guide: CPF masked as ***.456.789-**,
 * never tokens, never the values of a query):
 * - request addresses: CPFs and e-mails masked, signatures dropped;
 * - errors: query parameters dropped (drizzle puts them in `params` and in the
 *   message), the values of database constraint details hidden, and CPFs and
 *   e-mails masked in every remaining text, down the `cause` chain.
 *
 * A CPF is recognised in every spelling a client or a driver may produce:
 * eleven digits, fully or partly formatted (`100200304-01`, `100.200.30401`)
 * and percent-encoded (`100%2E200%2E304%2D01`).
 */
import { maskCpf } from '@exame/shared';

const SEP = '(?:[.-]|%2[EeDd])?';
const CPF_ANY = new RegExp(`(?<!\\d)\\d{3}${SEP}\\d{3}${SEP}\\d{3}${SEP}\\d{2}(?!\\d)`, 'g');
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*(@|%40)([A-Za-z0-9.-]+)/g;
const SECRETS = /([?&](?:signature|token|key)=)[^&#]*/gi;
/** drizzle's `Failed query: … \nparams: a, b` (also inside the stack). */
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;
/** PostgreSQL's `Key (cpf)=(52998224725) already exists.` */
const KEY_VALUES = /(\([^()]*\)=)\([\s\S]*\)/g;
const HIDDEN = '[oculto]';
const DROPPED_KEYS = new Set(['params', 'parameters', 'values']);
const MAX_DEPTH = 5;

function maskCpfMatch(match: string): string {
  return maskCpf(match.replace(/%2[EeDd]/g, ''));
}

/** Masks every CPF and e-mail of a text. */
export function maskPersonalData(text: string): string {
  return text.replace(CPF_ANY, maskCpfMatch).replace(EMAIL, '$1***$2$3');
}

export function sanitizeUrl(url: string): string {
  return maskPersonalData(url.replace(SECRETS, `$1${HIDDEN}`));
}

type LoggedRequest = {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: sanitizeUrl(request.url),
    hostname: request.hostname,
    remoteAddress: request.ip,
  };
}

function cleanText(text: string): string {
  return maskPersonalData(text.replace(QUERY_PARAMS, `\nparams: ${HIDDEN}`));
}

function cleanValue(value: unknown, depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value) || depth >= MAX_DEPTH) return '[…]';
  if (value instanceof Error) return serializeError(value, depth + 1, seen);
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, depth + 1, seen));
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (DROPPED_KEYS.has(key)) continue;
    out[key] = cleanValue(item, depth + 1, seen);
  }
  return out;
}

function serializeError(error: Error, depth: number, seen: Set<object>): Record<string, unknown> {
  seen.add(error);
  const out: Record<string, unknown> = {
    type: error.constructor?.name ?? 'Error',
    message: cleanText(error.message ?? ''),
    stack: cleanText(error.stack ?? ''),
  };
  for (const [key, value] of Object.entries(error)) {
    if (DROPPED_KEYS.has(key) || key in out) continue;
    if (key === 'detail' && typeof value === 'string') {
      out.detail = cleanText(value.replace(KEY_VALUES, `$1(${HIDDEN})`));
      continue;
    }
    out[key] = cleanValue(value, depth, seen);
  }
  // `cause` is not enumerable when set through the Error constructor.
  if (!('cause' in out) && error.cause !== undefined) {
    out.cause = cleanValue(error.cause, depth, seen);
  }
  return out;
}

type SerializedError = { [key: string]: unknown; type: string; message: string; stack: string };

/** pino's `err` serializer: the error without the data it was working on. */
export function errorSerializer(error: unknown): SerializedError {
  if (error instanceof Error) return serializeError(error, 0, new Set()) as SerializedError;
  const value = cleanValue(error, 0, new Set());
  return {
    type: typeof error,
    message: typeof value === 'string' ? value : JSON.stringify(value),
    stack: '',
  };
}

export const logSerializers = { req: requestSerializer, err: errorSerializer };
