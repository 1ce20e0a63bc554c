import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { modals } from '@mantine/modals';
import { cleanNotifications, cleanNotificationsQueue } from '@mantine/notifications';
import { afterEach } from 'vitest';
import { appStore } from '../lib/app-store';
import { isReauthOpen, settleReauth } from '../lib/reauth';
import { fakeMatchMedia } from './match-media';

// findBy and waitFor wait for the screen's answer up to this long (the default
// 1 s is short for a loaded 2-core machine); a timeout only ends a stuck wait.
configure({ asyncUtilTimeout: 4000 });

// jsdom lacks these browser APIs that Mantine uses.
Object.defineProperty(window, 'matchMedia', { writable: true, value: fakeMatchMedia() });
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: {
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      ready: Promise.resolve(),
    },
  });
}

// Most test files share their worker's modules (project `web` of the root vitest.config.ts):
// the page-wide stores start over after every test, as on a new page.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  appStore.reload();
  cleanNotifications();
  cleanNotificationsQueue();
  modals.closeAll();
  if (isReauthOpen()) settleReauth(false);
});
