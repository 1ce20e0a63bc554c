/** The unit's identity providers (`api/IdentityProvider`, ADMIN). */
import type { IdentityProvider, IdentityProviderInput } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const identityProvidersQuery = queryOptions({
  queryKey: ['identity-providers'],
  queryFn: ({ signal }) => api.get<IdentityProvider[]>('api/IdentityProvider', { signal }),
});

export function createIdentityProvider(input: IdentityProviderInput) {
  return api.post<IdentityProvider>('api/IdentityProvider', input);
}

export function updateIdentityProvider(id: string, input: IdentityProviderInput) {
  return api.put<IdentityProvider>(`api/IdentityProvider/${id}`, input);
}

export function removeIdentityProvider(id: string) {
  return api.delete<null>(`api/IdentityProvider/${id}`);
}
