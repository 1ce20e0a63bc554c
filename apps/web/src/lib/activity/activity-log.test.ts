import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubServer } from '../../test/stub-server';
import { TEST_USER } from '../../test/fixtures';
import { recordApiFailure } from '../api';
import { appStore } from '../app-store';
import { flushActivity, queueKeyFor, recordActivity, startActivityLog } from './activity-log';

afterEach(() => {
  appStore.setUser(null);
  vi.unstubAllGlobals();
});

describe('recordActivity', () => {
  it('records nothing without a signed-in user', () => {
    appStore.setUser(null);
    recordActivity('page_view', '/home');
    expect(
      Object.keys(window.localStorage).filter((key) => key.startsWith('EP_ACTIVITY_QUEUE:')),
    ).toEqual([]);
  });

  it("keeps each user's events apart and sends them with that user's session", async () => {
    appStore.setUser({ ...TEST_USER, email: 'a@exemplo.gov.br', token: 'token-a' });
    recordActivity('page_view', '/home');
    recordActivity('error', 'GET api/Exam', { status: 500 });
    appStore.setUser({ ...TEST_USER, email: 'b@exemplo.gov.br', token: 'token-b' });
    recordActivity('page_view', '/list-users');

    const keyA = queueKeyFor('a@exemplo.gov.br');
    const keyB = queueKeyFor('b@exemplo.gov.br');
    expect(keyA).not.toBe(keyB);
    const storedA = JSON.parse(window.localStorage.getItem(keyA) ?? '{}') as {
      events: { type: string; target: string; deviceId: string; appVersion: string }[];
    };
    expect(storedA.events.map((event) => [event.type, event.target])).toEqual([
      ['page_view', '/home'],
      ['error', 'GET api/Exam'],
    ]);
    expect(storedA.events[0]?.deviceId).toBe(window.localStorage.getItem('deviceId'));
    expect(storedA.events[0]?.appVersion).toBe(appStore.getState().appVersion);

    const authorizations: (string | null)[] = [];
    const calls = stubServer({
      'POST /api/ActivityLog/events': (_call, init) => {
        authorizations.push(new Headers(init?.headers).get('authorization'));
        return json(200, { accepted: 1, duplicates: 0 });
      },
    });
    expect(await flushActivity()).toBe('sent');
    expect(calls).toHaveLength(1);
    expect(authorizations).toEqual(['Bearer token-b']);
    expect(window.localStorage.getItem(keyB)).toBeNull();
    // A's events wait for A.
    expect(window.localStorage.getItem(keyA)).not.toBeNull();
  });
});

describe('failed API calls', () => {
  it('records no answer, 5xx and 429 with method, path and status, and never the other 4xx', () => {
    appStore.setUser({ ...TEST_USER, email: 'c@exemplo.gov.br', token: 'token-c' });
    const failure = { method: 'POST' as const, code: null, message: 'falhou' };
    recordApiFailure({ ...failure, path: 'api/Exam/import?x=1', status: 503 });
    recordApiFailure({ ...failure, path: 'api/Auth', status: null });
    recordApiFailure({ ...failure, path: 'api/User', status: 429 });
    for (const status of [400, 401, 403, 404, 409, 422]) {
      recordApiFailure({ ...failure, path: `api/Other/${status}`, status });
    }
    const stored = JSON.parse(
      window.localStorage.getItem(queueKeyFor('c@exemplo.gov.br')) ?? '{}',
    ) as { events: { type: string; target: string; details: Record<string, unknown> }[] };
    expect(stored.events.map((event) => [event.type, event.target, event.details.status])).toEqual([
      ['error', 'POST api/Exam/import', 503],
      ['error', 'POST api/Auth', null],
      ['error', 'POST api/User', 429],
    ]);
  });
});

describe('uncaught errors', () => {
  it('an error thrown outside React and an unhandled rejection become error events of the page', () => {
    appStore.setUser({ ...TEST_USER, email: 'd@exemplo.gov.br', token: 'token-d' });
    window.history.replaceState(null, '', '/exames?pagina=2');
    const stop = startActivityLog();
    try {
      window.dispatchEvent(
        new ErrorEvent('error', {
          error: new TypeError('x is undefined'),
          message: 'x is undefined',
          filename: 'http://localhost/assets/exams-abc.js?v=1',
          lineno: 12,
          colno: 7,
        }),
      );
      // jsdom has no PromiseRejectionEvent: an event with the same shape.
      const rejection = Object.assign(new Event('unhandledrejection'), {
        reason: new Error('falha ao carregar'),
      });
      window.dispatchEvent(rejection);
    } finally {
      stop();
    }

    const stored = JSON.parse(
      window.localStorage.getItem(queueKeyFor('d@exemplo.gov.br')) ?? '{}',
    ) as { events: { type: string; target: string; details: Record<string, unknown> }[] };
    expect(stored.events.map((event) => [event.type, event.target])).toEqual([
      ['error', '/exames'],
      ['error', '/exames'],
    ]);
    expect(stored.events[0]?.details).toMatchObject({
      kind: 'window.onerror',
      name: 'TypeError',
      message: 'x is undefined',
      line: 12,
      column: 7,
    });
    expect(String(stored.events[0]?.details.source)).not.toContain('?');
    expect(stored.events[1]?.details).toMatchObject({
      kind: 'unhandledrejection',
      name: 'Error',
      message: 'falha ao carregar',
    });
  });
});
