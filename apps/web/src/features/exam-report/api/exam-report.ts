/**
 * Calls of the per-post report screen: the report of a post (or `all`), the
 * exams behind one counter, and the CSV / XLSX exports. Days are sent as
 * `YYYY-MM-DD` (the API's period contract); the end day counts whole.
 */
import { type LocalReportDetail, type ReportExportFormat } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { saveFile } from '../../../lib/save-file';
import {
  reportLocalPath,
  reportPeriodParams,
  type ReportPeriod,
} from '../../../api/report-queries';

export type { ReportPeriod };

const periodParams = reportPeriodParams;
const localPath = reportLocalPath;

export const examReportKeys = {
  all: ['exam-report'] as const,
  detail: (localId: string, period: ReportPeriod) =>
    ['exam-report', 'detail', localId, period] as const,
};

export function localReportQuery(localId: string, period: ReportPeriod) {
  return queryOptions({
    queryKey: examReportKeys.detail(localId, period),
    queryFn: ({ signal }) =>
      api.get<LocalReportDetail>(localPath(localId), { query: periodParams(period), signal }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads an export through the API client and hands it to the browser as a file. */
export async function downloadReport(
  localId: string,
  period: ReportPeriod,
  format: ReportExportFormat,
): Promise<string> {
  const file = await api.download('api/ExamReport/export', {
    query: { ...periodParams(period), format, localId },
  });
  const filename = file.filename ?? `relatorio.${format}`;
  saveFile(file.blob, filename);
  return filename;
}
