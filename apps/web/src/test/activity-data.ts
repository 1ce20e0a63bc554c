/** Data of the activity log screen tests, typed with the shared contracts. */
import type { ActivityItem } from '@exame/shared';

/** A page view of Ana's, number `seq` of the log; `patch` makes the others. */
export function activityItemOf(seq: number, patch: Partial<ActivityItem> = {}): ActivityItem {
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    seq,
    type: 'page_view',
    actorId: 'u1',
    actorName: 'Ana Souza',
    actorEmail: 'ana@exemplo.gov.br',
    federativeUnit: 'DF',
    target: '/exames',
    details: {},
    deviceId: 'dispositivo-1',
    appVersion: '1.0.0',
    occurredAt: '2026-11-26T09:00:00.000Z',
    createdAt: '2026-11-26T09:00:01.000Z',
    hash: 'a'.repeat(64),
    ...patch,
  };
}
