/**
 * The dashboard bound to React: the screen state in a reducer (dashboard-state.ts)
 * and the counters as server state, a TanStack Query keyed by the applied
 * period and refetched on the interval of the refresh timer, and also soon
 * after an exam of the unit changes (the realtime stream's `exam_changed`).
 */
import {
  dayInZone,
  DASHBOARD_DATE_RELOAD_DELAY_MS,
  sumCounters,
  sumMetadataCounts,
} from '@exame/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { createCoalescedRefresh } from '../../lib/coalesced-refresh';
import { readString, STORAGE_KEYS, writeString } from '../../lib/storage';
import { useRealtimeEvents } from '../../lib/use-realtime';
import { dashboardKeys, dashboardReportQuery } from './api/dashboard';
import {
  dashboardReducer,
  DEFAULT_TIMER_SECONDS,
  initialDashboardState,
  nextRefreshAt,
  parseTimerSeconds,
  periodPending,
  selectedReport,
  selectVisibleLocals,
  timerSecondsFromMinutes,
  type SelectedLocal,
} from './dashboard-state';

export type UseDashboardOptions = {
  onError: (error: Error) => void;
};

/** Changes that come together (an import, a busy morning) reload the counters once. */
export const REALTIME_REFRESH_DELAY_MS = 500;

export function useDashboard(options: UseDashboardOptions) {
  const [state, dispatch] = useReducer(dashboardReducer, undefined, () => {
    // The dashboard opens on today, a São Paulo calendar day.
    const today = dayInZone(new Date());
    return initialDashboardState({
      startDate: today,
      endDate: today,
      // The refresh interval, in seconds, under the `timer` key (spec 3).
      timer: parseTimerSeconds(readString(STORAGE_KEYS.timer)) ?? DEFAULT_TIMER_SECONDS,
      timerSetAt: Date.now(),
    });
  });

  // Spec 4: a start or end date change reloads after 100 ms; changes within
  // that time load once, with the last dates.
  const pending = periodPending(state);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(
      () => dispatch({ type: 'period-applied' }),
      DASHBOARD_DATE_RELOAD_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [pending, state.startDate, state.endDate]);

  const query = useQuery(dashboardReportQuery(state.period, state.timer));
  const queryClient = useQueryClient();
  const refresher = useMemo(
    () =>
      createCoalescedRefresh(queryClient, {
        delayMs: REALTIME_REFRESH_DELAY_MS,
        busyKey: dashboardKeys.all,
        // A load already running is not cancelled (spec 4).
        refresh: () =>
          void queryClient.invalidateQueries(
            { queryKey: dashboardKeys.all },
            { cancelRefetch: false },
          ),
      }),
    [queryClient],
  );
  useEffect(() => () => refresher.cancel(), [refresher]);
  useRealtimeEvents(
    {
      onEvent: (event) => {
        if (event.kind === 'exam_changed') refresher.soon();
      },
      onResync: refresher.soon,
    },
    [],
  );
  // Without a period the data is reset, whatever the previous period left as placeholder.
  const report = state.period ? query.data : undefined;
  const locals = useMemo(() => report?.locals ?? [], [report]);

  // Each failed load is told once (spec 8), newest first; a cached failure
  // seen again when going back to its period is not told again.
  const onError = useRef(options.onError);
  useEffect(() => {
    onError.current = options.onError;
  });
  const toldErrorAt = useRef(0);
  useEffect(() => {
    if (!query.isError || query.errorUpdatedAt <= toldErrorAt.current) return;
    toldErrorAt.current = query.errorUpdatedAt;
    onError.current(query.error);
  }, [query.isError, query.error, query.errorUpdatedAt]);

  const view = useMemo(
    () => ({
      locals,
      resume: sumCounters(locals),
      /** How much of the summary's counters came from the delivery system's metadata. */
      resumeFromMetadata: sumMetadataCounts(locals),
      visibleLocals: selectVisibleLocals(locals, state),
      selected: selectedReport(state.selected, locals),
    }),
    [locals, state],
  );

  const actions = useMemo(
    () => ({
      setDates: (startDate: string | null, endDate: string | null) =>
        dispatch({ type: 'dates-changed', startDate, endDate }),
      select: (local: SelectedLocal | null) =>
        dispatch({
          type: 'select',
          local: local && { id: local.id, identifier: local.identifier, name: local.name },
        }),
      setFilter: (filterName: string) => dispatch({ type: 'filter', filterName }),
      setSearch: (search: string) => dispatch({ type: 'search', search }),
      setTimerMinutes: (minutes: number) => {
        const seconds = timerSecondsFromMinutes(minutes);
        writeString(STORAGE_KEYS.timer, String(seconds));
        dispatch({ type: 'timer-set', seconds, at: Date.now() });
      },
    }),
    [],
  );

  const settledAt = Math.max(report?.loadedAt ?? 0, query.errorUpdatedAt);
  return {
    state,
    ...view,
    /** When the counters on screen were loaded (epoch ms), null before the first load. */
    loadedAt: report?.loadedAt ?? null,
    loading: state.period !== null && query.isFetching,
    /** The last load failed and there is nothing of this period to show. */
    failed: query.isError && report === undefined,
    nextRefreshAt: nextRefreshAt(state, settledAt),
    ...actions,
    /** Reloads now, unless a load of this period is already in progress (spec 4). */
    reload: () => {
      if (state.period) void query.refetch({ cancelRefetch: false });
    },
  };
}
