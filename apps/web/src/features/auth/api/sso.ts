/**
 * Sign-in through the unit's identity providers (`api/Auth/sso`): the
 * providers the sign-in screen offers, the address that starts a sign-in
 * (the browser goes there; the server sends it on to the provider), and the
 * exchange of the one-time hand-off the provider's return brings back.
 */
import {
  authUserSchema,
  signInProviderSchema,
  type AuthUser,
  type SignInProvider,
} from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { joinUrl } from '../../../lib/api-client';
import { appStore } from '../../../lib/app-store';
import { readWebConfig } from '../../../lib/config';

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

export async function completeSsoSignIn(handoff: string): Promise<AuthUser> {
  const user = authUserSchema.parse(await api.post<unknown>('api/Auth/sso/session', { handoff }));
  appStore.setUser(user);
  return user;
}

/** A proof of identity through the provider for this session (`purpose=reauth`). */
export async function confirmWithSso(handoff: string): Promise<void> {
  await api.post<unknown>('api/Auth/sso/reauthenticate', { handoff });
}
