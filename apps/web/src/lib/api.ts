/** The app's API client instance, wired to the runtime configuration and the signed-in user. */
import { currentPageTarget, recordError } from './activity/activity-log';
import { createApiClient, type ApiFailureLog } from './api-client';
import { appStore } from './app-store';
import { readWebConfig } from './config';
import { requestReauth } from './reauth';

/**
 * Which failed calls become `error` events of the activity log: no answer
 * (network, timeout), 5xx, 408, 413 and 429 — the failures of the system.
 * The other 4xx are answers about the request (401 session, 403 rights, 404
 * missing, 409 conflict, 400/422 a rule or a form) that the screen already
 * shows to the person; they are not errors of the app. Only the method, the
 * path without its query, the status, the code and the message are kept:
 * never a request body, a password or a token.
 */
export function isRecordedFailure(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 413 || status === 429;
}

export function recordApiFailure(entry: ApiFailureLog): void {
  if (!isRecordedFailure(entry.status)) return;
  const path = entry.path.split('?')[0]?.replace(/^\/+/, '') ?? '';
  recordError(`${entry.method} ${path}`, {
    kind: 'api',
    status: entry.status,
    code: entry.code,
    message: entry.message,
    page: currentPageTarget(),
  });
}

export const api = createApiClient({
  baseUrl: readWebConfig().apiBaseUrl,
  getToken: () => appStore.getState().user?.token ?? null,
  logFailure: (entry) => {
    console.error(
      `[api] ${entry.method} ${entry.path} -> ${entry.status ?? 'sem resposta'}: ${entry.message}`,
    );
    recordApiFailure(entry);
  },
  onReauthRequired: requestReauth,
  onUnauthorized: () => {
    // The server ended the session (expired, revoked, user disabled): forget it locally.
    appStore.clearSession();
  },
});
