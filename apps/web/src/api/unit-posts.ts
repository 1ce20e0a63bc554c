/**
 * The service posts of the signed-in user's unit, as reference data for the
 * filters of any screen (the exam list today, the check-in screens next). The
 * key sits under `scheduling-locals`, so a change made on the posts screen
 * (which invalidates that prefix) refreshes every filter too.
 */
import type { SchedulingLocal, SchedulingLocalPage } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

export const unitPostsQuery = queryOptions({
  queryKey: ['scheduling-locals', 'options'] as const,
  queryFn: ({ signal }) =>
    api.get<SchedulingLocalPage>('api/SchedulingLocal', {
      signal,
      query: { page: 1, pageSize: 200 },
    }),
  staleTime: 5 * 60_000,
});

/**
 * The active posts of a unit, for any role (the examiner picks the post of
 * the room; the room managers the post of a room).
 */
export function activePostsQuery(unit: string) {
  return queryOptions({
    queryKey: ['scheduling-locals', 'active', unit] as const,
    queryFn: ({ signal }) =>
      api.get<SchedulingLocal[]>(
        `api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/${encodeURIComponent(unit)}`,
        { signal },
      ),
    staleTime: 5 * 60_000,
  });
}
