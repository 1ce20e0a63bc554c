/**
 * CSV import of scheduled exams. The whole file is checked first and every
 * problem is reported with its line; only a file without problems is written,
 * in one transaction (all or nothing).
 *
 * Format: a header line with the columns of CSV_IMPORT_COLUMNS (any order,
 * `;` or `,` as separator, optional quotes, UTF-8 with or without BOM). Dates
 * as `dd/mm/aaaa hh:mm` in Brasília time (UTC-3, no daylight saving since
 * 2019) or ISO 8601 with offset.
 */
import { CSV_IMPORT_COLUMNS, integrationExamSchema, type IntegrationExam } from '@exame/shared';
import type { ErrorDetail } from '../../lib/app-error';

export const CSV_MAX_ROWS = 50_000;

/** Splits CSV text into rows of fields (RFC 4180 quotes, CRLF or LF). */
export function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 1;
        } else quoted = false;
      } else field += char;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''));
}

const BR_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** `21/11/2026 09:30` (Brasília) or ISO 8601 with offset -> ISO 8601 with offset, or null. */
export function parseImportDate(value: string): string | null {
  const trimmed = value.trim();
  const match = BR_DATE.exec(trimmed);
  if (match) {
    const [, day, month, year, hour = '00', minute = '00', second = '00'] = match;
    const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}-03:00`;
    const date = new Date(iso);
    // Reject 31/02 and similar: the parsed date must read back the same day.
    if (Number.isNaN(date.getTime())) return null;
    const check = new Date(date.getTime() - 3 * 3_600_000);
    if (check.getUTCDate() !== Number(day) || check.getUTCMonth() + 1 !== Number(month))
      return null;
    return iso;
  }
  const parsed = new Date(trimmed);
  return /\d{4}-\d{2}-\d{2}T/.test(trimmed) && !Number.isNaN(parsed.getTime()) ? trimmed : null;
}

const FIELD_LABELS: Record<string, string> = {
  schedulingId: 'schedulingId',
  'candidate.name': 'candidateName',
  'candidate.cpf': 'candidateCpf',
  'candidate.renach': 'candidateRenach',
  schedulingDate: 'schedulingDate',
  'metadata.schedulingLocal': 'schedulingLocal',
  room: 'room',
  station: 'station',
};

export type CsvParseResult = {
  exams: IntegrationExam[];
  errors: ErrorDetail[];
  rows: number;
  /** The file line of each exam, for problems found later (e.g. a schedulingId already stored). */
  lines: number[];
};

export function readExamCsv(text: string): CsvParseResult {
  const clean = text.replace(/^\uFEFF/, '');
  const firstLine = clean.split(/\r?\n/, 1)[0] ?? '';
  const separator =
    (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows = parseCsv(clean, separator);
  const errors: ErrorDetail[] = [];
  const header = rows[0]?.map((cell) => cell.trim());
  if (!header || header.length === 0) {
    return {
      exams: [],
      rows: 0,
      lines: [],
      errors: [{ path: 'linha 1', message: 'O arquivo está vazio.' }],
    };
  }
  const missing = CSV_IMPORT_COLUMNS.filter(
    (column) =>
      !['candidateRenach', 'room', 'station'].includes(column) && !header.includes(column),
  );
  if (missing.length > 0) {
    return {
      exams: [],
      rows: rows.length - 1,
      lines: [],
      errors: [{ path: 'linha 1', message: `Cabeçalho sem as colunas: ${missing.join(', ')}.` }],
    };
  }
  if (rows.length - 1 > CSV_MAX_ROWS) {
    return {
      exams: [],
      rows: rows.length - 1,
      lines: [],
      errors: [
        {
          path: 'arquivo',
          message: `O arquivo tem mais de ${CSV_MAX_ROWS} linhas; divida-o em partes.`,
        },
      ],
    };
  }
  const column = (cells: string[], name: string) => {
    const index = header.indexOf(name);
    const value = index >= 0 ? (cells[index] ?? '').trim() : '';
    return value === '' ? undefined : value;
  };
  const exams: IntegrationExam[] = [];
  const lines: number[] = [];
  const seen = new Map<string, number>();
  rows.slice(1).forEach((cells, index) => {
    const line = index + 2;
    if (cells.length !== header.length) {
      errors.push({
        path: `linha ${line}`,
        message: `Esperava ${header.length} colunas e encontrou ${cells.length}.`,
      });
      return;
    }
    const rawDate = column(cells, 'schedulingDate') ?? '';
    const date = parseImportDate(rawDate);
    const rowErrors: ErrorDetail[] = [];
    if (!date) {
      rowErrors.push({
        path: `linha ${line}, schedulingDate`,
        message: `Data inválida "${rawDate}" (use dd/mm/aaaa hh:mm).`,
      });
    }
    // The other fields are checked too, so the report lists every problem of the line.
    const parsed = integrationExamSchema.safeParse({
      schedulingId: column(cells, 'schedulingId') ?? '',
      candidate: {
        name: column(cells, 'candidateName') ?? '',
        cpf: column(cells, 'candidateCpf') ?? '',
        renach: column(cells, 'candidateRenach') ?? null,
      },
      schedulingDate: date ?? '2000-01-01T00:00:00-03:00',
      status: 'scheduled',
      metadata: { schedulingLocal: column(cells, 'schedulingLocal') ?? null },
      room: column(cells, 'room') ?? null,
      station: column(cells, 'station') ?? null,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_LABELS[issue.path.join('.')] ?? issue.path.join('.');
        rowErrors.push({ path: `linha ${line}, ${field}`, message: issue.message });
      }
    }
    if (rowErrors.length > 0 || !parsed.success) {
      errors.push(...rowErrors);
      return;
    }
    const previous = seen.get(parsed.data.schedulingId);
    if (previous !== undefined) {
      errors.push({
        path: `linha ${line}, schedulingId`,
        message: `schedulingId ${parsed.data.schedulingId} repetido (também na linha ${previous}).`,
      });
      return;
    }
    seen.set(parsed.data.schedulingId, line);
    exams.push(parsed.data);
    lines.push(line);
  });
  return { exams, errors, rows: rows.length - 1, lines };
}
