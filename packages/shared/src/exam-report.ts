/**
 * The per-local exam report (spec 3, 4, 5, 7): counters, the local-id rule,
 * the report period and the schemas of the `api/ExamReport` routes. The server
 * counts in SQL; `countLocalReports` is the JavaScript reference of the same
 * rules, used by the tests (SQL must equal it) and as the benchmark baseline.
 */
import { z } from 'zod';
import { EXAM_RESULTS, EXAM_STATUSES, type ExamResult, type ExamStatus } from './exams';

export const REPORT_COUNTERS = [
  'total',
  'scheduled',
  'started',
  'finished',
  'approved',
  'reproved',
  'pendingAudit',
  'absence',
  'interrupted',
  'disqualified',
] as const;
export type ReportCounter = (typeof REPORT_COUNTERS)[number];

export const REPORT_COUNTER_LABELS: Readonly<Record<ReportCounter, string>> = {
  total: 'Total de exames',
  scheduled: 'Agendados',
  started: 'Iniciados',
  finished: 'Finalizados',
  approved: 'Aprovados',
  reproved: 'Reprovados',
  pendingAudit: 'Pendentes de auditoria',
  absence: 'Ausentes',
  interrupted: 'Interrompidos',
  disqualified: 'Desclassificados',
};

/** The dashboard's default counter filter (spec 3: filterName). */
export const ALL_EXAMS_FILTER = 'Todos os exames';

export function isReportCounter(value: unknown): value is ReportCounter {
  return typeof value === 'string' && (REPORT_COUNTERS as readonly string[]).includes(value);
}

export const reportCountersSchema = z.object({
  total: z.number().int(),
  scheduled: z.number().int(),
  started: z.number().int(),
  finished: z.number().int(),
  approved: z.number().int(),
  reproved: z.number().int(),
  pendingAudit: z.number().int(),
  absence: z.number().int(),
  interrupted: z.number().int(),
  disqualified: z.number().int(),
});
export type ReportCounters = z.infer<typeof reportCountersSchema>;

export function emptyCounters(): ReportCounters {
  return {
    total: 0,
    scheduled: 0,
    started: 0,
    finished: 0,
    approved: 0,
    reproved: 0,
    pendingAudit: 0,
    absence: 0,
    interrupted: 0,
    disqualified: 0,
  };
}

export function addCounters(into: ReportCounters, other: ReportCounters): ReportCounters {
  for (const counter of REPORT_COUNTERS) into[counter] += other[counter];
  return into;
}

export function sumCounters(reports: ReadonlyArray<{ report: ReportCounters }>): ReportCounters {
  return reports.reduce((sum, local) => addCounters(sum, local.report), emptyCounters());
}

export const localReportSchema = z.object({
  id: z.string(),
  name: z.string(),
  report: reportCountersSchema,
});
export type LocalReport = z.infer<typeof localReportSchema>;

/* ------------------------------------------------------------------------ */
/* Local id (spec 7)                                                         */
/* ------------------------------------------------------------------------ */

/** Name of a local that no scheduling local of the unit maps to. */
export const UNKNOWN_LOCAL_NAME = 'Desconhecido';
/**
 * Id of exams without a scheduling local. It cannot clash with a real id:
 * non-CE ids never contain a dash and CE ids always start with `CE.`.
 */
export const UNKNOWN_LOCAL_ID = 'sem-local';
/** The path segment of the report of every post. */
export const ALL_LOCALS_ID = 'all';
export const ALL_LOCALS_NAME = 'Todos os postos';
/** What a unit's prefix is replaced by (spec 7, the original's convention). */
export const LOCAL_ID_TARGET_PREFIX = 'DF.';

/**
 * The prefix of a unit's scheduling locals: configured per unit
 * (`REPORT_LOCAL_PREFIXES`), `X.` for unit X otherwise — the form in which the
 * delivery system writes identifiers (`DEMO.POSTO01`).
 */
export function localPrefixFor(
  unit: string,
  prefixes: Readonly<Record<string, string>> = {},
): string {
  return prefixes[unit] ?? `${unit}.`;
}

/**
 * Spec 7: for CE, `CE.` plus the scheduling local; for any other unit the
 * prefix (when the local starts with it) is replaced by `DF.` and everything
 * from the first dash on is dropped (`DEMO.POSTO01-S2` -> `DF.POSTO01`).
 * A missing or empty local is `sem-local`.
 */
