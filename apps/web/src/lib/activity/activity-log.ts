/**
 * The app's activity log on the client: `recordActivity` puts an event in
 * the signed-in user's queue with its device id, app version and time;
 * `startActivityLog` sends the queue every few seconds, when the page is
 * hidden or left (`keepalive`) and when the browser is back online, and backs
 * off (5 s doubling up to 5 min) while the server is unreachable or busy.
 *
 * Events are only recorded with a user signed in: the server names the actor
 * and the unit from the session, and an event of nobody proves nothing. The
 * queue is kept per user (a hash of the e-mail in the key), so a sign-out
 * never hands one user's events to the next: they wait, in that browser,
 * until their own user signs in again. Sign-out first tries one last send.
 */
import {
  ACTIVITY_DETAILS_MAX_BYTES,
  ACTIVITY_TARGET_MAX,
  maskCpf,
  type WebActivityEvent,
  type WebActivityType,
} from '@exame/shared';
import { appStore } from '../app-store';
import { readWebConfig } from '../config';
import { getDeviceId } from '../storage';
import { createActivityQueue, type ActivityQueue, type FlushResult } from './activity-queue';
import { createActivitySender } from './activity-sender';

export const ACTIVITY_QUEUE_KEY_PREFIX = 'EP_ACTIVITY_QUEUE:';
export const FLUSH_INTERVAL_MS = 5_000;
export const MAX_BACKOFF_MS = 5 * 60_000;

/** FNV-1a, hex: a storage key per user without the e-mail in plain text. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

export function queueKeyFor(email: string): string {
  return `${ACTIVITY_QUEUE_KEY_PREFIX}${hashOf(email.trim().toLowerCase())}`;
}

const CPF_IN_PATH = /\d{3}\.?\d{3}\.?\d{3}-?\d{2}/g;

/**
 * The target of a page view: the path only. The query string and the hash
 * are left out (a password link's token, a search typed into a list); a CPF
 * in the path (`/demo-biometry/:cpf`, `/reset-password/:cpf`) is masked.
 */
export function pageTarget(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] ?? '';
  return truncate(
    path.replace(CPF_IN_PATH, (cpf) => maskCpf(cpf)),
    ACTIVITY_TARGET_MAX,
  );
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function byteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/**
 * Details that fit the server's limit: long texts are cut first; what is
 * still too big is replaced by a note saying so.
 */
export function fitDetails(details: Record<string, unknown>): Record<string, unknown> {
  if (byteLength(details) <= ACTIVITY_DETAILS_MAX_BYTES) return details;
  const cut: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    cut[key] = typeof value === 'string' ? truncate(value, 1000) : value;
  }
  if (byteLength(cut) <= ACTIVITY_DETAILS_MAX_BYTES) return cut;
  return { truncated: true, keys: Object.keys(details).slice(0, 50).join(',').slice(0, 2000) };
}

/** An error as details: its name, message and the top of its stack, never more. */
export function errorDetails(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return {
      name: error.name,
      message: truncate(error.message, 1000),
      stack: error.stack ? truncate(error.stack, 3000) : undefined,
    };
  }
  const candidate = error as { name?: unknown; message?: unknown } | null;
  if (typeof candidate?.message === 'string') {
    // A DOMException or an error from another realm: not always `instanceof Error`.
    return {
      name: typeof candidate.name === 'string' ? candidate.name : undefined,
      message: truncate(candidate.message, 1000),
    };
  }
  return { message: truncate(String(error), 1000) };
}

let queue: ActivityQueue | null = null;
let queueKey: string | null = null;

/** The queue of the signed-in user, or null without one. */
function currentQueue(): ActivityQueue | null {
  const user = appStore.getState().user;
  if (!user) return null;
  const key = queueKeyFor(user.email);
  if (queue && queueKey === key) return queue;
  queueKey = key;
  queue = createActivityQueue({
    storage: localStorageOrUndefined(),
    key,
    send: createActivitySender({
      baseUrl: readWebConfig().apiBaseUrl,
      getToken: () => appStore.getState().user?.token ?? null,
    }),
    onRejected: (status, message, count) =>
      console.warn(`[atividades] o servidor recusou ${count} evento(s) (${status}): ${message}`),
  });
  return queue;
}

