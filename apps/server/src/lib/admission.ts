/**
 * Admission to the database, per request: at most `maxActive` requests work
 * against it at once, the next ones wait in a first-come line of at most
 * `maxQueued`, and a request that finds the line full, or that would wait in
 * it longer than `maxWaitMs` at the recent pace (the line's length times how
 * long a request has lately held its place), is answered at once 503 (code
 * SERVER_BUSY) with `Retry-After`; one that still waits longer (the pace
 * slowed) gets the same answer when `maxWaitMs` is up.
 *
 * A request is admitted before its handler runs and has done nothing when it
 * is refused, so a refusal never leaves half-written data; it leaves once its
 * answer is on its way. Why per request and not per statement: the embedded
 * PGlite runs one statement at a time, and when every request's statements
 * queue together each request waits behind all the others' (seconds at 100
 * connections, then timeouts); a short line of whole requests keeps each
 * one's time near its own work and the wait bounded.
 */
import { SERVER_ERRORS } from '@exame/shared';
import { AppError } from './app-error';

export type AdmissionOptions = {
  /** Requests at work at once; 0 admits everything (no bound). */
  maxActive: number;
  maxQueued: number;
  maxWaitMs: number;
  /** How long a request holds its place until one has been seen (then a moving average). */
  initialHoldMs?: number;
};

/** Gives the place back; calling it again does nothing. */
export type Release = () => void;

export type Admission = {
  readonly enabled: boolean;
  /**
   * Waits for a place; rejects with the SERVER_BUSY error when the line is
   * full or the wait too long. `signal` aborts a wait (the client left).
   */
  acquire: (signal?: AbortSignal) => Promise<Release>;
  stats: () => { active: number; queued: number; refused: number };
};

type Waiter = {
  grant: (release: Release) => void;
  refuse: (error: Error) => void;
};

/** The error of a refusal, with the wait to announce in seconds. */
export function serverBusy(retryAfterSeconds: number): AppError {
  return AppError.from(SERVER_ERRORS, 'SERVER_BUSY').withHeader(
    'retry-after',
    String(retryAfterSeconds),
  );
}

const MAX_RETRY_AFTER_SECONDS = 30;

export function createAdmission(options: AdmissionOptions): Admission {
  const { maxActive, maxQueued, maxWaitMs } = options;
  const queue: Waiter[] = [];
  let active = 0;
  let refused = 0;
  // A moving average of how long an admitted request holds its place.
  let holdMs = options.initialHoldMs ?? 50;

  /** How long a request joining the line now would wait, from the recent pace. */
  const expectedWaitMs = () => ((queue.length + 1) * holdMs) / Math.max(1, maxActive);

  const retryAfter = () =>
    Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(expectedWaitMs() / 1000)));

  const refuse = (): AppError => {
    refused += 1;
    return serverBusy(retryAfter());
  };

  const grant = (): Release => {
    active += 1;
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holdMs = holdMs * 0.9 + (performance.now() - started) * 0.1;
      active -= 1;
      const next = queue.shift();
      if (next) next.grant(grant());
    };
  };

  const acquire = (signal?: AbortSignal): Promise<Release> => {
    if (maxActive <= 0) return Promise.resolve(() => undefined);
    if (active < maxActive && queue.length === 0) return Promise.resolve(grant());
    if (signal?.aborted) return Promise.reject(new Error('cliente desconectou'));
    // A full line, or one that at the recent pace would keep it past maxWaitMs:
    // refused now rather than after the wait.
    if (queue.length >= maxQueued || expectedWaitMs() > maxWaitMs) {
      return Promise.reject(refuse());
    }
    return new Promise<Release>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
      };
      const waiter: Waiter = {
        grant: (release) => {
          leave();
          resolve(release);
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
      };
      const onAbort = () => waiter.refuse(new Error('cliente desconectou'));
      const timer = setTimeout(() => waiter.refuse(refuse()), maxWaitMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  };

  return {
    enabled: maxActive > 0,
    acquire,
    stats: () => ({ active, queued: queue.length, refused }),
  };
}
