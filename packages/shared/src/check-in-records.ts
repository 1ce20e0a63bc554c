/** Check-in records as the API shows them: statuses, examiners, history, searches and the exams of a record's post. */
import { z } from 'zod';
import { cpfSchema } from './cpf';
import { EXAM_RESULTS, EXAM_STATUSES } from './exams';
import { pageOf, pageQueryParams } from './pagination';
import { periodDateSchema } from './period';
import { ADMITTED_BY } from './check-in-examiners';

/* ------------------------------------------------------------------------ */
/* Records                                                                   */
/* ------------------------------------------------------------------------ */

export const CHECK_IN_STATUSES = ['open', 'closed', 'force_closed'] as const;
export type CheckInStatus = (typeof CHECK_IN_STATUSES)[number];
export const CHECK_IN_STATUS_LABELS: Readonly<Record<CheckInStatus, string>> = {
  open: 'Aberta',
  closed: 'Encerrada',
  force_closed: 'Encerrada pelo administrador',
};

/** Spec 3: the viewer check-in record of the dashboard. */
export const checkInViewerSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  /** Masked. */
  cpf: z.string(),
  faceUrl: z.string().nullable(),
  checkInDate: z.string(),
  checkOutValidated: z.boolean(),
  checkOutDate: z.string().nullable(),
  checkOutFaceUrl: z.string().nullable(),
  /** Removed from the room while it was open (update-checkIn). */
  removedAt: z.string().nullable(),
  /** How the examiner proved who they are; null for entries recorded before this was kept. */
  admittedBy: z.enum(ADMITTED_BY).nullable(),
});
export type CheckInViewer = z.infer<typeof checkInViewerSchema>;

export const CHECK_IN_EVENT_TYPES = [
  'open',
  'viewer_add',
  'viewer_remove',
  'viewer_check_out',
  'close',
  'force_close',
  'examiner_transfer',
] as const;
export type CheckInEventType = (typeof CHECK_IN_EVENT_TYPES)[number];
export const CHECK_IN_EVENT_LABELS: Readonly<Record<CheckInEventType, string>> = {
  open: 'Sala aberta',
  viewer_add: 'Examinador incluído',
  viewer_remove: 'Examinador removido',
  viewer_check_out: 'Saída registrada',
  close: 'Sala encerrada',
  force_close: 'Sala encerrada pelo administrador',
  examiner_transfer: 'Sala transferida',
};

export const checkInEventSchema = z.object({
  type: z.enum(CHECK_IN_EVENT_TYPES),
  at: z.string(),
  actorName: z.string().nullable(),
  /** Whom it concerns (an examiner's name), when it concerns one. */
  subject: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who handed the room over (`examiner_transfer`). */
  transferredFrom: z.string().nullable(),
  /** How the examiner who entered proved who they are (`viewer_add`, `examiner_transfer`). */
  admittedBy: z.enum(ADMITTED_BY).nullable(),
});
export type CheckInEvent = z.infer<typeof checkInEventSchema>;

export const checkInRecordSchema = z.object({
  id: z.string(),
  federativeUnit: z.string(),
  schedulingLocal: z.string(),
  schedulingLocalDescription: z.string(),
  /** The room the record holds; null when the post had no rooms at check-in. */
  examRoom: z.object({ id: z.string(), name: z.string(), code: z.string() }).nullable(),
  status: z.enum(CHECK_IN_STATUSES),
  checkInDate: z.string(),
  checkOutDate: z.string().nullable(),
  openedBy: z.object({ id: z.string(), name: z.string() }),
  deviceId: z.string().nullable(),
  closeReason: z.string().nullable(),
  faceValidationRequired: z.boolean(),
  /** Sorted by check-in date (spec 4). */
  viewers: z.array(checkInViewerSchema),
  history: z.array(checkInEventSchema),
});
export type CheckInRecord = z.infer<typeof checkInRecordSchema>;

/**
 * `GET myOpenCheckIns`: an open record of the signed-in examiner, read from
 * the server on any device (the post the browser kept is not needed). Theirs
 * when they are among its examiners (in the room, or already out while the
 * other is still in) or opened it for the separate viewer identity.
 */
export const myOpenCheckInSchema = z.object({
  record: checkInRecordSchema,
  /** The caller's examiner entry in the record; null when they opened it for someone else. */
  viewerId: z.string().nullable(),
  /** Whether the caller is in the room now (not yet out): they may add, remove, transfer. */
  inRoom: z.boolean(),
});
export type MyOpenCheckIn = z.infer<typeof myOpenCheckInSchema>;

export const findCheckInQuerySchema = z.object({
  viewerCpf: cpfSchema,
  schedulingLocal: z.string().trim().min(1).max(80),
});

export const CHECK_IN_SEARCH_STATUSES = ['open', 'closed'] as const;

export const searchCheckInQuerySchema = z.object({
  ...pageQueryParams(),
  schedulingLocal: z.string().trim().max(80).optional(),
  /** Name or CPF of an examiner. */
  examiner: z.string().trim().max(120).optional(),
  status: z.enum(CHECK_IN_SEARCH_STATUSES).optional(),
  startDate: periodDateSchema,
  endDate: periodDateSchema,
});
export type SearchCheckInQuery = z.input<typeof searchCheckInQuerySchema>;

export const checkInSummarySchema = z.object({
  id: z.string(),
  schedulingLocal: z.string(),
  schedulingLocalDescription: z.string(),
  /** The room's name, when the record holds one. */
  examRoomName: z.string().nullable(),
  status: z.enum(CHECK_IN_STATUSES),
  checkInDate: z.string(),
  checkOutDate: z.string().nullable(),
  viewers: z.array(
    z.object({
      name: z.string(),
      cpf: z.string(),
      checkOutDate: z.string().nullable(),
      checkOutValidated: z.boolean(),
    }),
  ),
});
export type CheckInSummary = z.infer<typeof checkInSummarySchema>;
export const checkInPageSchema = pageOf(checkInSummarySchema);
export type CheckInPage = z.infer<typeof checkInPageSchema>;

/** `GET exams?checkInId`: the exams of the record's post and day (spec 3 check-in exam: id, cpf). */
export const checkInExamsQuerySchema = z.object({
  checkInId: z.uuid('Registro de entrada inválido.'),
  ...pageQueryParams({ defaultSize: 50, maxSize: 200 }),
});

export const checkInExamSchema = z.object({
  id: z.string(),
  /** The candidate's CPF, masked. */
  cpf: z.string(),
  schedulingId: z.string(),
  candidateName: z.string(),
  schedulingDate: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  room: z.string().nullable(),
  station: z.string().nullable(),
});
export type CheckInExam = z.infer<typeof checkInExamSchema>;
export const checkInExamPageSchema = pageOf(checkInExamSchema);
export type CheckInExamPage = z.infer<typeof checkInExamPageSchema>;
