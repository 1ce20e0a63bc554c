/**
 * Sign-in through the unit's identity providers (`api/Auth/sso`): the
 * providers the sign-in screen offers, the address that starts a sign-in
 * (the browser goes there; the server sends it on to the provider), and the
 * exchange of the one-time hand-off the provider's return brings back.
 */
import { authUserSchema, type AuthUser } from '@exame/shared';
import { api } from '../../../lib/api';
import { appStore } from '../../../lib/app-store';

export { signInProvidersQuery, ssoStartAddress } from '../../../api/sign-in-providers';

export async function completeSsoSignIn(handoff: string): Promise<AuthUser> {
  const user = authUserSchema.parse(await api.post<unknown>('api/Auth/sso/session', { handoff }));
  appStore.setUser(user);
  return user;
}

/** A proof of identity through the provider for this session (`purpose=reauth`). */
export async function confirmWithSso(handoff: string): Promise<void> {
  await api.post<unknown>('api/Auth/sso/reauthenticate', { handoff });
}
