/** Exams API (list, detail, CSV import); query keys live in these factories only. */
import type {
  BatchResult,
  ExamDetail,
  ExamPage,
  ExamResult,
  ExamSort,
  ExamStatus,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type ExamListParams = {
  /** `YYYY-MM-DD`, a day in São Paulo (the API's period contract), inclusive. */
  startDate: string | null;
  endDate: string | null;
  schedulingLocal: string[];
  status: ExamStatus[];
  result: ExamResult[];
  search: string;
  page: number;
  pageSize: number;
  sort: ExamSort;
  order: 'asc' | 'desc';
};

export type { ExamDetail, ExamPage };

export const examKeys = {
  all: ['exams'] as const,
  list: (params: ExamListParams) => ['exams', 'list', params] as const,
  detail: (schedulingId: string) => ['exams', 'detail', schedulingId] as const,
};

export function examListQuery(params: ExamListParams) {
  return queryOptions({
    queryKey: examKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<ExamPage>('api/Exam', {
        signal,
        query: {
          startDate: params.startDate ?? undefined,
          endDate: params.endDate ?? undefined,
          schedulingLocal: params.schedulingLocal.length ? params.schedulingLocal : undefined,
          status: params.status.length ? params.status : undefined,
          result: params.result.length ? params.result : undefined,
          search: params.search || undefined,
          page: params.page,
          pageSize: params.pageSize,
          sort: params.sort,
          order: params.order,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export function examDetailQuery(schedulingId: string) {
  return queryOptions({
    queryKey: examKeys.detail(schedulingId),
    queryFn: ({ signal }) =>
      api.get<ExamDetail>(`api/Exam/${encodeURIComponent(schedulingId)}`, { signal }),
    // Photo addresses are signed for a few minutes: refresh before they expire.
    staleTime: 60_000,
    refetchInterval: 4 * 60_000,
  });
}

export type ImportOutcome = BatchResult & { rows: number };

/** Sends the CSV with upload progress; a rejected file lists its problems in `details`. */
export function importExamsCsv(
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<ImportOutcome> {
  return api.upload<ImportOutcome>('api/Exam/import', file, {
    contentType: 'text/csv',
    onProgress,
    timeoutMs: 300_000,
  });
}
