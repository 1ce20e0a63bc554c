/**
 * Text that no column can hold is refused before any route sees it: a NUL
 * character (U+0000) in a path parameter, the query or a JSON/CSV body would
 * otherwise reach PostgreSQL, which rejects it inside the query (a 500), or
 * end up in a file a spreadsheet truncates. The check walks the parsed
 * values once, before validation, and answers 400 `INVALID_CHARACTER`.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';

/** Deeper than any schema of the API: a body nested further is refused by validation anyway. */
const MAX_DEPTH = 32;

/** Whether `value` (a parsed body, query or params) carries a NUL character anywhere. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw AppError.of('INVALID_CHARACTER', 400);
    }
  });
}
