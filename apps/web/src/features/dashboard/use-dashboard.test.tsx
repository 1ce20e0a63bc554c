/**
 * The dashboard's counters as a TanStack Query keyed by the period, driven
 * with fake timers: the 100 ms date delay, one load at a time, the reset on a
 * missing date, the selected post kept at zero, the failure, and the refresh
 * timer as the query's refetch interval.
 */
import { emptyCounters, emptyMetadataCounts, type LocalReport } from '@exame/shared';
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHookWithProviders } from '../../test/render';
import { useDashboard } from './use-dashboard';

function local(id: string, name: string, total: number, approved = 0): LocalReport {
  return {
    id,
    identifier: id.replace(/^DF\./, 'DEMO.'),
    name,
    report: { ...emptyCounters(), total, approved, finished: approved },
    fromMetadata: emptyMetadataCounts(),
  };
}

type Call = {
  startDate: string | null;
  endDate: string | null;
  signal: AbortSignal | undefined;
  respond: (status: number, body: unknown) => void;
};

/** A server whose answers the test gives one by one. */
function stubServer() {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () =>
        reject(new DOMException('The operation was aborted.', 'AbortError')),
      );
      calls.push({
        startDate: url.searchParams.get('startDate'),
        endDate: url.searchParams.get('endDate'),
        signal: init?.signal ?? undefined,
        respond: (status, body) => resolve(new Response(JSON.stringify(body), { status })),
      });
    });
  });
  return calls;
}

const TODAY = '2026-03-10';

