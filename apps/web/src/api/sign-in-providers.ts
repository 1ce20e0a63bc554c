/**
 * A unit's identity providers as the sign-in screen and the confirmation
 * dialog offer them, and the address that starts a trip through one (the
 * browser goes there; the server sends it on to the provider).
 */
import { signInProviderSchema, type SignInProvider } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../lib/api';
import { joinUrl } from '../lib/api-client';
import { readWebConfig } from '../lib/config';

export const signInProvidersQuery = (unit: string | null) =>
  queryOptions({
    queryKey: ['auth', 'sso-providers', unit],
    queryFn: async ({ signal }): Promise<SignInProvider[]> =>
      z
        .array(signInProviderSchema)
        .parse(
          await api.get('api/Auth/sso/providers', { query: { federativeUnit: unit! }, signal }),
        ),
    enabled: unit !== null,
    staleTime: 5 * 60_000,
    // The password form works without them: a failure hides the buttons, it does not block.
    retry: false,
  });

export function ssoStartAddress(providerId: string): string {
  return joinUrl(readWebConfig().apiBaseUrl, `api/Auth/sso/${providerId}/start`);
}
