/**
 * State and transitions of the service-post dashboard (spec 3, 4), apart
 * from React so they can be driven with fake timers:
 * - a start or end date change reloads after 100 ms;
 * - a load is not started while another is in progress;
 * - a missing date resets the data instead of loading;
 * - a selected post absent from a reload stays selected with every counter 0;
 * - the refresh timer is set in minutes, kept in seconds under `timer`,
 *   ticks every second and reloads when it reaches zero.
 * The reducer is pure; the controller owns the timers and the loader, both
 * injected.
 */
import {
  ALL_EXAMS_FILTER,
  DASHBOARD_DATE_RELOAD_DELAY_MS,
  emptyCounters,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  sumCounters,
  type LocalReport,
  type ReportCounter,
  type ReportCounters,
} from '@exame/shared';

export const TIMER_TICK_MS = 1000;
/** Refresh every 5 minutes until the person sets another interval. */
export const DEFAULT_TIMER_SECONDS = 300;
export const MAX_TIMER_MINUTES = 120;

export type DashboardState = {
  /** The counters of every post together. */
  resume: ReportCounters;
  loading: boolean;
  locals: LocalReport[];
  selected: LocalReport | null;
  /** `Todos os exames` or the label of one counter. */
  filterName: string;
  startDate: string | null;
  endDate: string | null;
  search: string;
  /** The refresh interval in seconds; 0 turns the timer off. */
  timer: number;
  /** Seconds left before the timer reloads. */
  seconds: number;
  /** When the data shown was loaded (epoch ms), null before the first load. */
  loadedAt: number | null;
  /** Counts successful loads, so views of the same period refresh with the counters. */
  version: number;
  failed: boolean;
};

export type DashboardAction =
  | { type: 'dates-changed'; startDate: string | null; endDate: string | null }
  | { type: 'load-started' }
  | { type: 'load-succeeded'; locals: LocalReport[]; at: number }
  | { type: 'load-failed' }
  | { type: 'load-discarded' }
  | { type: 'reset' }
  | { type: 'select'; id: string | null }
  | { type: 'filter'; filterName: string }
  | { type: 'search'; search: string }
  | { type: 'timer-set'; seconds: number }
  | { type: 'tick' };

export const FILTER_OPTIONS: readonly string[] = [
  ALL_EXAMS_FILTER,
  ...REPORT_COUNTERS.filter((counter) => counter !== 'total').map(
    (counter) => REPORT_COUNTER_LABELS[counter],
  ),
];

/** The counter a filter name stands for; `Todos os exames` is the total. */
export function counterOfFilter(filterName: string): ReportCounter {
  const found = REPORT_COUNTERS.find((counter) => REPORT_COUNTER_LABELS[counter] === filterName);
  return found ?? 'total';
}

export function initialDashboardState(overrides: Partial<DashboardState> = {}): DashboardState {
  const timer = overrides.timer ?? DEFAULT_TIMER_SECONDS;
  return {
    resume: emptyCounters(),
    loading: false,
    locals: [],
    selected: null,
    filterName: ALL_EXAMS_FILTER,
    startDate: null,
    endDate: null,
    search: '',
    timer,
    seconds: timer,
    loadedAt: null,
    version: 0,
    failed: false,
    ...overrides,
  };
}

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'dates-changed':
      return { ...state, startDate: action.startDate, endDate: action.endDate };
    case 'load-started':
      return { ...state, loading: true };
    case 'load-succeeded': {
      let selected = state.selected;
      if (selected) {
        const id = selected.id;
        selected = action.locals.find((local) => local.id === id) ?? {
          ...selected,
          report: emptyCounters(),
        };
      }
      return {
        ...state,
        loading: false,
        failed: false,
        locals: action.locals,
        resume: sumCounters(action.locals),
        selected,
        loadedAt: action.at,
        version: state.version + 1,
        seconds: state.timer,
      };
    }
    case 'load-failed':
      return { ...state, loading: false, failed: true, seconds: state.timer };
    case 'load-discarded':
      return { ...state, loading: false };
    case 'reset':
      return {
        ...state,
        locals: [],
        resume: emptyCounters(),
        selected: null,
        loadedAt: null,
        failed: false,
        seconds: state.timer,
      };
    case 'select': {
      if (action.id === null) return { ...state, selected: null };
      const local = state.locals.find((entry) => entry.id === action.id);
      return local ? { ...state, selected: local } : state;
    }
    case 'filter':
      return {
        ...state,
        filterName: FILTER_OPTIONS.includes(action.filterName)
          ? action.filterName
          : ALL_EXAMS_FILTER,
      };
    case 'search':
      return { ...state, search: action.search };
    case 'timer-set':
      return { ...state, timer: action.seconds, seconds: action.seconds };
    case 'tick':
      if (state.timer <= 0) return state;
      return { ...state, seconds: Math.max(0, state.seconds - 1) };
  }
}

