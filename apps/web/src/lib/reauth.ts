/**
 * The bridge between the API client, which meets a `reauth-required` answer,
 * and the dialog that asks the person for their password
 * (components/reauth-dialog.tsx). One request at a time: calls that meet the
 * answer while the dialog is open wait for the same outcome.
 */
type Listener = (open: boolean) => void;

let pending: { promise: Promise<boolean>; resolve: (proved: boolean) => void } | null = null;
const listeners = new Set<Listener>();

/** Opens the dialog (or joins the open one); true once the person proved who they are. */
export function requestReauth(): Promise<boolean> {
  if (pending) return pending.promise;
  let resolve!: (proved: boolean) => void;
  const promise = new Promise<boolean>((done) => {
    resolve = done;
  });
  pending = { promise, resolve };
  for (const listener of listeners) listener(true);
  // Nobody to ask (no dialog mounted): the call fails with its own message.
  if (listeners.size === 0) settleReauth(false);
  return promise;
}

/** The dialog's answer. */
export function settleReauth(proved: boolean): void {
  const current = pending;
  pending = null;
  for (const listener of listeners) listener(false);
  current?.resolve(proved);
}

export function subscribeReauth(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isReauthOpen(): boolean {
  return pending !== null;
}

/* A proof through the unit's identity provider leaves the page (a redirect). */

const SSO_REAUTH_KEY = 'exame_sso_reauth';

/** Remembers where to come back, then sends the browser to the provider (`purpose=reauth`). */
export function startProviderReauth(startAddress: string): void {
  settleReauth(false);
  sessionStorage.setItem(
    SSO_REAUTH_KEY,
    JSON.stringify({ returnTo: `${window.location.pathname}${window.location.search}` }),
  );
  const url = new URL(startAddress, window.location.origin);
  url.searchParams.set('purpose', 'reauth');
  window.location.assign(url.toString());
}

/** The proof through the provider is over (done or failed). */
export function clearProviderReauth(): void {
  sessionStorage.removeItem(SSO_REAUTH_KEY);
}

/** The page a proof through the provider started from (null when none is under way). */
export function readProviderReauth(): { returnTo: string } | null {
  const stored = sessionStorage.getItem(SSO_REAUTH_KEY);
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as { returnTo?: unknown };
    const returnTo = typeof parsed.returnTo === 'string' ? parsed.returnTo : '';
    // Only a path of this app.
    return { returnTo: /^\/(?!\/)/.test(returnTo) ? returnTo : '/home' };
  } catch {
    return { returnTo: '/home' };
  }
}
