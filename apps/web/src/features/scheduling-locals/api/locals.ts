import type { SchedulingLocal, SchedulingLocalPage } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type LocalPage = SchedulingLocalPage;
export type LocalInput = { identifier: string; description: string; address: string | null };

export const localKeys = {
  all: ['scheduling-locals'] as const,
  list: (params: { page: number; pageSize: number; search: string }) =>
    ['scheduling-locals', 'list', params] as const,
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

export function createLocal(input: LocalInput) {
  return api.post<SchedulingLocal>('api/SchedulingLocal', input);
}

export function updateLocal(id: string, input: Partial<LocalInput> & { isActive?: boolean }) {
  return api.put<SchedulingLocal>(`api/SchedulingLocal/${id}`, input);
}
