/**
 * A fixed-window counter in memory, for public endpoints that send e-mail.
 * Sign-in throttling is separate and lives in the database (see
 * modules/auth/login-throttle.ts).
 */
import { AppError } from './app-error';

export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts a hit for `key`; throws 429 RATE_LIMITED past the limit. */
    hit(key: string): void {
      const at = now();
      if (windows.size > 10_000) {
        for (const [entryKey, entry] of windows)
          if (at - entry.start >= options.windowMs) windows.delete(entryKey);
      }
      const entry = windows.get(key);
      if (!entry || at - entry.start >= options.windowMs) {
        windows.set(key, { start: at, count: 1 });
        return;
      }
      entry.count += 1;
      if (entry.count > options.limit) {
        const retryAfter = Math.ceil((entry.start + options.windowMs - at) / 1000);
        throw AppError.of('RATE_LIMITED', 429).withHeader(
          'retry-after',
          String(Math.max(1, retryAfter)),
        );
      }
    },
  };
}
