/**
 * The activity log's API contract: the events the web app sends
 * (`POST api/ActivityLog/events`: page views, client errors, camera and
 * capture logs, idempotent by `clientId`), and the ADMIN's search, export and
 * chain check (`GET api/ActivityLog`, `/export`, `/verify`).
 */
import { z } from 'zod';

/** The event types a browser may send; the rest are written by the server with their change. */
export const ACTIVITY_CLIENT_TYPES = ['page_view', 'error', 'stream_log'] as const;
export type ActivityClientType = (typeof ACTIVITY_CLIENT_TYPES)[number];

export const ACTIVITY_TARGET_MAX = 500;
/** The largest `details` object, serialised as JSON (bytes of UTF-8). */
export const ACTIVITY_DETAILS_MAX_BYTES = 8 * 1024;
export const ACTIVITY_DEVICE_ID_MAX = 100;
export const ACTIVITY_APP_VERSION_MAX = 50;
export const ACTIVITY_BATCH_MAX = 100;

function serialisedBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

export const activityClientEventSchema = z.object({
  clientId: z.uuid(),
  type: z.enum(ACTIVITY_CLIENT_TYPES),
  occurredAt: z.iso.datetime({ offset: true }),
  target: z.string().max(ACTIVITY_TARGET_MAX).optional(),
  details: z
    .record(z.string(), z.unknown())
    .refine((details) => serialisedBytes(details) <= ACTIVITY_DETAILS_MAX_BYTES, {
      message: `Os detalhes passam de ${ACTIVITY_DETAILS_MAX_BYTES} bytes.`,
    })
    .optional(),
  deviceId: z.string().min(1).max(ACTIVITY_DEVICE_ID_MAX),
  appVersion: z.string().min(1).max(ACTIVITY_APP_VERSION_MAX),
});
export type ActivityClientEvent = z.infer<typeof activityClientEventSchema>;

export const activityEventsBodySchema = z.object({
  events: z.array(activityClientEventSchema).min(1).max(ACTIVITY_BATCH_MAX),
});
export type ActivityEventsBody = z.infer<typeof activityEventsBodySchema>;

export const activityEventsReplySchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
});
export type ActivityEventsReply = z.infer<typeof activityEventsReplySchema>;

export const activityLogItemSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  federativeUnit: z.string().nullable(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  deviceId: z.string().nullable(),
  appVersion: z.string().nullable(),
  occurredAt: z.string(),
  createdAt: z.string(),
  hash: z.string(),
});
export type ActivityLogItem = z.infer<typeof activityLogItemSchema>;

export const activityLogPageSchema = z.object({
  items: z.array(activityLogItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ActivityLogPage = z.infer<typeof activityLogPageSchema>;

export const ACTIVITY_LOG_DEFAULT_PAGE_SIZE = 50;
export const ACTIVITY_LOG_MAX_PAGE_SIZE = 200;

/** The search's filters, as the query string carries them (`type` a comma list). */
export type ActivityLogFilters = {
  type?: string;
  actorId?: string;
  actor?: string;
  target?: string;
  from?: string;
  to?: string;
};

export const activityVerifyReplySchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  firstBroken: z
    .object({ id: z.string(), seq: z.number().int(), createdAt: z.string(), reason: z.string() })
    .nullable(),
});
export type ActivityVerifyReply = z.infer<typeof activityVerifyReplySchema>;