async function flush() {
  // Lets the answers, TanStack Query's notifications and React's renders settle in fake time.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Nothing is loaded before `ms` has passed, and one load starts when it has. */
async function expectLoadAfter(calls: Call[], ms: number) {
  const before = calls.length;
  await advance(ms - 1);
  expect(calls).toHaveLength(before);
  await advance(1);
  expect(calls).toHaveLength(before + 1);
}

function setup(timer: string | null = '0') {
  if (timer !== null) window.localStorage.setItem('timer', timer);
  const calls = stubServer();
  const onError = vi.fn();
  const hook = renderHookWithProviders(() => useDashboard({ onError }));
  return { calls, onError, hook, result: hook.result };
}

describe('useDashboard: the counters keyed by the period (spec 4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // 12:00 in São Paulo.
    vi.setSystemTime(new Date(`${TODAY}T15:00:00Z`));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('loads today on mount, once, and shows the counters and their sum', async () => {
    const { calls, result } = setup();
    await flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ startDate: TODAY, endDate: TODAY });
    expect(result.current.loading).toBe(true);
    calls[0]?.respond(200, [local('DF.A', 'Posto A', 3, 1), local('DF.B', 'Posto B', 2)]);
    await flush();
    expect(result.current.loading).toBe(false);
    expect(result.current.locals.map((entry) => entry.id)).toEqual(['DF.A', 'DF.B']);
    expect(result.current.resume).toMatchObject({ total: 5, approved: 1 });
    expect(result.current.loadedAt).toBe(Date.now());
  });

  it('a start or end date change reloads after exactly 100 ms, with the last dates', async () => {
    const { calls, result } = setup();
    await flush();
    calls[0]?.respond(200, []);
    await flush();

    act(() => result.current.setDates('2026-04-01', '2026-04-30'));
    await advance(60);
    act(() => result.current.setDates('2026-04-01', '2026-04-20'));
    await expectLoadAfter(calls, 100);
    expect(calls[1]).toMatchObject({ startDate: '2026-04-01', endDate: '2026-04-20' });
  });

  it('does not start a load while one of the period is in progress', async () => {
    const { calls, result } = setup('3');
    await flush();
    act(() => {
      result.current.reload();
      result.current.reload();
    });
    // The refresh timer reaching zero during the load joins it too.
    await advance(3000);
    expect(calls).toHaveLength(1);
    calls[0]?.respond(200, [local('DF.A', 'Posto A', 1)]);
    await flush();
    act(() => result.current.reload());
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('a new period while loading drops the old answer and loads the new period', async () => {
    const { calls, result } = setup();
    await flush();
    act(() => result.current.setDates('2026-06-01', '2026-06-30'));
    await advance(100);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(calls[1]).toMatchObject({ startDate: '2026-06-01', endDate: '2026-06-30' });
    calls[1]?.respond(200, [local('DF.NEW', 'Novo', 4)]);
    await flush();
    expect(result.current.locals.map((entry) => entry.id)).toEqual(['DF.NEW']);
  });

  it('a missing date resets the data and the selection and loads nothing', async () => {
    const { calls, result } = setup();
    await flush();
    calls[0]?.respond(200, [local('DF.A', 'Posto A', 3)]);
    await flush();
    act(() => result.current.select(result.current.locals[0] ?? null));
    expect(result.current.selected?.id).toBe('DF.A');

    act(() => result.current.setDates(TODAY, null));
    expect(result.current.locals).toEqual([]);
    expect(result.current.resume).toEqual(emptyCounters());
    expect(result.current.selected).toBeNull();
    expect(result.current.loadedAt).toBeNull();
    act(() => result.current.setDates(null, TODAY));
    await advance(1000);
    expect(calls).toHaveLength(1);

    // The same day picked again loads it again.
    act(() => result.current.setDates(TODAY, TODAY));
    await advance(100);
    expect(calls).toHaveLength(2);
  });

  it('keeps a selected post absent from a reload, with every counter at zero', async () => {
    const { calls, result } = setup();
    await flush();
    calls[0]?.respond(200, [local('DF.A', 'Posto A', 3), local('DF.B', 'Posto B', 2, 2)]);
    await flush();
    act(() => result.current.select(result.current.locals[1] ?? null));
    expect(result.current.selected?.report.approved).toBe(2);

    act(() => result.current.setDates('2026-03-02', '2026-03-31'));
    await advance(100);
    calls[1]?.respond(200, [local('DF.A', 'Posto A', 1)]);
    await flush();
    expect(result.current.selected).toEqual({
      id: 'DF.B',
      identifier: 'DEMO.B',
      name: 'Posto B',
      report: emptyCounters(),
      fromMetadata: emptyMetadataCounts(),
    });
    expect(result.current.locals.map((entry) => entry.id)).toEqual(['DF.A']);

    act(() => result.current.setDates('2026-03-03', '2026-03-31'));
    await advance(100);
    calls[2]?.respond(200, [local('DF.A', 'Posto A', 1), local('DF.B', 'Posto B', 7, 5)]);
    await flush();
    expect(result.current.selected?.report).toMatchObject({ total: 7, approved: 5 });
  });

  it('tells each failure once and keeps the data it had', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { calls, onError, result } = setup();
    await flush();
    calls[0]?.respond(200, [local('DF.A', 'Posto A', 3)]);
    await flush();
    act(() => result.current.reload());
    await flush();
    calls[1]?.respond(503, { Error: 'Banco indisponível.', code: 'SERVICE_UNAVAILABLE' });
    await flush();
    // No retry: the failure shows at once, and the timer is the next try.
    expect(calls).toHaveLength(2);
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ message: 'Banco indisponível.' });
    expect(result.current.failed).toBe(false);
    expect(result.current.locals.map((entry) => entry.id)).toEqual(['DF.A']);

    // A period that never loaded has nothing to show.
    act(() => result.current.setDates('2026-05-01', '2026-05-31'));
    await advance(100);
    calls[2]?.respond(500, { Error: 'Falhou.', code: 'INTERNAL_ERROR' });
    await flush();
    expect(onError).toHaveBeenCalledTimes(2);
    expect(result.current.failed).toBe(true);
    expect(result.current.locals).toEqual([]);
  });

  describe('refresh timer as the refetch interval', () => {
    it('reloads the same period every interval after each load', async () => {
      const { calls, result } = setup('120');
      await flush();
      calls[0]?.respond(200, []);
      await flush();
      expect(result.current.nextRefreshAt).toBe(Date.now() + 120_000);
      await expectLoadAfter(calls, 120_000);
      expect(calls[1]).toMatchObject({ startDate: TODAY, endDate: TODAY });
      // A slow answer: the next interval counts from when it arrives.
      await advance(5_000);
      calls[1]?.respond(200, [local('DF.A', 'Posto A', 1)]);
      await flush();
      expect(result.current.nextRefreshAt).toBe(Date.now() + 120_000);
      await expectLoadAfter(calls, 120_000);
    });

    it('is set in minutes, stored in seconds under "timer", and the interval follows it', async () => {
      const { calls, result } = setup('0');
      await flush();
      calls[0]?.respond(200, []);
      await flush();
      act(() => result.current.setTimerMinutes(2));
      expect(window.localStorage.getItem('timer')).toBe('120');
      expect(result.current.state.timer).toBe(120);
      expect(result.current.nextRefreshAt).toBe(Date.now() + 120_000);
      await expectLoadAfter(calls, 120_000);
    });

    it('reads the stored interval and defaults to 5 minutes', () => {
      stubServer();
      expect(setup('90').result.current.state.timer).toBe(90);
      window.localStorage.clear();
      expect(setup(null).result.current.state.timer).toBe(300);
    });

    it('set to zero it never reloads', async () => {
      const { calls, result } = setup('0');
      await flush();
      calls[0]?.respond(200, []);
      await flush();
      await advance(60 * 60_000);
      expect(calls).toHaveLength(1);
      expect(result.current.nextRefreshAt).toBeNull();
    });
  });

  it('leaving the dashboard aborts the load in progress and stops the timer', async () => {
    const { calls, hook } = setup('1');
    await flush();
    hook.unmount();
    expect(calls[0]?.signal?.aborted).toBe(true);
    await advance(10_000);
    expect(calls).toHaveLength(1);
  });
});