function localStorageOrUndefined(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Records an event of the signed-in user; nothing without one. */
export function recordActivity(
  type: WebActivityType,
  target?: string,
  details?: Record<string, unknown>,
): void {
  const active = currentQueue();
  if (!active) return;
  const event: WebActivityEvent = {
    clientId: crypto.randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    deviceId: getDeviceId(),
    appVersion: truncate(appStore.getState().appVersion || '0.0.0', 50),
  };
  if (target) event.target = truncate(target, ACTIVITY_TARGET_MAX);
  if (details)
    event.details = fitDetails(JSON.parse(JSON.stringify(details)) as Record<string, unknown>);
  active.enqueue(event);
}

const REPEAT_WINDOW_MS = 10_000;
const lastErrors = new Map<string, number>();

/**
 * Records a client error. The same error at the same place again within
 * 10 s is left out: a failing render or a timer in a loop would otherwise
 * fill the queue and push out the page views.
 */
export function recordError(target: string, details: Record<string, unknown>): void {
  const fingerprint = `${target}|${String(details.message ?? '')}|${String(details.status ?? '')}`;
  const now = Date.now();
  const seen = lastErrors.get(fingerprint);
  if (seen !== undefined && now - seen < REPEAT_WINDOW_MS) return;
  lastErrors.set(fingerprint, now);
  if (lastErrors.size > 200) lastErrors.clear();
  recordActivity('error', target, details);
}

let lastPageViewKey: string | null = null;

/**
 * A page view for the navigation `locationKey`. The same key twice (React's
 * development double effects, a re-render after sign-in) is one view.
 */
export function recordPageView(locationKey: string, pathname: string): void {
  if (locationKey === lastPageViewKey) return;
  lastPageViewKey = locationKey;
  recordActivity('page_view', pageTarget(pathname));
}

/** The page the person is on, as a target. */
export function currentPageTarget(): string {
  return pageTarget(window.location.pathname);
}

function onWindowError(event: ErrorEvent): void {
  recordError(currentPageTarget(), {
    kind: 'window.onerror',
    ...errorDetails(event.error ?? event.message),
    // The script's address without its query string.
    source: event.filename ? pageTarget(event.filename) : undefined,
    line: event.lineno || undefined,
    column: event.colno || undefined,
  });
}

function onUnhandledRejection(event: PromiseRejectionEvent): void {
  recordError(currentPageTarget(), { kind: 'unhandledrejection', ...errorDetails(event.reason) });
}

let backoffMs = 0;
let nextAttemptAt = 0;

/**
 * Sends what is waiting, batch after batch, until the queue is empty or a
 * send fails (then the next try waits longer). A batch the bound pushed out
 * becomes an `error` event of its own, so a gap in the log is on record.
 */
export async function flushActivity(options: { keepalive?: boolean } = {}): Promise<FlushResult> {
  const active = currentQueue();
  if (!active) return 'empty';
  let last: FlushResult = 'empty';
  for (let round = 0; round < 20; round += 1) {
    const result = await active.flush(options);
    if (result === 'retry') {
      backoffMs = Math.min(backoffMs ? backoffMs * 2 : FLUSH_INTERVAL_MS, MAX_BACKOFF_MS);
      nextAttemptAt = Date.now() + backoffMs;
      return result;
    }
    if (result === 'empty' || result === 'busy') return round === 0 ? result : last;
    last = result;
    backoffMs = 0;
    nextAttemptAt = 0;
    const dropped = active.takeDropped();
    if (dropped > 0) {
      recordActivity('error', 'activity-queue', {
        message: `${dropped} evento(s) descartado(s): a fila local passou do limite.`,
        dropped,
      });
    }
    if (options.keepalive) break;
  }
  return last;
}

let started = false;

/**
 * Installs the timer, the page-lifecycle sends and the capture of uncaught
 * errors and unhandled rejections; once per page.
 */
export function startActivityLog(): () => void {
  if (started) return () => undefined;
  started = true;
  const tick = () => {
    if (Date.now() < nextAttemptAt) return;
    void flushActivity();
  };
  const timer = window.setInterval(tick, FLUSH_INTERVAL_MS);
  const onHidden = () => {
    if (document.visibilityState === 'hidden') void flushActivity({ keepalive: true });
  };
  const onPageHide = () => void flushActivity({ keepalive: true });
  const onOnline = () => {
    nextAttemptAt = 0;
    backoffMs = 0;
    void flushActivity();
  };
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('online', onOnline);
  window.addEventListener('error', onWindowError);
  window.addEventListener('unhandledrejection', onUnhandledRejection);
  return () => {
    window.removeEventListener('error', onWindowError);
    window.removeEventListener('unhandledrejection', onUnhandledRejection);
    started = false;
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('online', onOnline);
  };
}

/** Before signing out: one send of what waits, given at most `timeoutMs`. */
export async function flushActivityBeforeSignOut(timeoutMs = 2_000): Promise<void> {
  await Promise.race([
    flushActivity({ keepalive: true }).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, timeoutMs)),
  ]);
}
