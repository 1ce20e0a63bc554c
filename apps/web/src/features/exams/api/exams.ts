/** Exams API (list, detail, CSV import); query keys live in these factories only. */
import type { BatchResult, Exam, ExamResult, ExamStatus } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError, defaultErrorText, joinUrl } from '../../../lib/api-client';
import { appStore } from '../../../lib/app-store';
import { readWebConfig } from '../../../lib/config';

export type ExamListParams = {
  startDate: Date | null;
  endDate: Date | null;
  schedulingLocal: string[];
  status: ExamStatus[];
  result: ExamResult[];
  search: string;
  page: number;
  pageSize: number;
  sort: 'schedulingDate' | 'candidateName' | 'status' | 'schedulingLocal';
  order: 'asc' | 'desc';
};

export type ExamPage = { items: Exam[]; total: number; page: number; pageSize: number };

export type ExamDetail = {
  exam: Exam;
  history: Array<{
    fromStatus: string | null;
    toStatus: string;
    fromResult: string | null;
    toResult: string | null;
    source: string;
    at: string;
  }>;
  occurrences: Array<{
    id: string;
    type: string;
    description: string;
    occurredAt: string;
    photoUrl: string | null;
  }>;
  photos: Array<{ id: string; capturedAt: string; url: string; width: number; height: number }>;
};

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

/**
 * Sends the CSV with upload progress (fetch has none), with the same error
 * rules as the API client: the server's `Error` and its per-line details.
 */
export function importExamsCsv(
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<ImportOutcome> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', joinUrl(readWebConfig().apiBaseUrl, 'api/Exam/import'));
    const token = appStore.getState().user?.token;
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.setRequestHeader('content-type', 'text/csv');
    request.timeout = 300_000;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: {
        Error?: string;
        code?: string;
        details?: Array<{ path: string; message: string }>;
      } | null = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve(body as unknown as ImportOutcome);
        return;
      }
      const error = new ApiError(
        body?.Error ?? defaultErrorText(`HTTP ${request.status}`),
        request.status,
        body?.code ?? null,
      );
      reject(Object.assign(error, { details: body?.details ?? [] }));
    };
    request.onerror = () =>
      reject(
        new ApiError(
          defaultErrorText('falha de comunicação com o servidor'),
          null,
          'NETWORK_ERROR',
        ),
      );
    request.ontimeout = () =>
      reject(new ApiError(defaultErrorText('tempo limite de 300 s excedido'), null, 'TIMEOUT'));
    request.send(file);
  });
}
