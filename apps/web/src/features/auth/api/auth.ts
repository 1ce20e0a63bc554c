/** Sign-in and sign-out against the product's identity provider (spec 7: `POST api/Auth`). */
import { authUserSchema, LOGOUT_RELOAD_DELAY_MS, type AuthUser, type User } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { flushActivityBeforeSignOut } from '../../../lib/activity/activity-log';
import { api } from '../../../lib/api';
import { appStore } from '../../../lib/app-store';

export type Credentials = { email: string; password: string };

export async function signIn(credentials: Credentials): Promise<AuthUser> {
  const user = authUserSchema.parse(await api.post<unknown>('api/Auth', credentials));
  appStore.setUser(user);
  return user;
}

/**
 * Logout exactly as spec 4: clear the user, the proctoring user and the saved
 * keys (auditorCpf and schedulingId included), end the server session when
 * there is one, then reload the page after 500 ms.
 */
export async function logout(
  options: {
    reload?: () => void;
    /** Where the browser goes instead of reloading: the identity provider's sign-out. */
    leaveTo?: (address: string) => void;
    delayMs?: number;
  } = {},
): Promise<void> {
  const hadSession = appStore.getState().user !== null;
  // After a sign-in through an identity provider that has one, its own sign-out follows ours.
  const providerLogout = appStore.getState().user?.providerLogoutUrl;
  // The events waiting can only be sent with this session: one last try first.
  if (hadSession) await flushActivityBeforeSignOut();
  const revoke = hadSession
    ? api.post('api/Auth/logout').catch(() => undefined)
    : Promise.resolve();
  // The request already carries the token; the local state can go now.
  appStore.clearSession();
  await revoke;
  const leaveTo = options.leaveTo ?? ((address: string) => window.location.assign(address));
  const reload = options.reload ?? (() => window.location.reload());
  setTimeout(
    providerLogout ? () => leaveTo(providerLogout) : reload,
    options.delayMs ?? LOGOUT_RELOAD_DELAY_MS,
  );
}

/** The server's view of the current session (`GET api/Auth/me`). */
export const sessionQuery = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: ({ signal }) => api.get<User>('api/Auth/me', { signal }),
  staleTime: 60_000,
  retry: false,
});
