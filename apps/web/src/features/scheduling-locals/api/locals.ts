import type { SchedulingLocal } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type LocalPage = { items: SchedulingLocal[]; total: number; page: number; pageSize: number };
export type LocalInput = { identifier: string; description: string; address: string | null };

export const localKeys = {
  all: ['scheduling-locals'] as const,
  list: (params: { page: number; pageSize: number; search: string }) =>
    ['scheduling-locals', 'list', params] as const,
  options: ['scheduling-locals', 'options'] as const,
};

export function localListQuery(params: { page: number; pageSize: number; search: string }) {
  return queryOptions({
    queryKey: localKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<LocalPage>('api/SchedulingLocal', {
        signal,
        query: { page: params.page, pageSize: params.pageSize, search: params.search || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Every local of the unit, for filters. */
export const localOptionsQuery = queryOptions({
  queryKey: localKeys.options,
  queryFn: ({ signal }) =>
    api.get<LocalPage>('api/SchedulingLocal', { signal, query: { page: 1, pageSize: 200 } }),
  staleTime: 5 * 60_000,
});

export function createLocal(input: LocalInput) {
  return api.post<SchedulingLocal>('api/SchedulingLocal', input);
}

export function updateLocal(id: string, input: Partial<LocalInput> & { isActive?: boolean }) {
  return api.put<SchedulingLocal>(`api/SchedulingLocal/${id}`, input);
}
