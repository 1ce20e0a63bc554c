import { ALL_EXAMS_FILTER, emptyCounters, type LocalReport } from '@exame/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  counterOfFilter,
  createDashboardController,
  DEFAULT_TIMER_SECONDS,
  FILTER_OPTIONS,
  initialDashboardState,
  selectVisibleLocals,
  type DashboardLoader,
  type TimerStorage,
} from './dashboard-state';

function local(id: string, name: string, total: number, approved = 0): LocalReport {
  return { id, name, report: { ...emptyCounters(), total, approved, finished: approved } };
}

type Pending = {
  period: { startDate: string; endDate: string };
  signal: AbortSignal;
  resolve: (locals: LocalReport[]) => void;
  reject: (error: unknown) => void;
};

/** A loader whose answers the test releases one by one. */
function controllableLoader() {
  const calls: Pending[] = [];
  const loader = vi.fn<DashboardLoader>(
    (period, signal) =>
      new Promise<LocalReport[]>((resolve, reject) => {
        calls.push({ period, signal, resolve, reject });
      }),
  );
  return { loader, calls };
}

function memoryTimer(initial: number | null = null): TimerStorage & { value: number | null } {
  const storage = {
    value: initial,
    read: () => storage.value,
    write: (seconds: number) => {
      storage.value = seconds;
    },
  };
  return storage;
}

const MARCH = { startDate: '2026-03-01', endDate: '2026-03-31' };

async function flush() {
  // Lets the loader's promise settle inside fake time.
  await vi.advanceTimersByTimeAsync(0);
}

