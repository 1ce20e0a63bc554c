/**
 * Exam rooms (spec 2: `/room-management`, `/exam-room/:examRoomId`): rooms of
 * a post with their stations, the station board with the status icons of
 * spec 3, and the examiner's actions on an exam, each through the exam state
 * machine.
 */
import { z } from 'zod';
import { errorCatalogue } from './errors';
import { maskedExamFields, type ExamResult, type ExamStatus } from './exams';

export const ROOM_CODE_PATTERN = /^[A-Za-z0-9_.]{1,20}$/;

export const ROOM_ERRORS = errorCatalogue({
  ROOM_NOT_FOUND: { status: 404, message: 'Sala não encontrada.' },
  ROOM_CODE_TAKEN: { status: 409, message: 'Já existe uma sala com este código no posto.' },
  ROOM_POST_NOT_FOUND: {
    status: 404,
    message: 'Posto de atendimento não encontrado ou desativado nesta unidade.',
  },
  ROOM_PROCTORING_DISABLED: {
    status: 400,
    message: 'A supervisão remota está desativada nesta unidade: não há salas de prova.',
  },
  ROOM_CODE_IN_USE: {
    status: 409,
    message:
      'Há exames que indicam esta sala pelo código atual: o código não pode mudar. Altere o nome ou crie outra sala.',
  },
  STATION_NOT_FOUND: { status: 404, message: 'Estação não encontrada nesta sala.' },
  STATION_CODE_IN_USE: {
    status: 409,
    message:
      'Há exames que indicam esta estação pelo identificador atual: ele não pode mudar. Altere a posição ou cadastre outra estação.',
  },
  STATION_CODE_TAKEN: {
    status: 409,
    message: 'Já existe uma estação com este identificador na sala.',
  },
  ROOM_NOT_HELD: {
    status: 403,
    message:
      'Somente os examinadores com entrada aberta nesta sala (ou um administrador) podem agir nela.',
  },
  ROOM_EXAM_NOT_FOUND: { status: 404, message: 'Exame não encontrado nesta sala no dia.' },
  ROOM_ACTION_INVALID: { status: 409, message: 'Esta ação não é possível na situação do exame.' },
});
export type RoomErrorCode = keyof typeof ROOM_ERRORS;

const code = z
  .string()
  .trim()
  .regex(ROOM_CODE_PATTERN, 'Use de 1 a 20 letras, números, ponto ou sublinhado no código.');
const roomName = z.string().trim().min(2, 'Informe o nome da sala.').max(80);
const stationCode = z.string().trim().min(1, 'Informe a estação.').max(40);
const position = z.coerce.number().int().min(1, 'A posição começa em 1.').max(500);

export const stationInputSchema = z.object({ code: stationCode, position });
export type StationInput = z.input<typeof stationInputSchema>;

export const createRoomSchema = z.object({
  /** The post identifier (`DEMO.POSTO01`). */
  schedulingLocal: z.string().trim().min(1, 'Escolha o posto.').max(80),
  code,
  name: roomName,
  stations: z.array(stationInputSchema).max(200).optional(),
});
export type CreateRoomInput = z.input<typeof createRoomSchema>;

export const updateRoomSchema = z.object({
  code: code.optional(),
  name: roomName.optional(),
  isActive: z.boolean().optional(),
});
export type UpdateRoomInput = z.input<typeof updateRoomSchema>;

export const updateStationSchema = z.object({
  code: stationCode.optional(),
  position: position.optional(),
  isActive: z.boolean().optional(),
});
export type UpdateStationInput = z.input<typeof updateStationSchema>;

export const stationSchema = z.object({
  id: z.string(),
  code: z.string(),
  position: z.number().int(),
  isActive: z.boolean(),
});
export type Station = z.infer<typeof stationSchema>;

export const roomHolderSchema = z.object({
  checkInId: z.string(),
  openedAt: z.string(),
  examiners: z.array(z.string()),
});