export function localIdOf(unit: string, schedulingLocal: string | null, prefix: string): string {
  if (schedulingLocal === null || schedulingLocal === '') return UNKNOWN_LOCAL_ID;
  if (unit === 'CE') return `CE.${schedulingLocal}`;
  const replaced = schedulingLocal.startsWith(prefix)
    ? `${LOCAL_ID_TARGET_PREFIX}${schedulingLocal.slice(prefix.length)}`
    : schedulingLocal;
  const id = replaced.split('-')[0] ?? '';
  return id === '' ? UNKNOWN_LOCAL_ID : id;
}

/** `REPORT_LOCAL_PREFIXES`: `{ "DF": "DETRANDF-" }`. */
export const reportLocalPrefixesSchema = z
  .record(z.string(), z.string().min(1, 'o prefixo não pode ser vazio').max(60))
  .superRefine((prefixes, context) => {
    for (const unit of Object.keys(prefixes)) {
      if (!/^[A-Z]{2,4}$/.test(unit)) {
        context.addIssue({
          code: 'custom',
          path: [unit],
          message: `a chave "${unit}" precisa ser a sigla da unidade em maiúsculas (ex.: DF)`,
        });
      }
    }
  });

/* ------------------------------------------------------------------------ */
/* Counting rules (spec 4) — the JavaScript reference                        */
/* ------------------------------------------------------------------------ */

export type ReportExamInput = {
  federativeUnit: string;
  schedulingDate: Date | string;
  status: ExamStatus;
  result: ExamResult | null;
  schedulingLocal: string | null;
  pendingAudit: number;
  absence: number;
  interrupted: number;
};

/** What one exam adds to its local's counters; a cancelled exam adds nothing (spec 5). */
export function examContributions(
  exam: Omit<ReportExamInput, 'federativeUnit' | 'schedulingDate' | 'schedulingLocal'>,
): ReportCounters {
  const counters = emptyCounters();
  if (exam.status === 'cancelled') return counters;
  counters.total = 1;
  if (exam.status === 'scheduled') counters.scheduled = 1;
  if (exam.status === 'started') counters.started = 1;
  if (exam.status === 'absence') counters.absence = 1;
  if (exam.status === 'done') {
    counters.finished = 1;
    if (exam.result === 'in_analysis') counters.pendingAudit = 1;
    if (exam.result === 'approved') counters.approved = 1;
    if (exam.result === 'reproved') counters.reproved = 1;
    if (exam.result === 'disqualified') counters.disqualified = 1;
  }
  counters.pendingAudit += exam.pendingAudit;
  counters.absence += exam.absence;
  counters.interrupted += exam.interrupted;
  return counters;
}

export type ReportScope = {
  unit: string;
  prefix: string;
  start: Date;
  endExclusive: Date;
};