describe('dashboard transitions (spec 4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(options: { timer?: number | null } = {}) {
    const { loader, calls } = controllableLoader();
    const onError = vi.fn();
    const timerStorage = memoryTimer(options.timer === undefined ? 0 : options.timer);
    const controller = createDashboardController({
      loader,
      onError,
      timerStorage,
      initial: { ...MARCH },
    });
    return { controller, loader, calls, onError, timerStorage };
  }

  it('loads the initial period on start', async () => {
    const { controller, calls } = setup();
    controller.start();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.period).toEqual(MARCH);
    expect(controller.getState().loading).toBe(true);
    calls[0]?.resolve([local('DF.A', 'Posto A', 3, 1), local('DF.B', 'Posto B', 2)]);
    await flush();
    const state = controller.getState();
    expect(state.loading).toBe(false);
    expect(state.locals.map((entry) => entry.id)).toEqual(['DF.A', 'DF.B']);
    expect(state.resume.total).toBe(5);
    expect(state.resume.approved).toBe(1);
    expect(state.version).toBe(1);
    controller.stop();
  });

  it('a start or end date change reloads after exactly 100 ms', async () => {
    const { controller, calls } = setup();
    controller.start();
    calls[0]?.resolve([]);
    await flush();

    controller.setDates('2026-04-01', '2026-04-30');
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.period).toEqual({ startDate: '2026-04-01', endDate: '2026-04-30' });
    calls[1]?.resolve([]);
    await flush();

    controller.setDates('2026-04-01', '2026-04-15');
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.period.endDate).toBe('2026-04-15');
    controller.stop();
  });

  it('changes within 100 ms load once, with the last dates', async () => {
    const { controller, calls } = setup();
    controller.start();
    calls[0]?.resolve([]);
    await flush();
    controller.setDates('2026-05-01', '2026-05-10');
    await vi.advanceTimersByTimeAsync(60);
    controller.setDates('2026-05-01', '2026-05-20');
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.period.endDate).toBe('2026-05-20');
    controller.stop();
  });

  it('does not start a load while another is in progress', async () => {
    const { controller, calls } = setup();
    controller.start();
    void controller.load();
    void controller.load();
    expect(calls).toHaveLength(1);
    calls[0]?.resolve([local('DF.A', 'Posto A', 1)]);
    await flush();
    void controller.load();
    expect(calls).toHaveLength(2);
    controller.stop();
  });

  it('drops an answer for dates changed meanwhile and loads the new period once', async () => {
    const { controller, calls } = setup();
    controller.start();
    controller.setDates('2026-06-01', '2026-06-30');
    await vi.advanceTimersByTimeAsync(100);
    // The delayed reload was skipped: the first load is still in progress.
    expect(calls).toHaveLength(1);
    calls[0]?.resolve([local('DF.OLD', 'Antigo', 9)]);
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1]?.period).toEqual({ startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(controller.getState().locals).toEqual([]);
    calls[1]?.resolve([local('DF.NEW', 'Novo', 4)]);
    await flush();
    expect(controller.getState().locals.map((entry) => entry.id)).toEqual(['DF.NEW']);
    controller.stop();
  });

  it('a missing date resets the data and loads nothing', async () => {
    const { controller, calls } = setup();
    controller.start();
    calls[0]?.resolve([local('DF.A', 'Posto A', 3)]);
    await flush();
    controller.select('DF.A');
    controller.setDates('2026-03-01', null);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(1);
    const state = controller.getState();
    expect(state.locals).toEqual([]);
    expect(state.resume).toEqual(emptyCounters());
    expect(state.selected).toBeNull();
    expect(state.endDate).toBeNull();

    controller.setDates(null, '2026-03-31');
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(1);
    controller.stop();
  });

  it('keeps a selected post absent from a reload, with every counter at zero', async () => {
    const { controller, calls } = setup();
    controller.start();
    calls[0]?.resolve([local('DF.A', 'Posto A', 3), local('DF.B', 'Posto B', 2, 2)]);
    await flush();
    controller.select('DF.B');
    expect(controller.getState().selected?.report.approved).toBe(2);

    controller.setDates('2026-03-02', '2026-03-31');
    await vi.advanceTimersByTimeAsync(100);
    calls[1]?.resolve([local('DF.A', 'Posto A', 1)]);
    await flush();
    expect(controller.getState().selected).toEqual({
      id: 'DF.B',
      name: 'Posto B',
      report: emptyCounters(),
    });
    expect(controller.getState().locals.map((entry) => entry.id)).toEqual(['DF.A']);

    controller.setDates('2026-03-03', '2026-03-31');
    await vi.advanceTimersByTimeAsync(100);
    calls[2]?.resolve([local('DF.A', 'Posto A', 1), local('DF.B', 'Posto B', 7, 5)]);
    await flush();
    expect(controller.getState().selected?.report).toMatchObject({ total: 7, approved: 5 });
    controller.stop();
  });

  it('shows the failure through onError and keeps the data it had', async () => {
    const { controller, calls, onError } = setup();
    controller.start();
    calls[0]?.resolve([local('DF.A', 'Posto A', 3)]);
    await flush();
    void controller.load();
    const failure = new Error('HTTP 500');
    calls[1]?.reject(failure);
    await flush();
    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    const state = controller.getState();
    expect(state.loading).toBe(false);
    expect(state.failed).toBe(true);
    expect(state.locals.map((entry) => entry.id)).toEqual(['DF.A']);
    controller.stop();
  });

  describe('refresh timer', () => {
    it('is set in minutes, stored in seconds, ticks every second and reloads at zero', async () => {
      const { controller, calls, timerStorage } = setup({ timer: 0 });
      controller.start();
      calls[0]?.resolve([]);
      await flush();

      controller.setTimerMinutes(2);
      expect(timerStorage.value).toBe(120);
      expect(controller.getState()).toMatchObject({ timer: 120, seconds: 120 });
      await vi.advanceTimersByTimeAsync(1000);
      expect(controller.getState().seconds).toBe(119);
      await vi.advanceTimersByTimeAsync(118_000);
      expect(controller.getState().seconds).toBe(1);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toHaveLength(2);
      expect(calls[1]?.period).toEqual(MARCH);
      calls[1]?.resolve([local('DF.A', 'Posto A', 1)]);
      await flush();
      expect(controller.getState().seconds).toBe(120);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(calls).toHaveLength(3);
      controller.stop();
    });

    it('reads the stored interval and defaults to 5 minutes', () => {
      const stored = setup({ timer: 90 });
      expect(stored.controller.getState()).toMatchObject({ timer: 90, seconds: 90 });
      const fresh = setup({ timer: null });
      expect(fresh.controller.getState().timer).toBe(DEFAULT_TIMER_SECONDS);
    });

    it('set to zero it never reloads', async () => {
      const { controller, calls } = setup({ timer: 0 });
      controller.start();
      calls[0]?.resolve([]);
      await flush();
      await vi.advanceTimersByTimeAsync(60 * 60_000);
      expect(calls).toHaveLength(1);
      expect(controller.getState().seconds).toBe(0);
      controller.stop();
    });

    it('a reload in progress when it reaches zero is not started again', async () => {
      const { controller, calls } = setup({ timer: 3 });
      controller.start();
      await vi.advanceTimersByTimeAsync(3000);
      expect(calls).toHaveLength(1);
      expect(controller.getState().seconds).toBe(3);
      controller.stop();
    });
  });

  it('stop clears the timers and aborts the load in progress', async () => {
    const { controller, calls } = setup({ timer: 1 });
    controller.start();
    controller.setDates('2026-07-01', '2026-07-31');
    controller.stop();
    expect(calls[0]?.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('filter and search', () => {
  const locals = [
    local('DF.CENTRO', 'Posto Centro', 4, 2),
    local('DF.NORTE', 'Posto Asa Norte', 3, 0),
    local('DF.SUL', 'Posto São Sebastião', 0, 0),
  ];

  it('offers "Todos os exames" first and one pt-BR option per counter', () => {
    expect(FILTER_OPTIONS[0]).toBe(ALL_EXAMS_FILTER);
    expect(FILTER_OPTIONS).toContain('Aprovados');
    expect(FILTER_OPTIONS).toContain('Pendentes de auditoria');
    expect(counterOfFilter('Aprovados')).toBe('approved');
    expect(counterOfFilter(ALL_EXAMS_FILTER)).toBe('total');
  });

  it('keeps the posts whose filtered counter is above zero', () => {
    const state = initialDashboardState({ locals });
    expect(selectVisibleLocals(state)).toHaveLength(3);
    const approved = selectVisibleLocals({ ...state, filterName: 'Aprovados' });
    expect(approved.map((entry) => entry.id)).toEqual(['DF.CENTRO']);
  });

  it('searches by name or id, ignoring case and accents', () => {
    const state = initialDashboardState({ locals });
    expect(selectVisibleLocals({ ...state, search: 'sao seb' }).map((e) => e.id)).toEqual([
      'DF.SUL',
    ]);
    expect(selectVisibleLocals({ ...state, search: 'df.norte' }).map((e) => e.id)).toEqual([
      'DF.NORTE',
    ]);
    expect(selectVisibleLocals({ ...state, search: 'nada' })).toEqual([]);
  });
});
