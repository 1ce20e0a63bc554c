import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { createAdmission } from './admission';

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** A line with one place at a time. */
const onePlace = (options: { maxQueued: number; maxWaitMs: number; initialHoldMs?: number }) =>
  createAdmission({ maxActive: 1, ...options });
/** The error a request for a place ends with (null: it was admitted). */
const refusalOf = (admission: ReturnType<typeof createAdmission>) =>
  admission.acquire().then(
    () => null,
    (error: unknown) => error as AppError,
  );

describe('database admission line', () => {
  it('admits up to maxActive at once and the next ones in arrival order', async () => {
    const admission = createAdmission({ maxActive: 2, maxQueued: 10, maxWaitMs: 10_000 });
    const first = await admission.acquire();
    const second = await admission.acquire();
    const order: number[] = [];
    const third = admission.acquire().then((release) => (order.push(3), release));
    const fourth = admission.acquire().then((release) => (order.push(4), release));
    await tick();
    expect(order).toEqual([]);
    expect(admission.stats()).toMatchObject({ active: 2, queued: 2 });
    first();
    // Releasing twice gives back one place only.
    first();
    await tick();
    expect(order).toEqual([3]);
    expect(admission.stats()).toMatchObject({ active: 2, queued: 1 });
    second();
    await tick();
    expect(order).toEqual([3, 4]);
    (await third)();
    (await fourth)();
    expect(admission.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('refuses at once with SERVER_BUSY, 503 and Retry-After when the line is full', async () => {
    const admission = onePlace({ maxQueued: 1, maxWaitMs: 10_000 });
    const held = await admission.acquire();
    const waiting = admission.acquire();
    const started = Date.now();
    const refused = await refusalOf(admission);
    expect(Date.now() - started).toBeLessThan(50);
    expect(refused).toBeInstanceOf(AppError);
    const error = refused as AppError;
    expect(error.status).toBe(503);
    expect(error.code).toBe('SERVER_BUSY');
    expect(error.message).toMatch(/Tente novamente/);
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(admission.stats().refused).toBe(1);
    held();
    (await waiting)();
  });

  it('refuses at once a request that at the recent pace would wait longer than maxWaitMs', async () => {
    const admission = onePlace({ maxQueued: 100, maxWaitMs: 100, initialHoldMs: 60 });
    const held = await admission.acquire();
    // One ahead of it would take about 60 ms: it waits.
    const waiting = admission.acquire();
    // Two ahead, about 120 ms: refused now, with a Retry-After of at least a second.
    const started = Date.now();
    const refused = await refusalOf(admission);
    expect(Date.now() - started).toBeLessThan(50);
    expect(refused?.code).toBe('SERVER_BUSY');
    expect(refused?.headers['retry-after']).toBe('1');
    held();
    (await waiting)();
  });

  it('refuses a request that waited longer than maxWaitMs', async () => {
    // The recent pace promised a short wait (1 ms), but the place is held longer.
    const admission = onePlace({ maxQueued: 5, maxWaitMs: 40, initialHoldMs: 1 });
    const held = await admission.acquire();
    const started = Date.now();
    const refused = await refusalOf(admission);
    expect(refused?.code).toBe('SERVER_BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(admission.stats()).toMatchObject({ active: 1, queued: 0 });
    held();
  });

  it('a client that leaves while waiting gives its place in line up', async () => {
    const admission = onePlace({ maxQueued: 5, maxWaitMs: 10_000 });
    const held = await admission.acquire();
    const left = new AbortController();
    const gone = admission.acquire(left.signal).catch((error: unknown) => error);
    const next = admission.acquire();
    left.abort();
    expect(await gone).toBeInstanceOf(Error);
    expect(admission.stats().queued).toBe(1);
    held();
    (await next)();
    expect(admission.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('maxActive 0 admits everything (no bound)', async () => {
    const admission = createAdmission({ maxActive: 0, maxQueued: 0, maxWaitMs: 1 });
    expect(admission.enabled).toBe(false);
    const releases = await Promise.all(Array.from({ length: 50 }, () => admission.acquire()));
    for (const release of releases) release();
    expect(admission.stats()).toMatchObject({ active: 0, queued: 0, refused: 0 });
  });
});
