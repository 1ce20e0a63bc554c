/**
 * The service posts of the signed-in user's unit, as reference data for the
 * filters of any screen (the exam list today, the check-in screens next). The
 * key sits under `scheduling-locals`, so a change made on the posts screen
 * (which invalidates that prefix) refreshes every filter too.
 */
import type { SchedulingLocalPage } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

export const unitPostsQuery = queryOptions({
  queryKey: ['scheduling-locals', 'options'] as const,
  queryFn: ({ signal }) =>
    api.get<SchedulingLocalPage>('api/SchedulingLocal', {
      signal,
      query: { page: 1, pageSize: 200 },
    }),
  staleTime: 5 * 60_000,
});
