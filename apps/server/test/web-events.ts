/** A browser event as the web client sends it, for the activity tests. */
import { randomUUID } from 'node:crypto';
import type { WebEventRow } from '../src/modules/activity/activity.repository';

/** A page view of now with a new client id; `overrides` change any field, valid or not. */
export function webEvent<T extends Record<string, unknown> = Record<never, never>>(
  overrides: T = {} as T,
): Omit<WebEventRow, keyof T> & T {
  return {
    clientId: randomUUID(),
    type: 'page_view',
    occurredAt: new Date().toISOString(),
    target: '/exames',
    details: { from: '/inicio' },
    deviceId: 'dispositivo-1',
    appVersion: '1.4.2',
    ...overrides,
  };
}
