/**
 * Exams (spec 3, 4): statuses, results and the state machine that every
 * change goes through. An illegal change is refused with a clear message.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { pageOf, pageQueryParams } from './pagination';
import { periodQuerySchema } from './period';

export const EXAM_STATUSES = ['scheduled', 'started', 'done', 'absence', 'cancelled'] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];
export const EXAM_RESULTS = ['in_analysis', 'approved', 'reproved', 'disqualified'] as const;
export type ExamResult = (typeof EXAM_RESULTS)[number];

export const EXAM_STATUS_LABELS: Readonly<Record<ExamStatus, string>> = {
  scheduled: 'Agendado',
  started: 'Iniciado',
  done: 'Finalizado',
  absence: 'Ausente',
  cancelled: 'Cancelado',
};

export const EXAM_RESULT_LABELS: Readonly<Record<ExamResult, string>> = {
  in_analysis: 'Em análise',
  approved: 'Aprovado',
  reproved: 'Reprovado',
  disqualified: 'Desclassificado',
};

/** Status changes allowed by the exam lifecycle; everything else is refused. */
/** Who made a change of the exam's timeline, as the screens name it. */
export const EXAM_HISTORY_SOURCE_LABELS: Readonly<Record<string, string>> = {
  integration: 'sistema de provas',
  import: 'importação',
  user: 'usuário',
  seed: 'dados de demonstração',
};

export const STATUS_TRANSITIONS: Readonly<Record<ExamStatus, readonly ExamStatus[]>> = {
  scheduled: ['started', 'absence', 'cancelled'],
  started: ['done', 'cancelled'],
  done: [],
  absence: [],
  cancelled: [],
};

/** Result changes: a finished exam starts in analysis or with its result; analysis ends in a result. */
export const RESULT_TRANSITIONS: Readonly<Record<ExamResult | 'none', readonly ExamResult[]>> = {
  none: ['in_analysis', 'approved', 'reproved', 'disqualified'],
  in_analysis: ['approved', 'reproved', 'disqualified'],
  approved: [],
  reproved: [],
  disqualified: [],
};

/** The state machine's refusal: its code (in EXAM_ERRORS) and the text naming the two states. */
export type TransitionCheck =
  { ok: true } | { ok: false; code: ExamTransitionErrorCode; message: string };

export function checkStatusTransition(from: ExamStatus, to: ExamStatus): TransitionCheck {
  if (from === to) return { ok: true };
  if (STATUS_TRANSITIONS[from].includes(to)) return { ok: true };
  return {
    ok: false,
    code: 'EXAM_INVALID_TRANSITION',
    message: `Não é possível mudar o exame de "${EXAM_STATUS_LABELS[from]}" para "${EXAM_STATUS_LABELS[to]}".`,
  };
}

/** A result needs a finished exam; a final result does not change. */
export function checkResultTransition(
  status: ExamStatus,
  from: ExamResult | null,
  to: ExamResult | null,
): TransitionCheck {
  if (from === to) return { ok: true };
  if (to === null) {
    return {
      ok: false,
      code: 'EXAM_INVALID_RESULT',
      message: 'O resultado de um exame não pode ser removido.',
    };
  }
  if (status !== 'done') {
    return {
      ok: false,
      code: 'EXAM_RESULT_REQUIRES_DONE',
      message: `Só um exame finalizado tem resultado (situação atual: "${EXAM_STATUS_LABELS[status]}").`,
    };
  }
  if (RESULT_TRANSITIONS[from ?? 'none'].includes(to)) return { ok: true };
  return {
    ok: false,
    code: 'EXAM_INVALID_RESULT',
    message: `Não é possível mudar o resultado de "${from ? EXAM_RESULT_LABELS[from] : 'sem resultado'}" para "${EXAM_RESULT_LABELS[to]}".`,
  };
}

/**
 * The first fields of an exam in the lists a unit's screens show (the
 * report's, the room board's): the CPF comes masked (`***.456.789-**`).
 */
export const maskedExamFields = {
  id: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  /** Masked: these lists never need the full CPF. */
  candidateCpf: z.string(),
  schedulingDate: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
};

export const examSchema = z.object({
  id: z.string(),
  schedulingId: z.string(),
  federativeUnit: z.string(),
  candidateName: z.string(),
  candidateCpf: z.string(),
  candidateRenach: z.string().nullable(),
  schedulingDate: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  score: z.number().nullable(),
  schedulingLocal: z.string().nullable(),
  schedulingLocalName: z.string().nullable(),
  pendingAudit: z.number().int(),
  absence: z.number().int(),
  interrupted: z.number().int(),
  room: z.string().nullable(),
  station: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Exam = z.infer<typeof examSchema>;

export const examPageSchema = pageOf(examSchema);
export type ExamPage = z.infer<typeof examPageSchema>;

export const EXAM_SORTS = ['schedulingDate', 'candidateName', 'status', 'schedulingLocal'] as const;
export type ExamSort = (typeof EXAM_SORTS)[number];

/** `a` or repeated `a[]=` (the API client sends bracket arrays): always a list. */
const listOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values), z.array(z.enum(values)).max(values.length)])
    .optional()
    .transform((value) =>
      value === undefined ? undefined : Array.isArray(value) ? value : [value],
    );

