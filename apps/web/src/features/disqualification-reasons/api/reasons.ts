/** The disqualification-reason calls (`api/DisqualificationReason`); query keys live here only. */
import type {
  CreateDisqualificationReasonInput,
  DisqualificationReason,
  DisqualificationReasonPage,
  UpdateDisqualificationReasonInput,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const reasonKeys = {
  all: ['disqualification-reasons'] as const,
  list: (params: { page: number; pageSize: number; search: string; onlyActive: boolean }) =>
    ['disqualification-reasons', 'list', params] as const,
};

export function reasonListQuery(params: {
  page: number;
  pageSize: number;
  search: string;
  onlyActive: boolean;
}) {
  return queryOptions({
    queryKey: reasonKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<DisqualificationReasonPage>('api/DisqualificationReason', {
        signal,
        query: {
          page: params.page,
          pageSize: params.pageSize,
          search: params.search || undefined,
          onlyActive: params.onlyActive ? 'true' : undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export const createReason = (input: CreateDisqualificationReasonInput) =>
  api.post<DisqualificationReason>('api/DisqualificationReason', input);

export const updateReason = (id: string, input: UpdateDisqualificationReasonInput) =>
  api.put<DisqualificationReason>(`api/DisqualificationReason/${id}`, input);