export const roomSchema = z.object({
  id: z.string(),
  federativeUnit: z.string(),
  schedulingLocal: z.string(),
  schedulingLocalDescription: z.string(),
  code: z.string(),
  name: z.string(),
  /** The exams' local of this room (`DEMO.POSTO01-S2`). */
  examLocal: z.string(),
  isActive: z.boolean(),
  stations: z.array(stationSchema),
  /** The open check-ins that hold the room (spec: who has custody now). */
  heldBy: z.array(roomHolderSchema),
});
export type ExamRoom = z.infer<typeof roomSchema>;

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');

export const roomListQuerySchema = z.object({
  schedulingLocal: z.string().trim().max(80).optional(),
  includeInactive: flag,
  /** Only the rooms the caller holds now (an examiner in their open check-in). */
  mine: flag,
});

/* ------------------------------------------------------------------------ */
/* Station status (spec 3 icons)                                             */
/* ------------------------------------------------------------------------ */

/**
 * The station statuses of spec 3. `audited`, `not_audited` and
 * `not_approved` come from the auditors' decisions; until an audit decides,
 * a finished exam in analysis is `processing`.
 */
export const STATION_STATUSES = [
  'scheduled',
  'started',
  'interrupted',
  'absent',
  'processing',
  'finished',
  'approved',
  'reproved',
  'not_approved',
  'disqualified',
  'audited',
  'not_audited',
  'cancelled',
] as const;
export type StationStatus = (typeof STATION_STATUSES)[number];

export const STATION_STATUS_LABELS: Readonly<Record<StationStatus, string>> = {
  scheduled: 'Agendado',
  started: 'Em andamento',
  interrupted: 'Interrompido',
  absent: 'Ausente',
  processing: 'Em análise',
  finished: 'Finalizado',
  approved: 'Aprovado',
  reproved: 'Reprovado',
  not_approved: 'Não aprovado',
  disqualified: 'Desclassificado',
  audited: 'Auditado',
  not_audited: 'Não auditado',
  cancelled: 'Cancelado',
};

/**
 * The station icon of an exam from its status and result. `audited`,
 * `not_audited` and `not_approved` (spec 3) depend on the auditors' decision,
 * which the audit feature records; until an exam carries one, a finished
 * exam shows its result (or `processing` while it waits for the audit).
 */
export function stationStatusOf(exam: {
  status: ExamStatus;
  result: ExamResult | null;
  interrupted?: boolean;
}): StationStatus {
  switch (exam.status) {
    case 'scheduled':
      return 'scheduled';
    case 'started':
      return exam.interrupted ? 'interrupted' : 'started';
    case 'absence':
      return 'absent';
    case 'cancelled':
      return 'cancelled';
    case 'done':
      if (exam.result === 'in_analysis') return 'processing';
      if (exam.result === 'approved') return 'approved';
      if (exam.result === 'reproved') return 'reproved';
      if (exam.result === 'disqualified') return 'disqualified';
      return 'finished';
  }
}

/* ------------------------------------------------------------------------ */
/* The board                                                                 */
/* ------------------------------------------------------------------------ */

export const boardExamSchema = z.object({
  ...maskedExamFields,
  interrupted: z.boolean(),
  stationStatus: z.enum(STATION_STATUSES),
  station: z.string().nullable(),
  occurrences: z.number().int(),
  photos: z.number().int(),
});
export type BoardExam = z.infer<typeof boardExamSchema>;

export const BOARD_COUNTERS = [
  'total',
  'scheduled',
  'started',
  'interrupted',
  'absent',
  'finished',
] as const;
export type BoardCounter = (typeof BOARD_COUNTERS)[number];
export const BOARD_COUNTER_LABELS: Readonly<Record<BoardCounter, string>> = {
  total: 'Exames do dia',
  scheduled: 'Agendados',
  started: 'Em andamento',
  interrupted: 'Interrompidos',
  absent: 'Ausentes',
  finished: 'Finalizados',
};