/**
 * `GET api/Exam`: the period contract (days in São Paulo, both inclusive,
 * either bound may be left open), filters, search, page and order.
 */
export const examListQuerySchema = periodQuerySchema.extend({
  schedulingLocal: z
    .union([z.string().max(80), z.array(z.string().max(80)).max(50)])
    .optional()
    .transform((value) =>
      value === undefined ? undefined : Array.isArray(value) ? value : [value],
    ),
  status: listOf(EXAM_STATUSES),
  result: listOf(EXAM_RESULTS),
  search: z.string().trim().max(120).optional(),
  ...pageQueryParams({ maxSize: 200 }),
  sort: z.enum(EXAM_SORTS).default('schedulingDate'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ExamListQuery = z.infer<typeof examListQuerySchema>;

export const examHistoryEntrySchema = z.object({
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  fromResult: z.string().nullable(),
  toResult: z.string().nullable(),
  source: z.string(),
  at: z.string(),
});

export const examPhotoLinkSchema = z.object({
  id: z.string(),
  capturedAt: z.string(),
  /** A signed address that expires in minutes (an <img> cannot send the bearer). */
  url: z.string(),
  width: z.number(),
  height: z.number(),
});
export type ExamPhotoLink = z.infer<typeof examPhotoLinkSchema>;

/** An occurrence of an exam as the exam page and the audit show it. */
export const examOccurrenceSchema = z.object({
  id: z.string(),
  type: z.string(),
  description: z.string(),
  occurredAt: z.string(),
  /** A signed address of the photo sent with it, when there is one. */
  photoUrl: z.string().nullable(),
});
export type ExamOccurrence = z.infer<typeof examOccurrenceSchema>;

/** `GET api/Exam/{schedulingId}`: the exam with its timeline, occurrences and photos. */
export const examDetailSchema = z.object({
  exam: examSchema,
  history: z.array(examHistoryEntrySchema),
  occurrences: z.array(examOccurrenceSchema),
  /** The captures made during the exam. */
  photos: z.array(examPhotoLinkSchema),
  /** The candidate's reference photo (the picture on file), when the integration sent one. */
  referencePhoto: examPhotoLinkSchema.nullable(),
  /** The room the exam's local names, when one does. */
  room: z.object({ id: z.string(), name: z.string(), code: z.string() }).nullable(),
  /** The examiners who held the room while the exam ran (from the check-in records). */
  custody: z.array(
    z.object({
      checkInId: z.string(),
      name: z.string(),
      checkInDate: z.string(),
      leftAt: z.string().nullable(),
    }),
  ),
});
export type ExamDetail = z.infer<typeof examDetailSchema>;

export const EXAM_ERRORS = errorCatalogue({
  EXAM_NOT_FOUND: { status: 404, message: 'Exame não encontrado.' },
  PHOTO_NOT_FOUND: { status: 404, message: 'Foto não encontrada.' },
  PHOTO_LINK_INVALID: {
    status: 403,
    message: 'Endereço da foto inválido ou expirado. Recarregue a página.',
  },
  IMPORT_REJECTED: { status: 400, message: 'Nenhum exame foi importado: o arquivo tem problemas.' },
  IMPORT_EMPTY: { status: 400, message: 'O arquivo não tem nenhuma linha de exame.' },
  /** A batch of the integration API with a problem in any item: nothing of it is written. */
  EXAM_BATCH_REJECTED: {
    status: 400,
    message: 'Nenhum exame foi gravado: corrija os itens indicados e envie de novo.',
  },
  /** Changes the state machine refuses; the text sent names the two states (see above). */
  EXAM_INVALID_TRANSITION: {
    status: 409,
    message: 'Não é possível mudar a situação do exame desta forma.',
  },
  EXAM_INVALID_RESULT: {
    status: 409,
    message: 'Não é possível mudar o resultado do exame desta forma.',
  },
  EXAM_RESULT_REQUIRES_DONE: { status: 409, message: 'Só um exame finalizado tem resultado.' },
  EXAM_RESULT_UNDER_AUDIT: {
    status: 409,
    message:
      'O resultado deste exame está com a auditoria: uma decisão aguarda a confirmação de outro auditor.',
  },
});

export type ExamTransitionErrorCode =
  'EXAM_INVALID_TRANSITION' | 'EXAM_INVALID_RESULT' | 'EXAM_RESULT_REQUIRES_DONE';

export type ExamErrorCode = keyof typeof EXAM_ERRORS;

/** The text of a rejected import: how many problems the file has. */
export function importRejectedMessage(problems: number): string {
  return `Nenhum exame foi importado: ${problems} ${problems === 1 ? 'problema encontrado' : 'problemas encontrados'} no arquivo.`;
}
