/**
 * The exam report of spec 7 and the dashboard data. The unit is always the
 * signed-in user's, whatever the request says; the period is checked here and
 * turned into instants ([start of the start day, start of the day after the
 * end day)), so the SQL compares timestamptz values only.
 */
import {
  ALL_LOCALS_ID,
  ALL_LOCALS_NAME,
  compareLocalReports,
  isReportCounter,
  isValidLocalId,
  localPrefixFor,
  maskCpf,
  pageReply,
  PERIOD_ERRORS,
  REPORT_ERRORS,
  resolvePeriod,
  sumCounters,
  sumMetadataCounts,
  UNKNOWN_LOCAL_NAME,
  emptyCounters,
  emptyMetadataCounts,
  type LocalReport,
  type LocalReportDetail,
  type ReportErrorCode,
  type ReportExamPage,
  type ReportExportFormat,
  type ReportOccurrencePage,
  type ReportQuery,
} from '@exame/shared';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { SessionUser } from '../../lib/actors';
import {
  countByLocal,
  listCounterExams,
  listOccurrences,
  type ReportScope,
} from './exam-report.repository';
import { findNamingLocal } from './report-locals.repository';
import { renderCsv, renderXlsx } from './exam-report.export';

export type ExamReportDeps = {
  db: Database;
  /** `REPORT_LOCAL_PREFIXES`: the scheduling-local prefix of each unit. */
  prefixes: Readonly<Record<string, string>>;
};

function reportError(code: ReportErrorCode): AppError {
  return AppError.from(REPORT_ERRORS, code);
}

type Period = { scope: ReportScope; startDay: string; endDay: string };

function periodFor(deps: ExamReportDeps, actor: SessionUser, query: ReportQuery): Period {
  const period = resolvePeriod(query.startDate, query.endDate);
  if (!period.ok) throw AppError.from(PERIOD_ERRORS, period.code);
  return {
    scope: {
      unit: actor.federativeUnit,
      prefix: localPrefixFor(actor.federativeUnit, deps.prefixes),
      start: period.start,
      endExclusive: period.endExclusive,
    },
    startDay: period.startDay,
    endDay: period.endDay,
  };
}

/** A path or query local id: `all` (or nothing) means every post. */
function localFilter(localId: string | undefined): string | undefined {
  if (localId === undefined || localId === ALL_LOCALS_ID) return undefined;
  if (!isValidLocalId(localId)) throw reportError('REPORT_INVALID_LOCAL');
  return localId;
}

/** `GET api/ExamReport`: the counters of each post of the user's unit in the period. */
export async function getExamReport(
  deps: ExamReportDeps,
  actor: SessionUser,
  query: ReportQuery,
): Promise<LocalReport[]> {
  const { scope } = periodFor(deps, actor, query);
  const rows = await countByLocal(deps.db, scope);
  return rows.sort(compareLocalReports);
}

/** `GET api/ExamReport/{localId}`: one post, or every post (`all`) with their sum. */
export async function getLocalReport(
  deps: ExamReportDeps,
  actor: SessionUser,
  localId: string,
  query: ReportQuery,
): Promise<LocalReportDetail> {
  const { scope, startDay, endDay } = periodFor(deps, actor, query);
  const only = localFilter(localId);
  const locals = (await countByLocal(deps.db, scope, only)).sort(compareLocalReports);
  if (only === undefined) {
    return {
      id: ALL_LOCALS_ID,
      identifier: null,
      name: ALL_LOCALS_NAME,
      startDay,
      endDay,
      report: sumCounters(locals),
      fromMetadata: sumMetadataCounts(locals),
      locals,
    };
  }
  // A post without exams in the period still has a report: all zero.
  const naming = locals[0] ? null : await findNamingLocal(deps.db, scope, only);
  const local = locals[0] ?? {
    id: only,
    identifier: naming?.identifier ?? null,
    name: naming?.description ?? UNKNOWN_LOCAL_NAME,
    report: emptyCounters(),
    fromMetadata: emptyMetadataCounts(),
  };
  return { ...local, startDay, endDay, locals: [local] };
}

/** `GET api/ExamReport/{localId}/exams`: the exams behind one counter, paginated. */
export async function getCounterExams(
  deps: ExamReportDeps,
  actor: SessionUser,
  localId: string,
  query: ReportQuery & { counter?: string; page: number; pageSize: number },
): Promise<ReportExamPage> {
  const counter = query.counter ?? 'total';
  if (!isReportCounter(counter)) throw reportError('REPORT_INVALID_COUNTER');
  const { scope } = periodFor(deps, actor, query);
  const found = await listCounterExams(deps.db, scope, {
    counter,
    localId: localFilter(localId),
    page: query.page,
    pageSize: query.pageSize,
  });
  return {
    counter,
    counterValue: found.counterValue,
    ...pageReply(query, {
      items: found.items.map((row) => ({
        ...row,
        candidateCpf: maskCpf(row.candidateCpf),
        schedulingDate: row.schedulingDate.toISOString(),
      })),
      total: found.total,
    }),
  };
}

/** `GET api/ExamReport/occurrences`: occurrences of the exams of the period, newest exam first. */
export async function getReportOccurrences(
  deps: ExamReportDeps,
  actor: SessionUser,
  query: ReportQuery & { localId?: string; page: number; pageSize: number },
): Promise<ReportOccurrencePage> {
  const { scope } = periodFor(deps, actor, query);
  const found = await listOccurrences(deps.db, scope, {
    localId: localFilter(query.localId),
    page: query.page,
    pageSize: query.pageSize,
  });
  return pageReply(query, {
    items: found.items.map((row) => ({ ...row, occurredAt: row.occurredAt.toISOString() })),
    total: found.total,
    totalCapped: found.totalCapped,
  });
}

export type ReportFile = { filename: string; contentType: string; body: Buffer };

const CONTENT_TYPES: Readonly<Record<ReportExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function isExportFormat(value: string | undefined): value is ReportExportFormat {
  return value === 'csv' || value === 'xlsx';
}

/** `GET api/ExamReport/export`: the same report as `GET api/ExamReport/{localId}`, as a file. */
export async function exportExamReport(
  deps: ExamReportDeps,
  actor: SessionUser,
  query: ReportQuery & { format?: string; localId?: string },
): Promise<ReportFile> {
  const format = query.format?.toLowerCase();
  if (!isExportFormat(format)) throw reportError('REPORT_INVALID_FORMAT');
  const detail = await getLocalReport(deps, actor, query.localId ?? ALL_LOCALS_ID, query);
  // The file names the post as the screen does: by its own identifier, never the report id.
  const localPart =
    detail.id === ALL_LOCALS_ID
      ? 'todos'
      : (detail.identifier ?? detail.id).replace(/[^A-Za-z0-9._-]+/g, '_');
  const filename = `relatorio-postos-${localPart}-${detail.startDay}-a-${detail.endDay}.${format}`;
  const body = format === 'csv' ? renderCsv(detail) : await renderXlsx(detail);
  return { filename, contentType: CONTENT_TYPES[format], body };
}
