/**
 * Realtime events (`GET api/Realtime/events`, Server-Sent Events): what the
 * server announces when an exam, its occurrences and photos or a check-in
 * change, so that open boards and the dashboard follow without reloading.
 * Every event belongs to one federative unit and carries an increasing id;
 * a client that reconnects sends the last id it saw and gets what it missed.
 */
import { z } from 'zod';
import { CHECK_IN_STATUSES } from './check-in-records';
import { EXAM_RESULTS, EXAM_STATUSES } from './exams';

export const REALTIME_KINDS = [
  'exam_changed',
  'occurrence_added',
  'photo_added',
  'check_in_changed',
] as const;
export type RealtimeKind = (typeof REALTIME_KINDS)[number];

/** The exam as a board shows it, after any change (created, status, result, data). */
export const examChangedPayloadSchema = z.object({
  examId: z.string(),
  schedulingId: z.string(),
  status: z.enum(EXAM_STATUSES),
  result: z.enum(EXAM_RESULTS).nullable(),
  /** The exam's local as the delivery system sends it (`DEMO.POSTO01-S2`). */
  schedulingLocal: z.string().nullable(),
  room: z.string().nullable(),
  station: z.string().nullable(),
  candidateName: z.string(),
  /** Masked (`***.982.247-**`): events reach every screen of the unit. */
  candidateCpf: z.string(),
});
export type ExamChangedPayload = z.infer<typeof examChangedPayloadSchema>;

export const occurrenceAddedPayloadSchema = z.object({
  examId: z.string(),
  schedulingId: z.string(),
  occurrenceId: z.string(),
  type: z.string(),
  description: z.string(),
  occurredAt: z.string(),
  hasPhoto: z.boolean(),
});
export type OccurrenceAddedPayload = z.infer<typeof occurrenceAddedPayloadSchema>;

export const photoAddedPayloadSchema = z.object({
  examId: z.string(),
  schedulingId: z.string(),
  photoId: z.string(),
});
export type PhotoAddedPayload = z.infer<typeof photoAddedPayloadSchema>;

export const checkInChangedPayloadSchema = z.object({
  checkInId: z.string(),
  /** The post of the check-in (`DEMO.POSTO01`). */
  schedulingLocal: z.string(),
  status: z.enum(CHECK_IN_STATUSES),
});
export type CheckInChangedPayload = z.infer<typeof checkInChangedPayloadSchema>;

export const REALTIME_PAYLOAD_SCHEMAS = {
  exam_changed: examChangedPayloadSchema,
  occurrence_added: occurrenceAddedPayloadSchema,
  photo_added: photoAddedPayloadSchema,
  check_in_changed: checkInChangedPayloadSchema,
} as const satisfies Record<RealtimeKind, z.ZodType>;

export type RealtimePayloads = {
  [K in RealtimeKind]: z.infer<(typeof REALTIME_PAYLOAD_SCHEMAS)[K]>;
};

/**
 * One event as the stream sends it (the `data:` line, JSON). A union by
 * `kind`, so that `event.kind === 'exam_changed'` types the payload.
 */
export type RealtimeEvent<K extends RealtimeKind = RealtimeKind> = {
  [P in K]: {
    id: number;
    kind: P;
    federativeUnit: string;
    /** The exam's local (or the check-in's post); null when the change has none. */
    schedulingLocal: string | null;
    payload: RealtimePayloads[P];
    /** When the change was written (ISO 8601). */
    at: string;
  };
}[K];

const eventBase = {
  id: z.number().int().positive(),
  federativeUnit: z.string(),
  schedulingLocal: z.string().nullable(),
  at: z.string(),
};

/** Reads one event of the stream (the web client checks what it receives). */
export const realtimeEventSchema = z.discriminatedUnion('kind', [
  z.object({ ...eventBase, kind: z.literal('exam_changed'), payload: examChangedPayloadSchema }),
  z.object({
    ...eventBase,
    kind: z.literal('occurrence_added'),
    payload: occurrenceAddedPayloadSchema,
  }),
  z.object({ ...eventBase, kind: z.literal('photo_added'), payload: photoAddedPayloadSchema }),
  z.object({
    ...eventBase,
    kind: z.literal('check_in_changed'),
    payload: checkInChangedPayloadSchema,
  }),
]);

/** An event id as the stream and `Last-Event-ID` carry it: a positive integer, or 0 for "none yet". */
export const realtimeEventIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, 'Identificador de evento inválido.')
  .transform(Number);

/** `GET api/Realtime/events`: an optional exact exam local, and where to resume. */
export const realtimeStreamQuerySchema = z.object({
  local: z.string().trim().min(1).max(80).optional(),
  lastEventId: realtimeEventIdSchema.optional(),
});
export type RealtimeStreamQuery = z.infer<typeof realtimeStreamQuerySchema>;

/** The server writes a comment this often, so proxies keep the stream and clients see it is alive. */
export const REALTIME_HEARTBEAT_MS = 15_000;
/** The most events one (re)connection replays; a client further behind is told to reload. */
export const REALTIME_REPLAY_LIMIT = 1000;
/**
 * The stream's control message (not a `RealtimeEvent`): the client missed
 * more than the replay holds and must reload what it shows; its `id:` is
 * where the stream goes on from.
 */
export const REALTIME_RESYNC = 'resync';
