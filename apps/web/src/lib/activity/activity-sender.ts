/**
 * Sends one batch of activity events to `POST api/ActivityLog/events`.
 *
 * Not through the API client: a failed send must not be recorded as a failed
 * call (an `error` event about sending events, forever), and the page that
 * is going away needs `keepalive`. `navigator.sendBeacon` cannot carry the
 * `Authorization: Bearer` header the API signs requests with, so this is
 * `fetch(..., { keepalive: true })` for the last send of a page.
 */
import { activityBatchResultSchema, type WebActivityEvent } from '@exame/shared';
import { joinUrl } from '../api-client';
import type { SendOutcome } from './activity-queue';

export const ACTIVITY_EVENTS_PATH = 'api/ActivityLog/events';
const SEND_TIMEOUT_MS = 20_000;

/** Statuses that say the batch itself is wrong: sending it again gives the same answer. */
const REJECTED_STATUSES = new Set([400, 413, 422]);

export type SenderOptions = {
  baseUrl: string;
  getToken: () => string | null;
  fetchImpl?: typeof fetch;
};

export function createActivitySender(options: SenderOptions) {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  return async (
    events: readonly WebActivityEvent[],
    { keepalive }: { keepalive: boolean },
  ): Promise<SendOutcome> => {
    const token = options.getToken();
    // Without a session nobody can be named as the actor: keep the events for later.
    if (!token) return { kind: 'retry', status: null };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
    try {
      const response = await fetchImpl(joinUrl(options.baseUrl, ACTIVITY_EVENTS_PATH), {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ events }),
        keepalive,
        signal: controller.signal,
      });
      const text = await response.text().catch(() => '');
      if (response.ok) {
        const reply = activityBatchResultSchema.safeParse(safeJson(text));
        return reply.success
          ? { kind: 'sent', ...reply.data }
          : { kind: 'sent', accepted: events.length, duplicates: 0 };
      }
      if (REJECTED_STATUSES.has(response.status)) {
        const body = safeJson(text) as { Error?: unknown } | undefined;
        const message = typeof body?.Error === 'string' ? body.Error : `HTTP ${response.status}`;
        return { kind: 'rejected', status: response.status, message };
      }
      // 401 (the session ended; the events wait for the user's next sign-in), 404
      // (a server without the route yet), 408, 429, 5xx: all worth another try.
      return { kind: 'retry', status: response.status };
    } catch {
      return { kind: 'retry', status: null };
    } finally {
      clearTimeout(timer);
    }
  };
}

function safeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
