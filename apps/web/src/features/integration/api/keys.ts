import type { ApiKey } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const apiKeyQuery = queryOptions({
  queryKey: ['integration', 'keys'],
  queryFn: ({ signal }) => api.get<ApiKey[]>('api/Integration/keys', { signal }),
});

export function createApiKey(name: string) {
  return api.post<{ apiKey: ApiKey; key: string }>('api/Integration/keys', { name });
}

export function revokeApiKey(id: string) {
  return api.delete<ApiKey>(`api/Integration/keys/${id}`);
}
