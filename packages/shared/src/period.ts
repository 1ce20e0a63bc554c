/**
 * The one period contract of the API (dashboard, report and exam list alike):
 * `startDate` and `endDate` name calendar days, both inclusive. A bare
 * `YYYY-MM-DD` is a day in America/Sao_Paulo, whatever the browser's zone; an
 * ISO 8601 date-time must carry its offset and names the day in that offset.
 * A period becomes instants [start of the start day, start of the day after
 * the end day), so the SQL compares timestamptz values only.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';

/* ------------------------------------------------------------------------ */
/* The period                                                                */
/* ------------------------------------------------------------------------ */

/** The calendar the web app picks days in; a bare `YYYY-MM-DD` is a day of this zone. */
export const PERIOD_TIME_ZONE = 'America/Sao_Paulo';
export const PERIOD_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export type PeriodCheckError = { ok: false; code: PeriodErrorCode; message: string };

export type ResolvedPeriod = {
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

/**
 * One formatter per zone: building an Intl.DateTimeFormat costs far more than
 * using one (it was most of a report request's CPU time on the server).
 */
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Offsets already read, by zone and exact instant (period bounds come again and again). */
const knownOffsets = new Map<string, number>();

/** The UTC offset of a time zone at an instant, in minutes (e.g. -180 for São Paulo). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const key = `${timeZone}|${instant.getTime()}`;
  const known = knownOffsets.get(key);
  if (known !== undefined) return known;
  const part = offsetFormatter(timeZone)
    .formatToParts(instant)
    .find((entry) => entry.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  const offset = match
    ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
    : 0;
  if (knownOffsets.size >= 4096) knownOffsets.clear();
  knownOffsets.set(key, offset);
  return offset;
}

function dayUtcMs(day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1);
}

/** Day starts already worked out (`zone|day` -> instant); the same few days come again and again. */
const dayStarts = new Map<string, number>();

/** The first instant of a calendar day in a time zone. */
export function zonedDayStart(day: string, timeZone: string = PERIOD_TIME_ZONE): Date {
  const key = `${timeZone}|${day}`;
  const known = dayStarts.get(key);
  if (known !== undefined) return new Date(known);
  const midnightUtc = dayUtcMs(day);
  // Two passes settle the offset even on a day whose midnight a DST change skipped.
  let instant = midnightUtc - zoneOffsetMinutes(new Date(midnightUtc), timeZone) * 60_000;
  instant = midnightUtc - zoneOffsetMinutes(new Date(instant), timeZone) * 60_000;
  if (dayStarts.size >= 4096) dayStarts.clear();
  dayStarts.set(key, instant);
  return new Date(instant);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `2026-05-01` -> `2026-05-01T00:00:00-03:00`: what the web app sends for a picked day. */
export function zonedDayStartIso(day: string, timeZone: string = PERIOD_TIME_ZONE): string {
  const start = zonedDayStart(day, timeZone);
  const offset = zoneOffsetMinutes(start, timeZone);
  const local = new Date(start.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${formatOffset(offset)}`;
}

/** The calendar day of an instant in a time zone, `YYYY-MM-DD`. */
export function dayInZone(instant: Date, timeZone: string = PERIOD_TIME_ZONE): string {
  const local = new Date(instant.getTime() + zoneOffsetMinutes(instant, timeZone) * 60_000);
  return local.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(dayUtcMs(day) + days * DAY_MS).toISOString().slice(0, 10);
}

type ParsedPeriodDate = { day: string; offsetMinutes: number | null };

/**
 * A report date names a calendar day: `YYYY-MM-DD` (a day in São Paulo), or
 * an ISO 8601 date-time with its offset, whose date part is the day in that
 * offset (the time is ignored). A time without an offset is ambiguous and
 * refused.
 */
export function parsePeriodDate(value: string): ParsedPeriodDate | null {
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

function dayStartOf(parsed: ParsedPeriodDate, day: string = parsed.day): Date {
  return parsed.offsetMinutes === null
    ? zonedDayStart(day)
    : new Date(dayUtcMs(day) - parsed.offsetMinutes * 60_000);
}

const DATE_HINT =
  'use AAAA-MM-DD ou data e hora ISO 8601 com fuso (ex.: 2026-05-01T00:00:00-03:00)';

/** Errors of a period in a query: every route that takes one answers them the same. */
export const PERIOD_ERRORS = errorCatalogue({
  PERIOD_DATE_REQUIRED: {
    status: 400,
    message: 'Informe a data inicial e a data final do período.',
  },
  PERIOD_INVALID_START_DATE: { status: 400, message: `Data inicial inválida: ${DATE_HINT}.` },
  PERIOD_INVALID_END_DATE: { status: 400, message: `Data final inválida: ${DATE_HINT}.` },
  PERIOD_INVALID_RANGE: {
    status: 400,
    message: 'A data final não pode ser anterior à data inicial.',
  },
  PERIOD_RANGE_TOO_LONG: {
    status: 400,
    message: `O período pode ter no máximo ${PERIOD_MAX_DAYS} dias.`,
  },
});
export type PeriodErrorCode = keyof typeof PERIOD_ERRORS;

function periodError(code: PeriodErrorCode): PeriodCheckError {
  return { ok: false, code, message: PERIOD_ERRORS[code].message };
}

/** Checks a period and gives its instants: [start of start day, start of the day after end day). */
export function resolvePeriod(
  startDate: string | undefined,
  endDate: string | undefined,
): ResolvedPeriod | PeriodCheckError {
  if (!startDate?.trim() || !endDate?.trim()) return periodError('PERIOD_DATE_REQUIRED');
  const start = parsePeriodDate(startDate);
  if (!start) return periodError('PERIOD_INVALID_START_DATE');
  const end = parsePeriodDate(endDate);
  if (!end) return periodError('PERIOD_INVALID_END_DATE');
  const startAt = dayStartOf(start);
  const endExclusive = dayStartOf(end, addDays(end.day, 1));
  if (endExclusive.getTime() <= startAt.getTime()) return periodError('PERIOD_INVALID_RANGE');
  const days = Math.round((endExclusive.getTime() - startAt.getTime()) / DAY_MS);
  if (days > PERIOD_MAX_DAYS) return periodError('PERIOD_RANGE_TOO_LONG');
  return { ok: true, start: startAt, endExclusive, startDay: start.day, endDay: end.day, days };
}

/** A period bound in a query string (day or ISO date-time with offset). */
export const periodDateSchema = z
  .string()
  .max(64)
  .optional()
  .describe('Dia AAAA-MM-DD (fuso de São Paulo) ou data e hora ISO 8601 com fuso; inclusivo');

/** Query of every route that takes a whole period. */
export const periodQuerySchema = z.object({
  startDate: periodDateSchema,
  endDate: periodDateSchema,
});
export type PeriodQuery = z.infer<typeof periodQuerySchema>;

/** A period where either bound may be left open (the exam list): same days, same rule. */
export type OpenPeriod = { ok: true; start?: Date; endExclusive?: Date };

export function resolveOpenPeriod(
  startDate: string | undefined,
  endDate: string | undefined,
): OpenPeriod | PeriodCheckError {
  const hasStart = Boolean(startDate?.trim());
  const hasEnd = Boolean(endDate?.trim());
  if (hasStart && hasEnd) {
    const period = resolvePeriod(startDate, endDate);
    return period.ok
      ? { ok: true, start: period.start, endExclusive: period.endExclusive }
      : period;
  }
  if (hasStart) {
    const start = parsePeriodDate(startDate!);
    if (!start) return periodError('PERIOD_INVALID_START_DATE');
    return { ok: true, start: dayStartOf(start) };
  }
  if (hasEnd) {
    const end = parsePeriodDate(endDate!);
    if (!end) return periodError('PERIOD_INVALID_END_DATE');
    return { ok: true, endExclusive: dayStartOf(end, addDays(end.day, 1)) };
  }
  return { ok: true };
}
