/**
 * The per-local exam report (spec 3, 4, 5, 7): counters, the local-id rule,
 * the report period and the schemas of the `api/ExamReport` routes. The server
 * counts in SQL; `countLocalReports` is the JavaScript reference of the same
 * rules, used by the tests (SQL must equal it) and as the benchmark baseline.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { maskedExamFields } from './exams';
import { pageOf, pageQueryParams } from './pagination';
import { periodQuerySchema, type PeriodQuery } from './period';

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

/**
 * The counters that spec 4 also feeds from the delivery system's metadata
 * (`metadata.pendingAudit`, `absence`, `interrupted`): a counter can pass the
 * number of exams behind it, so the screens say how much of it came that way.
 */
export const METADATA_COUNTERS = ['pendingAudit', 'absence', 'interrupted'] as const;
export type MetadataCounter = (typeof METADATA_COUNTERS)[number];

export const metadataCountsSchema = z
  .object({
    pendingAudit: z.number().int(),
    absence: z.number().int(),
    interrupted: z.number().int(),
  })
  .describe(
    'Quanto de cada contador veio dos metadados do sistema de provas (já somado em report)',
  );
export type MetadataCounts = z.infer<typeof metadataCountsSchema>;

/** What the screens say of a counter that the metadata fed: the part that came that way. */
export function fromMetadataText(count: number): string {
  return `${count.toLocaleString('pt-BR')} dos metadados`;
}

/** Why a counter can pass the exams behind it (spec 4), where the screens show one that does. */
export const METADATA_COUNTERS_NOTE =
  'Pendentes de auditoria, Ausentes e Interrompidos somam, além da situação de cada exame, os ' +
  'valores que o sistema de provas informa nos metadados do exame; por isso podem passar do ' +
  'número de exames (por exemplo, mais pendentes de auditoria do que finalizados). ' +
  '“dos metadados” diz quanto de cada número veio assim.';

export function emptyMetadataCounts(): MetadataCounts {
  return { pendingAudit: 0, absence: 0, interrupted: 0 };
}

export function sumMetadataCounts(
  reports: ReadonlyArray<{ fromMetadata: MetadataCounts }>,
): MetadataCounts {
  const sum = emptyMetadataCounts();
  for (const local of reports) {
    for (const counter of METADATA_COUNTERS) sum[counter] += local.fromMetadata[counter];
  }
  return sum;
}

export const localReportSchema = z.object({
  /** The report id of spec 7 (`DF.POSTO06`): the API's key of a post, never shown. */
  id: z.string(),
  /**
   * The post's own identifier, as "Postos de atendimento" lists it
   * (`DEMO.POSTO06`): what screens and exports show. Null for exams without a post.
   */
  identifier: z.string().nullable(),
  name: z.string(),
  report: reportCountersSchema,
  fromMetadata: metadataCountsSchema,
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

/** CE's local ids: the whole scheduling local under `CE.`. */
export const CE_LOCAL_PREFIX = 'CE.';

/**
 * Spec 7: for CE, `CE.` plus the scheduling local (a local already written
 * `CE.X` stays `CE.X`, never `CE.CE.X`); for any other unit the
 * prefix (when the local starts with it) is replaced by `DF.` and everything
 * from the first dash on is dropped (`DEMO.POSTO01-S2` -> `DF.POSTO01`).
 * A missing or empty local is `sem-local`.
 */
export function localIdOf(unit: string, schedulingLocal: string | null, prefix: string): string {
  if (schedulingLocal === null || schedulingLocal === '') return UNKNOWN_LOCAL_ID;
  if (unit === 'CE') {
    return schedulingLocal.startsWith(CE_LOCAL_PREFIX)
      ? schedulingLocal
      : `${CE_LOCAL_PREFIX}${schedulingLocal}`;
  }
  const replaced = schedulingLocal.startsWith(prefix)
    ? `${LOCAL_ID_TARGET_PREFIX}${schedulingLocal.slice(prefix.length)}`
    : schedulingLocal;
  const id = replaced.split('-')[0] ?? '';
  return id === '' ? UNKNOWN_LOCAL_ID : id;
}

/**
 * The post's own identifier behind an exam's scheduling local, when no
 * scheduling local of the unit names its report id: the local without its
 * room suffix (`DEMO.POSTO01-S2` -> `DEMO.POSTO01`, the prefix kept whole);
 * CE's whole local (its report id keeps it whole too). Null without a local.
 */
export function postIdentifierOf(
  unit: string,
  schedulingLocal: string | null,
  prefix: string,
): string | null {
  if (schedulingLocal === null || schedulingLocal === '') return null;
  if (unit === 'CE') return schedulingLocal;
  const identifier = schedulingLocal.startsWith(prefix)
    ? `${prefix}${schedulingLocal.slice(prefix.length).split('-')[0] ?? ''}`
    : (schedulingLocal.split('-')[0] ?? '');
  return identifier === '' ? null : identifier;
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

/** The unit, its local prefix and the instants [start, endExclusive) a report covers. */
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

export const REPORT_ERRORS = errorCatalogue({
  REPORT_INVALID_COUNTER: {
    status: 400,
    message: `Indicador desconhecido. Use um destes: ${REPORT_COUNTERS.join(', ')}.`,
  },
  REPORT_INVALID_FORMAT: {
    status: 400,
    message: 'Formato de exportação inválido: use csv ou xlsx.',
  },
  REPORT_INVALID_LOCAL: { status: 400, message: 'Identificador de posto inválido.' },
});
export type ReportErrorCode = keyof typeof REPORT_ERRORS;

/** A local id in a path or query: any text without control characters. */
export function isValidLocalId(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value.length > 0 && value.length <= 200 && !/[\u0000-\u001f\u007f]/.test(value);
}

/* ------------------------------------------------------------------------ */
/* API schemas                                                               */
/* ------------------------------------------------------------------------ */

/** Query of every report route (the period contract); the unit always comes from the session. */
export const reportQuerySchema = periodQuerySchema;
export type ReportQuery = PeriodQuery;

const pageParams = pageQueryParams();

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
  /** The post's own identifier; null for every post together (`all`). */
  identifier: z.string().nullable(),
  name: z.string(),
  startDay: z.string(),
  endDay: z.string(),
  report: reportCountersSchema,
  fromMetadata: metadataCountsSchema,
  /** Each local of the report; one entry for a single post. */
  locals: z.array(localReportSchema),
});
export type LocalReportDetail = z.infer<typeof localReportDetailSchema>;

export const reportExamSchema = z.object({
  ...maskedExamFields,
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

export const reportExamPageSchema = z
  .object({
    counter: z.enum(REPORT_COUNTERS),
    /** The counter's value: the sum of the contributions of every exam listed. */
    counterValue: z.number().int(),
  })
  .extend(pageOf(reportExamSchema).shape);
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

export const reportOccurrencePageSchema = pageOf(reportOccurrenceSchema);
export type ReportOccurrencePage = z.infer<typeof reportOccurrencePageSchema>;

/**
 * Columns of the CSV and XLSX exports, in order: the post's own identifier
 * (as on screen, never the report id), its name, then every counter.
 */
export const REPORT_EXPORT_HEADER: readonly string[] = [
  'Posto',
  'Nome',
  ...REPORT_COUNTERS.map((counter) => REPORT_COUNTER_LABELS[counter]),
];
