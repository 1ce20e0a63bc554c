/**
 * Calls of the per-post report screen: the report of a post (or `all`), the
 * exams behind one counter, and the CSV / XLSX exports. Days are sent as the
 * first instant of the day in America/Sao_Paulo; the end day counts whole.
 */
import {
  zonedDayStartIso,
  type LocalReportDetail,
  type ReportCounter,
  type ReportExamPage,
  type ReportExportFormat,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { defaultErrorText, joinUrl } from '../../../lib/api-client';
import { appStore } from '../../../lib/app-store';
import { readWebConfig } from '../../../lib/config';

export type ReportPeriod = { startDate: string; endDate: string };

function periodParams(period: ReportPeriod) {
  return {
    startDate: zonedDayStartIso(period.startDate),
    endDate: zonedDayStartIso(period.endDate),
  };
}

function localPath(localId: string): string {
  return `api/ExamReport/${encodeURIComponent(localId)}`;
}

export const examReportKeys = {
  all: ['exam-report'] as const,
  detail: (localId: string, period: ReportPeriod) =>
    ['exam-report', 'detail', localId, period] as const,
  exams: (params: CounterExamsParams) => ['exam-report', 'exams', params] as const,
};

export function localReportQuery(localId: string, period: ReportPeriod) {
  return queryOptions({
    queryKey: examReportKeys.detail(localId, period),
    queryFn: ({ signal }) =>
      api.get<LocalReportDetail>(localPath(localId), { query: periodParams(period), signal }),
    placeholderData: keepPreviousData,
  });
}

export type CounterExamsParams = ReportPeriod & {
  localId: string;
  counter: ReportCounter;
  page: number;
  pageSize: number;
};

export function counterExamsQuery(params: CounterExamsParams) {
  return queryOptions({
    queryKey: examReportKeys.exams(params),
    queryFn: ({ signal }) =>
      api.get<ReportExamPage>(`${localPath(params.localId)}/exams`, {
        query: {
          ...periodParams(params),
          counter: params.counter,
          page: params.page,
          pageSize: params.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `attachment; filename="a.csv"; filename*=UTF-8''a.csv` -> `a.csv`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1]);
    } catch {
      // Fall back to the plain name below.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}

/**
 * Downloads an export. A file is not JSON, so this goes around the JSON API
 * client, with the same base address, bearer token and error text.
 */
export async function downloadReport(
  localId: string,
  period: ReportPeriod,
  format: ReportExportFormat,
): Promise<string> {
  const url = joinUrl(readWebConfig().apiBaseUrl, 'api/ExamReport/export', {
    ...periodParams(period),
    format,
    localId,
  });
  const token = appStore.getState().user?.token;
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new Error(defaultErrorText('falha de comunicação com o servidor'));
  }
  if (!response.ok) {
    if (response.status === 401 && token) appStore.clearSession();
    const body = (await response.json().catch(() => null)) as { Error?: unknown } | null;
    throw new Error(
      typeof body?.Error === 'string' ? body.Error : defaultErrorText(`HTTP ${response.status}`),
    );
  }
  const blob = await response.blob();
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? `relatorio.${format}`;
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = filename;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has taken the file once the click is handled; free the memory a bit later.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
  return filename;
}
