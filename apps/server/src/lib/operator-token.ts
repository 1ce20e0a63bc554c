/**
 * The operator's token: a random secret kept (mode 0600) in
 * DATA_DIR/secrets/operator.token, readable by whoever runs the server, and
 * by nobody who reaches it over the network. Operator commands send it from
 * the server's own machine (loopback) to `'operator'` routes.
 */
import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { randomToken } from './crypto';

export const OPERATOR_TOKEN_HEADER = 'x-operator-token';

export function operatorTokenFile(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'operator.token');
}

/** The token of this data folder, made on first use. */
export function resolveOperatorToken(dataDir: string): string {
  const file = operatorTokenFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomToken();
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function isOperatorRequest(request: FastifyRequest, token: string): boolean {
  // The socket's own address: X-Forwarded-For is never consulted here.
  if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return false;
  const given = request.headers[OPERATOR_TOKEN_HEADER];
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
