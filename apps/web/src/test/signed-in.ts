/**
 * Hooks of a describe block whose tests run signed in: each test starts with
 * `user` in the app store and `console.error` silenced (the screens log the
 * failed calls the tests provoke); after it, the stubbed globals and the
 * session go.
 */
import type { AuthUser } from '@exame/shared';
import { afterEach, beforeEach, vi } from 'vitest';
import { appStore } from '../lib/app-store';

export function signInForEachTest(user: AuthUser) {
  beforeEach(() => {
    appStore.setUser(user);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });
}
