/** The calls of the possible-fraud cases (`api/FraudCase`); query keys live here only. */
import type {
  CloseFraudCaseInput,
  FraudCaseDetail,
  FraudCasePage,
  FraudCaseQuery,
  FraudCaseSent,
} from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type FraudCaseListParams = {
  status: NonNullable<FraudCaseQuery['status']>;
  schedulingLocal: string | null;
  /** `YYYY-MM-DD`, a day in São Paulo (the API's period contract), inclusive. */
  startDate: string | null;
  endDate: string | null;
  page: number;
  pageSize: number;
};

export const fraudCaseKeys = {
  all: ['fraud-cases'] as const,
  list: (params: FraudCaseListParams) => ['fraud-cases', 'list', params] as const,
  detail: (id: string) => ['fraud-cases', 'detail', id] as const,
};

export function fraudCaseListQuery(params: FraudCaseListParams) {
  return queryOptions({
    queryKey: fraudCaseKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<FraudCasePage>('api/FraudCase', {
        signal,
        query: {
          status: params.status,
          schedulingLocal: params.schedulingLocal ?? undefined,
          startDate: params.startDate ?? undefined,
          endDate: params.endDate ?? undefined,
          page: params.page,
          pageSize: params.pageSize,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export function fraudCaseDetailQuery(id: string) {
  return queryOptions({
    queryKey: fraudCaseKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<FraudCaseDetail>(`api/FraudCase/${encodeURIComponent(id)}`, { signal }),
    // Photo addresses are signed for a few minutes: refresh before they expire.
    staleTime: 60_000,
    refetchInterval: 4 * 60_000,
  });
}

export const sendFraudCaseToAudit = (id: string) =>
  api.post<FraudCaseSent>(`api/FraudCase/${encodeURIComponent(id)}/send-to-audit`);

export const closeFraudCase = (id: string, input: CloseFraudCaseInput) =>
  api.post<FraudCaseDetail>(`api/FraudCase/${encodeURIComponent(id)}/close`, input);
