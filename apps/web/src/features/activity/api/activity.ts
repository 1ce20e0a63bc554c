/**
 * The activity log for the ADMIN (`api/ActivityLog`): the search, the CSV
 * export with the same filters and the chain check. Query keys live in these
 * factories only.
 */
import type { ActivityPage, ActivityType, ActivityVerify } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { saveFile } from '../../../lib/save-file';

export type ActivityFilters = {
  types: ActivityType[];
  /** Part of the actor's name or e-mail. */
  actor: string;
  /** Part of the target (a page, a CPF, an exam) or of the details. */
  target: string;
  /** `YYYY-MM-DD`, days in São Paulo (the API's period contract), both inclusive. */
  from: string | null;
  to: string | null;
};

export type ActivityListParams = ActivityFilters & { page: number; pageSize: number };

export const activityKeys = {
  all: ['activity'] as const,
  list: (params: ActivityListParams) => ['activity', 'list', params] as const,
};

/** The query string of the filters: `type` as a comma list, empty filters left out. */
export function filterQuery(filters: ActivityFilters) {
  return {
    type: filters.types.length ? filters.types.join(',') : undefined,
    actor: filters.actor.trim() || undefined,
    target: filters.target.trim() || undefined,
    from: filters.from ?? undefined,
    to: filters.to ?? undefined,
  };
}

export function activityListQuery(params: ActivityListParams) {
  return queryOptions({
    queryKey: activityKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<ActivityPage>('api/ActivityLog', {
        signal,
        query: { ...filterQuery(params), page: params.page, pageSize: params.pageSize },
      }),
    placeholderData: keepPreviousData,
    // The log grows as people use the app: what is shown is refreshed now and then.
    staleTime: 10_000,
  });
}

/** Walks the hash chain of the unit's log (`api/ActivityLog/verify`). */
export function verifyActivityChain(): Promise<ActivityVerify> {
  return api.get<ActivityVerify>('api/ActivityLog/verify', { timeoutMs: 300_000 });
}

/** Downloads the CSV of the events the filters find and hands it to the browser; its file name. */
export async function downloadActivityCsv(filters: ActivityFilters): Promise<string> {
  const file = await api.download('api/ActivityLog/export', {
    query: filterQuery(filters),
    timeoutMs: 300_000,
  });
  const filename = file.filename ?? 'atividades.csv';
  saveFile(file.blob, filename);
  return filename;
}
