/** The app's API client instance, wired to the runtime configuration and the signed-in user. */
import { createApiClient } from './api-client';
import { appStore } from './app-store';
import { readWebConfig } from './config';

export const api = createApiClient({
  baseUrl: readWebConfig().apiBaseUrl,
  getToken: () => appStore.getState().user?.token ?? null,
  onUnauthorized: () => {
    // The server ended the session (expired, revoked, user disabled): forget it locally.
    appStore.clearSession();
  },
});
