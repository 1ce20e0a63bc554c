/**
 * The dashboard's calls: the counters of each post (`api/ExamReport`) and the
 * occurrences of the period. Picked days are sent as `YYYY-MM-DD` (the API's
 * period contract: São Paulo days, the end day included whole).
 */
import type { LocalReport, ReportOccurrencePage } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type Period = { startDate: string; endDate: string };

export function periodQuery(period: Period) {
  return { startDate: period.startDate, endDate: period.endDate };
}

export function fetchExamReport(period: Period, signal?: AbortSignal): Promise<LocalReport[]> {
  return api.get<LocalReport[]>('api/ExamReport', { query: periodQuery(period), signal });
}

export type OccurrenceParams = Period & {
  localId: string | null;
  page: number;
  pageSize: number;
  /** The dashboard's load count: each reload of the counters refreshes the list too. */
  version: number;
};

export const dashboardKeys = {
  all: ['dashboard'] as const,
  occurrences: (params: OccurrenceParams) => ['dashboard', 'occurrences', params] as const,
};

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
