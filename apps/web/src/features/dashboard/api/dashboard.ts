/**
 * The dashboard's calls: the counters of each post (`api/ExamReport`) and the
 * occurrences of the period. Picked days are sent as `YYYY-MM-DD` (the API's
 * period contract: São Paulo days, the end day included whole).
 */
import type { LocalReport, ReportOccurrencePage } from '@exame/shared';
import { keepPreviousData, queryOptions, skipToken } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { ReportPeriod } from '../../../api/report-queries';

export function periodQuery(period: ReportPeriod) {
  return { startDate: period.startDate, endDate: period.endDate };
}

export function fetchExamReport(
  period: ReportPeriod,
  signal?: AbortSignal,
): Promise<LocalReport[]> {
  return api.get<LocalReport[]>('api/ExamReport', { query: periodQuery(period), signal });
}

/** The counters of every post and when they were loaded (kept while the next period loads). */
export type DashboardReport = { locals: LocalReport[]; loadedAt: number };

export type OccurrenceParams = ReportPeriod & {
  localId: string | null;
  page: number;
  pageSize: number;
  /** When the counters were loaded: each reload of the counters refreshes the list too. */
  version: number;
};

export const dashboardKeys = {
  all: ['dashboard'] as const,
  report: (period: ReportPeriod | null) => ['dashboard', 'report', period] as const,
  occurrences: (params: OccurrenceParams) => ['dashboard', 'occurrences', params] as const,
};

/**
 * The counters of the period (none without a period), reloaded every
 * `refreshSeconds` (0: never). Always stale, so that picking a period again
 * reloads it; no retry, so that a failure shows at once (spec 8) and the next
 * tick of the timer is the retry. A reload asked for while one is in
 * progress joins it (spec 4): TanStack Query runs one fetch per key.
 */
export function dashboardReportQuery(period: ReportPeriod | null, refreshSeconds: number) {
  return queryOptions({
    queryKey: dashboardKeys.report(period),
    queryFn: period
      ? async ({ signal }): Promise<DashboardReport> => ({
          locals: await fetchExamReport(period, signal),
          loadedAt: Date.now(),
        })
      : skipToken,
    enabled: period !== null,
    staleTime: 0,
    retry: false,
    refetchInterval: refreshSeconds > 0 ? refreshSeconds * 1000 : false,
    // A dashboard left open in another tab or on a wall screen keeps counting.
    refetchIntervalInBackground: true,
    // The counters of the previous period stay on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function occurrencesQuery(params: OccurrenceParams) {
  return queryOptions({
    queryKey: dashboardKeys.occurrences(params),
    queryFn: ({ signal }) =>
      api.get<ReportOccurrencePage>('api/ExamReport/occurrences', {
        query: {
          ...periodQuery(params),
          localId: params.localId ?? undefined,
          page: params.page,
          pageSize: params.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
