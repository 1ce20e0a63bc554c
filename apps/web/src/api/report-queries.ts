/**
 * The report data more than one screen reads: the exams behind a counter,
 * opened from the per-post report (ADMIN) and from the dashboard (ADMIN,
 * auditor). Days go as `YYYY-MM-DD` (the API's period contract).
 */
import type { ReportCounter, ReportExamPage } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

export type ReportPeriod = { startDate: string; endDate: string };

/** The API's period contract: the picked days as they are (São Paulo days, inclusive). */
export function reportPeriodParams(period: ReportPeriod) {
  return { startDate: period.startDate, endDate: period.endDate };
}

export function reportLocalPath(localId: string): string {
  return `api/ExamReport/${encodeURIComponent(localId)}`;
}

export type CounterExamsParams = ReportPeriod & {
  localId: string;
  counter: ReportCounter;
  page: number;
  pageSize: number;
};

export function counterExamsQuery(params: CounterExamsParams) {
  return queryOptions({
    queryKey: ['exam-report', 'exams', params] as const,
    queryFn: ({ signal }) =>
      api.get<ReportExamPage>(`${reportLocalPath(params.localId)}/exams`, {
        query: {
          ...reportPeriodParams(params),
          counter: params.counter,
          page: params.page,
          pageSize: params.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