function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** The posts on screen: those with the filtered counter above zero, matching the search. */
export function selectVisibleLocals(state: DashboardState): LocalReport[] {
  const counter = counterOfFilter(state.filterName);
  const search = normalise(state.search);
  return state.locals.filter(
    (local) =>
      (state.filterName === ALL_EXAMS_FILTER || local.report[counter] > 0) &&
      (search === '' || normalise(`${local.name} ${local.id}`).includes(search)),
  );
}

export type Scheduler = {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  now: () => number;
};

/** Reads the timers at call time, so a test's fake timers are the ones used. */
export const browserScheduler: Scheduler = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

export type TimerStorage = {
  read: () => number | null;
  write: (seconds: number) => void;
};

export type DashboardLoader = (
  period: { startDate: string; endDate: string },
  signal: AbortSignal,
) => Promise<LocalReport[]>;

export type DashboardControllerOptions = {
  loader: DashboardLoader;
  onError: (error: unknown) => void;
  scheduler?: Scheduler;
  timerStorage?: TimerStorage;
  initial?: Partial<DashboardState>;
};

export function parseTimerSeconds(value: string | null): number | null {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return null;
  return Math.min(Number(value), MAX_TIMER_MINUTES * 60);
}

export function createDashboardController(options: DashboardControllerOptions) {
  const scheduler = options.scheduler ?? browserScheduler;
  const storedTimer = options.timerStorage?.read() ?? null;
  let state = initialDashboardState({
    ...(storedTimer === null ? {} : { timer: storedTimer, seconds: storedTimer }),
    ...options.initial,
  });
  const listeners = new Set<() => void>();
  let dateTimer: unknown = null;
  let tickTimer: unknown = null;
  let inFlight: AbortController | null = null;
  let stopped = false;
  let onError = options.onError;

  const dispatch = (action: DashboardAction) => {
    const next = dashboardReducer(state, action);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };

  async function load(): Promise<void> {
    if (stopped || state.loading) return;
    const { startDate, endDate } = state;
    if (!startDate || !endDate) {
      dispatch({ type: 'reset' });
      return;
    }
    const controller = new AbortController();
    inFlight = controller;
    dispatch({ type: 'load-started' });
    try {
      const locals = await options.loader({ startDate, endDate }, controller.signal);
      if (stopped || controller.signal.aborted) return;
      if (state.startDate !== startDate || state.endDate !== endDate) {
        // The dates changed while loading (that reload was skipped): load the new period instead.
        dispatch({ type: 'load-discarded' });
        void load();
        return;
      }
      dispatch({ type: 'load-succeeded', locals, at: scheduler.now() });
    } catch (error) {
      if (stopped || controller.signal.aborted) return;
      dispatch({ type: 'load-failed' });
      onError(error);
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  function tick(): void {
    if (state.timer <= 0) return;
    dispatch({ type: 'tick' });
    if (state.seconds === 0) {
      // A reload already in progress counts as this one; the countdown restarts either way.
      if (state.loading) dispatch({ type: 'timer-set', seconds: state.timer });
      else void load();
    }
  }

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Starts the one-second tick and loads the current period. */
    start() {
      stopped = false;
      if (tickTimer === null) tickTimer = scheduler.setInterval(tick, TIMER_TICK_MS);
      void load();
    },
    stop() {
      stopped = true;
      if (tickTimer !== null) scheduler.clearInterval(tickTimer);
      if (dateTimer !== null) scheduler.clearTimeout(dateTimer);
      tickTimer = null;
      dateTimer = null;
      inFlight?.abort();
      inFlight = null;
      if (state.loading) dispatch({ type: 'load-discarded' });
    },
    load,
    setDates(startDate: string | null, endDate: string | null) {
      if (startDate === state.startDate && endDate === state.endDate) return;
      dispatch({ type: 'dates-changed', startDate, endDate });
      if (dateTimer !== null) scheduler.clearTimeout(dateTimer);
      dateTimer = scheduler.setTimeout(() => {
        dateTimer = null;
        void load();
      }, DASHBOARD_DATE_RELOAD_DELAY_MS);
    },
    select(id: string | null) {
      dispatch({ type: 'select', id });
    },
    setFilter(filterName: string) {
      dispatch({ type: 'filter', filterName });
    },
    setSearch(search: string) {
      dispatch({ type: 'search', search });
    },
    /** Replaces the failure handler (the React hook passes the latest one). */
    setErrorHandler(handler: (error: unknown) => void) {
      onError = handler;
    },
    /** The timer is set in minutes and kept in seconds (spec 3, 9). */
    setTimerMinutes(minutes: number) {
      const clamped = Number.isFinite(minutes)
        ? Math.min(Math.max(0, Math.round(minutes * 60)), MAX_TIMER_MINUTES * 60)
        : 0;
      options.timerStorage?.write(clamped);
      dispatch({ type: 'timer-set', seconds: clamped });
    },
  };
}

export type DashboardController = ReturnType<typeof createDashboardController>;
