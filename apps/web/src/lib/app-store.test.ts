import { FEDERATIVE_UNITS } from '@exame/shared';
import { describe, expect, it, vi } from 'vitest';
import { createAppStore, initialState } from './app-store';
import { getDeviceId, STORAGE_KEYS } from './storage';
import { TEST_PROCTORING, TEST_USER } from '../test/fixtures';

describe('client state', () => {
  it('selecting a unit sets its theme and persists it; a unit without theme gives the default', () => {
    const store = createAppStore(initialState('localhost'));
    const df = FEDERATIVE_UNITS.find((unit) => unit.uf === 'DF')!;
    store.selectFederativeUnit(df);
    expect(store.getState().theme).toBe('valid-df-theme');
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('valid-df-theme');
    store.selectFederativeUnit({ ...df, uf: 'XX', theme: null });
    expect(store.getState().theme).toBe('default-theme');
    expect(localStorage.getItem('theme')).toBe('default-theme');
    // A new start on a neutral host reads the stored theme back.
    store.selectFederativeUnit(FEDERATIVE_UNITS.find((unit) => unit.uf === 'CE')!);
    expect(initialState('localhost').theme).toBe('valid-theme');
  });

  it('persists the user under EP_ADMIN_USER and restores it on start', () => {
    const store = createAppStore(initialState('localhost'));
    store.setUser(TEST_USER);
    expect(JSON.parse(localStorage.getItem('EP_ADMIN_USER') ?? 'null')).toEqual(TEST_USER);
    expect(initialState('localhost').user).toEqual(TEST_USER);
  });

  it('keeps examiner 2 across a reload while the proof lasts, and forgets an expired one', () => {
    localStorage.setItem('EP_ADMIN_USER_PROCTORING', JSON.stringify(TEST_PROCTORING));
    expect(initialState('localhost').userProctoring).toEqual(TEST_PROCTORING);
    localStorage.setItem(
      'EP_ADMIN_USER_PROCTORING',
      JSON.stringify({ ...TEST_PROCTORING, expiresAt: '2020-01-01T00:00:00.000Z' }),
    );
    expect(initialState('localhost').userProctoring).toBeNull();
  });

  it('ignores a stored user that is not valid', () => {
    localStorage.setItem('EP_ADMIN_USER', '{"name":"x"}');
    expect(initialState('localhost').user).toBeNull();
    localStorage.setItem('EP_ADMIN_USER', 'não é json');
    expect(initialState('localhost').user).toBeNull();
  });

  it('clearing the session removes the session keys and keeps theme and device', () => {
    const store = createAppStore(initialState('localhost'));
    store.setUser(TEST_USER);
    store.setUserProctoring(TEST_PROCTORING);
    store.setCpfViewer('52998224725');
    store.setSchedulingLocal('DF-001', 'Posto Asa Sul');
    store.setStateExamMenu({ examRoomId: 'r1', name: 'Sala 1' });
    localStorage.setItem('auditorCpf', '52998224725');
    localStorage.setItem('schedulingId', '123');
    localStorage.setItem('sessionFireBase', 'x');
    store.setTheme('valid-df-theme');
    const deviceId = getDeviceId();
    store.clearSession();
    for (const key of [
      'EP_ADMIN_USER',
      'EP_ADMIN_USER_PROCTORING',
      'EP_SCHEDULING_LOCAL',
      'schedulingLocalDescription',
      'auditorCpf',
      'schedulingId',
      'cpfViewer',
      'sessionFireBase',
    ]) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    expect(store.getState().user).toBeNull();
    expect(store.getState().stateExamMenu).toBeNull();
    expect(localStorage.getItem('theme')).toBe('valid-df-theme');
    expect(localStorage.getItem('deviceId')).toBe(deviceId);
  });

  it('clearing the session unsubscribes the exam-notification watcher; a new watcher closes the previous one', () => {
    const store = createAppStore(initialState('localhost'));
    store.setUser(TEST_USER);
    const first = vi.fn();
    const second = vi.fn();
    store.setUnsubscribeDocExamNotification(first);
    store.setUnsubscribeDocExamNotification(second);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
    store.clearSession();
    expect(second).toHaveBeenCalledTimes(1);
    expect(store.getState().unsubscribeDocExamNotification).toBeNull();
    // Once: a second logout finds nothing to unsubscribe.
    store.clearSession();
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('the device id is a UUID v4 made once', () => {
    const first = getDeviceId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(getDeviceId()).toBe(first);
    localStorage.setItem('deviceId', 'corrompido');
    expect(getDeviceId()).not.toBe('corrompido');
  });
});
