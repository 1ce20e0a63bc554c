/**
 * The exam rooms of the signed-in user's unit, as reference data for any
 * screen: the room-management screen and the board (features/exam-rooms),
 * and the check-in screens that pick a room or change who holds one. Every
 * key sits under `exam-rooms`, so invalidating that prefix refreshes them all.
 */
import type { ExamRoom } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

export const roomKeys = {
  all: ['exam-rooms'] as const,
  list: (post: string | null, includeInactive: boolean, mine: boolean) =>
    ['exam-rooms', 'list', post, includeInactive, mine] as const,
  board: (id: string, day: string | null) => ['exam-rooms', 'board', id, day] as const,
  unplaced: (post: string, day: string | null) => ['exam-rooms', 'unplaced', post, day] as const,
};

/** The rooms of the unit (of a post; with the inactive ones; or only those the caller holds). */
export function roomsQuery(post: string | null, includeInactive = false, mine = false) {
  return queryOptions({
    queryKey: roomKeys.list(post, includeInactive, mine),
    queryFn: ({ signal }) =>
      api.get<ExamRoom[]>('api/ExamRoom', {
        query: {
          schedulingLocal: post ?? undefined,
          includeInactive: includeInactive ? 'true' : undefined,
          mine: mine ? 'true' : undefined,
        },
        signal,
      }),
  });
}
