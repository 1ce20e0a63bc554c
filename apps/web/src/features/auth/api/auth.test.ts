import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import { logout } from './auth';
import { TEST_PROCTORING, TEST_USER } from '../../../test/fixtures';

describe('session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a stored user makes every call carry its bearer token', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    appStore.setUser(TEST_USER);
    const { api } = await import('../../../lib/api');
    await api.get('api/Auth/me');
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>).authorization).toBe(
      `Bearer ${TEST_USER.token}`,
    );
  });

  it('logout clears user, proctoring user and saved keys, unsubscribes the exam-notification watcher, ends the server session and reloads after 500 ms', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    appStore.setUser(TEST_USER);
    appStore.setUserProctoring(TEST_PROCTORING);
    appStore.setCpfViewer('52998224725');
    appStore.setSchedulingLocal('DF-001', 'Posto Asa Sul');
    localStorage.setItem('auditorCpf', '52998224725');
    localStorage.setItem('schedulingId', '123');
    localStorage.setItem('theme', 'valid-df-theme');
    const watcher = vi.fn();
    appStore.setUnsubscribeDocExamNotification(watcher);
    const reload = vi.fn();

    await logout({ reload });
    expect(watcher).toHaveBeenCalledOnce();

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Auth/logout');
    expect((init.headers as Record<string, string>).authorization).toBe(
      `Bearer ${TEST_USER.token}`,
    );
    for (const key of [
      'EP_ADMIN_USER',
      'EP_ADMIN_USER_PROCTORING',
      'EP_SCHEDULING_LOCAL',
      'auditorCpf',
      'schedulingId',
      'cpfViewer',
    ]) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    expect(appStore.getState().user).toBeNull();
    expect(appStore.getState().userProctoring).toBeNull();
    expect(localStorage.getItem('theme')).toBe('valid-df-theme');
    await vi.advanceTimersByTimeAsync(499);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledOnce();
  });

  it('logout without a session does not call the server but still reloads', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    appStore.setUser(null);
    const reload = vi.fn();
    await logout({ reload });
    await vi.advanceTimersByTimeAsync(500);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledOnce();
  });

  it("after a sign-in through an identity provider, logout ends ours and then goes to the provider's sign-out", async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const providerLogoutUrl = 'https://sso.exemplo.gov.br/logout?id_token_hint=x';
    appStore.setUser({ ...TEST_USER, providerLogoutUrl });
    const reload = vi.fn();
    const leaveTo = vi.fn();
    await logout({ reload, leaveTo });
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(appStore.getState().user).toBeNull();
    await vi.advanceTimersByTimeAsync(500);
    expect(leaveTo).toHaveBeenCalledWith(providerLogoutUrl);
    expect(reload).not.toHaveBeenCalled();
  });
});