/** Compares two local reports as every list of them is ordered: by name, then id. */
export function compareLocalReports(a: LocalReport, b: LocalReport): number {
  return (
    a.name.localeCompare(b.name, 'pt-BR', { sensitivity: 'base' }) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Names of local ids: each scheduling local of the unit names the id its
 * identifier maps to; when several map to the same id, the first identifier
 * (code-point order) wins.
 */
export function localNamesOf(
  locals: ReadonlyArray<{ federativeUnit: string; identifier: string; description: string }>,
  unit: string,
  prefix: string,
): Map<string, string> {
  const names = new Map<string, string>();
  const sorted = locals
    .filter((local) => local.federativeUnit === unit)
    .sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
  for (const local of sorted) {
    const id = localIdOf(unit, local.identifier, prefix);
    if (!names.has(id)) names.set(id, local.description);
  }
  return names;
}

/**
 * The report of spec 7 computed in JavaScript over loaded rows: the unit's
 * exams in [start, endExclusive), cancelled excluded, grouped by local id,
 * named from the scheduling locals or `Desconhecido`.
 */
export function countLocalReports(
  exams: Iterable<ReportExamInput>,
  locals: ReadonlyArray<{ federativeUnit: string; identifier: string; description: string }>,
  scope: ReportScope,
): LocalReport[] {
  const start = scope.start.getTime();
  const end = scope.endExclusive.getTime();
  const byLocal = new Map<string, ReportCounters>();
  for (const exam of exams) {
    if (exam.federativeUnit !== scope.unit || exam.status === 'cancelled') continue;
    const at = new Date(exam.schedulingDate).getTime();
    if (!(at >= start && at < end)) continue;
    const id = localIdOf(scope.unit, exam.schedulingLocal, scope.prefix);
    let counters = byLocal.get(id);
    if (!counters) {
      counters = emptyCounters();
      byLocal.set(id, counters);
    }
    addCounters(counters, examContributions(exam));
  }
  const names = localNamesOf(locals, scope.unit, scope.prefix);
  return [...byLocal.entries()]
    .map(([id, report]) => ({ id, name: names.get(id) ?? UNKNOWN_LOCAL_NAME, report }))
    .sort(compareLocalReports);
}

/* ------------------------------------------------------------------------ */
/* The report period                                                         */
/* ------------------------------------------------------------------------ */

/** The calendar the web app picks days in; a bare `YYYY-MM-DD` is a day of this zone. */
export const REPORT_TIME_ZONE = 'America/Sao_Paulo';
export const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export type ReportCheckError = { ok: false; code: string; message: string };

export type ReportPeriod = {
  ok: true;
  /** First instant of the start day. */
  start: Date;
  /** First instant after the end day: the end day is included whole. */
  endExclusive: Date;
  startDay: string;
  endDay: string;
  days: number;
};

const DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

function isValidDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCDate() === day;
}

function parseOffsetMinutes(offset: string): number | null {
  if (offset === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(offset);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return null;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The UTC offset of a time zone at an instant, in minutes (e.g. -180 for São Paulo). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((entry) => entry.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

function dayUtcMs(day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1);
}

/** The first instant of a calendar day in a time zone. */
export function zonedDayStart(day: string, timeZone: string = REPORT_TIME_ZONE): Date {
  const midnightUtc = dayUtcMs(day);
  // Two passes settle the offset even on a day whose midnight a DST change skipped.
  let instant = midnightUtc - zoneOffsetMinutes(new Date(midnightUtc), timeZone) * 60_000;
  instant = midnightUtc - zoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `2026-05-01` -> `2026-05-01T00:00:00-03:00`: what the web app sends for a picked day. */
export function zonedDayStartIso(day: string, timeZone: string = REPORT_TIME_ZONE): string {
  const start = zonedDayStart(day, timeZone);
  const offset = zoneOffsetMinutes(start, timeZone);
  const local = new Date(start.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${formatOffset(offset)}`;
}

/** The calendar day of an instant in a time zone, `YYYY-MM-DD`. */
export function dayInZone(instant: Date, timeZone: string = REPORT_TIME_ZONE): string {
  const local = new Date(instant.getTime() + zoneOffsetMinutes(instant, timeZone) * 60_000);
  return local.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(dayUtcMs(day) + days * DAY_MS).toISOString().slice(0, 10);
}

type ParsedReportDate = { day: string; offsetMinutes: number | null };

/**
 * A report date names a calendar day: `YYYY-MM-DD` (a day in São Paulo), or
 * an ISO 8601 date-time with its offset, whose date part is the day in that
 * offset (the time is ignored). A time without an offset is ambiguous and
 * refused.
 */
export function parseReportDate(value: string): ParsedReportDate | null {
  const match = DATE_PATTERN.exec(value.trim());
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const date = Number(match[3]);
  if (!isValidDay(year, month, date)) return null;
  if (match[4] !== undefined) {
    if (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) return null;
  }
  const offsetMinutes = match[7] === undefined ? null : parseOffsetMinutes(match[7]);
  if (match[7] !== undefined && offsetMinutes === null) return null;
  return { day: `${match[1]}-${match[2]}-${match[3]}`, offsetMinutes };
}

function dayStartOf(parsed: ParsedReportDate, day: string = parsed.day): Date {
  return parsed.offsetMinutes === null
    ? zonedDayStart(day)
    : new Date(dayUtcMs(day) - parsed.offsetMinutes * 60_000);
}

const DATE_HINT =
  'use AAAA-MM-DD ou data e hora ISO 8601 com fuso (ex.: 2026-05-01T00:00:00-03:00)';

export const REPORT_ERRORS = {
  REPORT_DATE_REQUIRED: 'Informe a data inicial e a data final do período.',
  REPORT_INVALID_START_DATE: `Data inicial inválida: ${DATE_HINT}.`,
  REPORT_INVALID_END_DATE: `Data final inválida: ${DATE_HINT}.`,
  REPORT_INVALID_RANGE: 'A data final não pode ser anterior à data inicial.',
  REPORT_RANGE_TOO_LONG: `O período pode ter no máximo ${REPORT_MAX_DAYS} dias.`,
  REPORT_INVALID_COUNTER: `Indicador desconhecido. Use um destes: ${REPORT_COUNTERS.join(', ')}.`,
  REPORT_INVALID_FORMAT: 'Formato de exportação inválido: use csv ou xlsx.',
  REPORT_INVALID_LOCAL: 'Identificador de posto inválido.',
} as const;
export type ReportErrorCode = keyof typeof REPORT_ERRORS;

function reportError(code: ReportErrorCode): ReportCheckError {
  return { ok: false, code, message: REPORT_ERRORS[code] };
}

/** Checks a period and gives its instants: [start of start day, start of the day after end day). */
export function resolveReportPeriod(
  startDate: string | undefined,
  endDate: string | undefined,
): ReportPeriod | ReportCheckError {
  if (!startDate?.trim() || !endDate?.trim()) return reportError('REPORT_DATE_REQUIRED');
  const start = parseReportDate(startDate);
  if (!start) return reportError('REPORT_INVALID_START_DATE');
  const end = parseReportDate(endDate);
  if (!end) return reportError('REPORT_INVALID_END_DATE');
  const startAt = dayStartOf(start);
  const endExclusive = dayStartOf(end, addDays(end.day, 1));
  if (endExclusive.getTime() <= startAt.getTime()) return reportError('REPORT_INVALID_RANGE');
  const days = Math.round((endExclusive.getTime() - startAt.getTime()) / DAY_MS);
  if (days > REPORT_MAX_DAYS) return reportError('REPORT_RANGE_TOO_LONG');
  return { ok: true, start: startAt, endExclusive, startDay: start.day, endDay: end.day, days };
}

/** A local id in a path or query: any text without control characters. */
export function isValidLocalId(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value.length > 0 && value.length <= 200 && !/[\u0000-\u001f\u007f]/.test(value);
}

/* ------------------------------------------------------------------------ */
/* API schemas                                                               */
/* ------------------------------------------------------------------------ */

const dateParam = z
  .string()
  .max(64)
  .optional()
  .describe('Dia AAAA-MM-DD (fuso de São Paulo) ou data e hora ISO 8601 com fuso; inclusivo');

/** Query of every report route; the unit always comes from the session. */
export const reportQuerySchema = z.object({ startDate: dateParam, endDate: dateParam });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

const pageParams = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

export const reportExamsQuerySchema = reportQuerySchema.extend({
  counter: z
    .string()
    .max(40)
    .optional()
    .describe(`Um de: ${REPORT_COUNTERS.join(', ')}`),
  ...pageParams,
});

export const reportOccurrencesQuerySchema = reportQuerySchema.extend({
  localId: z.string().max(200).optional(),
  ...pageParams,
});

export const REPORT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ReportExportFormat = (typeof REPORT_EXPORT_FORMATS)[number];

export const reportExportQuerySchema = reportQuerySchema.extend({
  format: z.string().max(10).optional().describe('csv ou xlsx'),
  localId: z.string().max(200).optional(),
});

export const localReportDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  startDay: z.string(),
  endDay: z.string(),
  report: reportCountersSchema,
  /** Each local of the report; one entry for a single post. */
  locals: z.array(localReportSchema),
});
export type LocalReportDetail = z.infer<typeof localReportDetailSchema>;

export const reportExamSchema = z.object({
  id: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked (`***.456.789-**`): the report never needs the full CPF. */
  candidateCpf: z.string(),
  schedulingDate: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  schedulingLocal: z.string().nullable(),
  localId: z.string(),
  localName: z.string(),
  room: z.string().nullable(),
  station: z.string().nullable(),
  pendingAudit: z.number().int(),
  absence: z.number().int(),
  interrupted: z.number().int(),
  /** What this exam adds to the counter (metadata can make it more than 1). */
  contribution: z.number().int(),
});
export type ReportExam = z.infer<typeof reportExamSchema>;

export const reportExamPageSchema = z.object({
  counter: z.enum(REPORT_COUNTERS),
  /** The counter's value: the sum of the contributions of every exam listed. */
  counterValue: z.number().int(),
  items: z.array(reportExamSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ReportExamPage = z.infer<typeof reportExamPageSchema>;

export const reportOccurrenceSchema = z.object({
  id: z.string(),
  examId: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  localId: z.string(),
  localName: z.string(),
  type: z.string(),
  description: z.string(),
  occurredAt: z.string(),
});
export type ReportOccurrence = z.infer<typeof reportOccurrenceSchema>;

export const reportOccurrencePageSchema = z.object({
  items: z.array(reportOccurrenceSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ReportOccurrencePage = z.infer<typeof reportOccurrencePageSchema>;

/** Columns of the CSV and XLSX exports, in order: post id, name, then every counter. */
export const REPORT_EXPORT_HEADER: readonly string[] = [
  'Posto',
  'Nome',
  ...REPORT_COUNTERS.map((counter) => REPORT_COUNTER_LABELS[counter]),
];
