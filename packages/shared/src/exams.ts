/**
 * Exams (spec 3, 4): statuses, results and the state machine that every
 * change goes through. An illegal change is refused with a clear message.
 */
import { z } from 'zod';

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

export type TransitionCheck = { ok: true } | { ok: false; code: string; message: string };

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

export const schedulingLocalSchema = z.object({
  id: z.string(),
  identifier: z.string(),
  description: z.string(),
  federativeUnit: z.string(),
  address: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SchedulingLocal = z.infer<typeof schedulingLocalSchema>;