export const boardSchema = z.object({
  room: roomSchema,
  /** The São Paulo day of the board (`YYYY-MM-DD`). */
  day: z.string(),
  counters: z.record(z.enum(BOARD_COUNTERS), z.number().int()),
  /** Each active station in board order with its current exam (running first, else next, else last). */
  stations: z.array(
    z.object({
      station: stationSchema,
      exam: boardExamSchema.nullable(),
      /** The station's other exams of the day. */
      others: z.number().int(),
    }),
  ),
  /** Every exam of the room on the day, in time order. */
  exams: z.array(boardExamSchema),
  /** Exams of the room whose station no station of the room names: listed apart, never lost. */
  unplaced: z.array(boardExamSchema),
  /** Whether the caller may act on the room (an examiner in its open check-in, or ADMIN). */
  canAct: z.boolean(),
  /**
   * The finished exams whose certificate the caller may issue: ADMIN, every
   * released result; an examiner, those whose room they held while the exam
   * ran; AUDITOR none.
   */
  certificateExamIds: z.array(z.string()),
});
export type RoomBoard = z.infer<typeof boardSchema>;

export const boardQuerySchema = z.object({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Informe o dia como AAAA-MM-DD.')
    .optional(),
});

/** Exams of a post on a day whose room no room of the post names (room management). */
export const unplacedQuerySchema = z.object({
  schedulingLocal: z.string().trim().min(1).max(80),
  day: boardQuerySchema.shape.day,
});

/* ------------------------------------------------------------------------ */
/* The examiner's actions                                                    */
/* ------------------------------------------------------------------------ */

export const ROOM_ACTIONS = ['absence', 'interrupt', 'resume', 'finish'] as const;
export type RoomAction = (typeof ROOM_ACTIONS)[number];
export const ROOM_ACTION_LABELS: Readonly<Record<RoomAction, string>> = {
  absence: 'Registrar ausência',
  interrupt: 'Interromper',
  resume: 'Retomar',
  finish: 'Finalizar e enviar o resultado',
};

/** What an action needs of the exam, and what it refuses otherwise (pt-BR). */
export function roomActionProblem(
  action: RoomAction,
  exam: { status: ExamStatus; interrupted: boolean },
): string | null {
  switch (action) {
    case 'absence':
      return exam.status === 'scheduled'
        ? null
        : 'A ausência só pode ser registrada em um exame agendado, antes do início.';
    case 'interrupt':
      if (exam.status !== 'started') return 'Só um exame em andamento pode ser interrompido.';
      return exam.interrupted ? 'O exame já está interrompido.' : null;
    case 'resume':
      return exam.status === 'started' && exam.interrupted
        ? null
        : 'Só um exame interrompido pode ser retomado.';
    case 'finish':
      if (exam.status !== 'started') return 'Só um exame em andamento pode ser finalizado.';
      return exam.interrupted ? 'Retome o exame interrompido antes de finalizá-lo.' : null;
  }
}

export const roomActionSchema = z.object({ action: z.enum(ROOM_ACTIONS) });

export const roomOccurrenceSchema = z.object({
  type: z.string().trim().min(2, 'Informe o tipo da ocorrência.').max(60),
  description: z.string().trim().min(3, 'Descreva a ocorrência.').max(1000),
  /** A photo (base64 JPEG, PNG or WebP), optional. */
  photo: z.string().min(1, 'A foto enviada está vazia.').max(7_000_000).optional(),
});
export type RoomOccurrenceInput = z.input<typeof roomOccurrenceSchema>;

/** The kinds of occurrence the board offers (free text is accepted too). */
export const ROOM_OCCURRENCE_TYPES = [
  { value: 'terceiro', label: 'Outra pessoa no ambiente' },
  { value: 'movimento', label: 'Movimento suspeito' },
  { value: 'rosto_ausente', label: 'Rosto fora do enquadramento' },
  { value: 'ruido', label: 'Ruído no ambiente' },
  { value: 'tecnico', label: 'Problema técnico' },
  { value: 'outro', label: 'Outro' },
] as const;
