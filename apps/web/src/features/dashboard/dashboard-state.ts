/**
 * Screen state of the service-post dashboard (spec 3, 4), apart from React:
 * the picked dates and the period they became, the selected post, the
 * counter filter, the search and the refresh timer. The counters themselves
 * are server state, fetched with TanStack Query keyed by the applied period
 * (see use-dashboard.ts); the selectors below combine the two.
 * - a start or end date change becomes the applied period after 100 ms;
 * - a missing date clears the period (no data) and the selection at once;
 * - a selected post absent from the data stays selected with every counter 0;
 * - the refresh timer is set in minutes and kept in seconds under `timer`.
 */
import {
  ALL_EXAMS_FILTER,
  emptyCounters,
  emptyMetadataCounts,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  type LocalReport,
  type ReportCounter,
} from '@exame/shared';
import type { ReportPeriod } from '../../api/report-queries';

/** Refresh every 5 minutes until the person sets another interval. */
export const DEFAULT_TIMER_SECONDS = 300;
export const MAX_TIMER_MINUTES = 120;

/** A post the person picked: its report id, and how the screen names it. */
export type SelectedLocal = { id: string; identifier: string | null; name: string };

export type DashboardState = {
  /** The days in the picker, as the person picks them. */
  startDate: string | null;
  endDate: string | null;
  /** The period the counters are loaded for: the picked days once settled, or null. */
  period: ReportPeriod | null;
  selected: SelectedLocal | null;
  /** `Todos os exames` or the label of one counter. */
  filterName: string;
  search: string;
  /** The refresh interval in seconds; 0 turns the timer off. */
  timer: number;
  /** When the interval was last set (epoch ms): the countdown restarts from there. */
  timerSetAt: number | null;
};

export type DashboardAction =
  | { type: 'dates-changed'; startDate: string | null; endDate: string | null }
  | { type: 'period-applied' }
  | { type: 'select'; local: SelectedLocal | null }
  | { type: 'filter'; filterName: string }
  | { type: 'search'; search: string }
  | { type: 'timer-set'; seconds: number; at: number };

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

function periodOf(startDate: string | null, endDate: string | null): ReportPeriod | null {
  return startDate && endDate ? { startDate, endDate } : null;
}

export function initialDashboardState(overrides: Partial<DashboardState> = {}): DashboardState {
  const startDate = overrides.startDate ?? null;
  const endDate = overrides.endDate ?? null;
  return {
    startDate,
    endDate,
    // The first period loads at once; only later changes wait.
    period: periodOf(startDate, endDate),
    selected: null,
    filterName: ALL_EXAMS_FILTER,
    search: '',
    timer: DEFAULT_TIMER_SECONDS,
    timerSetAt: null,
    ...overrides,
  };
}

/** True while the picked days differ from the loaded period: the delayed reload is due. */
export function periodPending(state: DashboardState): boolean {
  const picked = periodOf(state.startDate, state.endDate);
  return (
    picked !== null &&
    (picked.startDate !== state.period?.startDate || picked.endDate !== state.period.endDate)
  );
}

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'dates-changed': {
      if (action.startDate === state.startDate && action.endDate === state.endDate) return state;
      const complete = action.startDate !== null && action.endDate !== null;
      return {
        ...state,
        startDate: action.startDate,
        endDate: action.endDate,
        // A missing date resets the data now; a full range waits for `period-applied`.
        period: complete ? state.period : null,
        selected: complete ? state.selected : null,
      };
    }
    case 'period-applied':
      return periodPending(state)
        ? { ...state, period: periodOf(state.startDate, state.endDate) }
        : state;
    case 'select':
      return { ...state, selected: action.local };
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
      return { ...state, timer: action.seconds, timerSetAt: action.at };
  }
}

/** The selected post as loaded, or, when the data has no such post, with every counter 0. */
export function selectedReport(
  selected: SelectedLocal | null,
  locals: readonly LocalReport[],
): LocalReport | null {
  if (!selected) return null;
  return (
    locals.find((local) => local.id === selected.id) ?? {
      ...selected,
      report: emptyCounters(),
      fromMetadata: emptyMetadataCounts(),
    }
  );
}

function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/**
 * The posts on screen: those with the filtered counter above zero, matching
 * the search by name or by the post's own identifier (the one on screen).
 */
export function selectVisibleLocals(
  locals: readonly LocalReport[],
  view: Pick<DashboardState, 'filterName' | 'search'>,
): LocalReport[] {
  const counter = counterOfFilter(view.filterName);
  const search = normalise(view.search);
  return locals.filter(
    (local) =>
      (view.filterName === ALL_EXAMS_FILTER || local.report[counter] > 0) &&
      (search === '' || normalise(`${local.name} ${local.identifier ?? ''}`).includes(search)),
  );
}

export function parseTimerSeconds(value: string | null): number | null {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return null;
  return Math.min(Number(value), MAX_TIMER_MINUTES * 60);
}

/** The timer is set in minutes and kept in seconds (spec 3, 9), between 0 and 2 hours. */
export function timerSecondsFromMinutes(minutes: number): number {
  return Number.isFinite(minutes)
    ? Math.min(Math.max(0, Math.round(minutes * 60)), MAX_TIMER_MINUTES * 60)
    : 0;
}

/**
 * When the next automatic reload is due (epoch ms), or null when the timer is
 * off or there is no period. TanStack Query restarts the interval whenever the
 * query settles and whenever the interval changes, so the countdown starts
 * from the latest of the two.
 */
export function nextRefreshAt(
  state: Pick<DashboardState, 'timer' | 'timerSetAt' | 'period'>,
  settledAt: number,
): number | null {
  if (state.timer <= 0 || state.period === null) return null;
  return Math.max(settledAt, state.timerSetAt ?? 0) + state.timer * 1000;
}
