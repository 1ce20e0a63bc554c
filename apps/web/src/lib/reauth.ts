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
