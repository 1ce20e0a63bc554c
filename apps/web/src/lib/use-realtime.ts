/**
 * `useRealtimeEvents`: the signed-in user's realtime stream while a screen is
 * open. The stream opens with the screen, closes when it leaves (or the
 * session ends) and opens again when `deps` change; the callbacks may change
 * on every render without reconnecting.
 */
import { useEffect, useRef, useState, type DependencyList } from 'react';
import { appStore, useAppState } from './app-store';
import { openEventStream, type EventStreamOptions, type RealtimeStatus } from './realtime';

export type UseRealtimeOptions = EventStreamOptions & {
  /** false: no stream (e.g. until the screen knows its local). */
  enabled?: boolean;
  /**
   * The stream is the exam-notification watcher of spec 3: its close
   * function is kept in the app store, so that logout closes it.
   */
  examNotification?: boolean;
};

/** Returns the stream's status, for a connection indicator. */
export function useRealtimeEvents(
  options: UseRealtimeOptions,
  deps: DependencyList,
): RealtimeStatus {
  const enabled = options.enabled ?? true;
  const local = options.local;
  const signedIn = useAppState((state) => state.user !== null);
  // A stream about to open is 'connecting' from the first render, not 'closed'.
  const [status, setStatus] = useState<RealtimeStatus>(() =>
    enabled && signedIn ? 'connecting' : 'closed',
  );
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    if (!enabled || !signedIn) return;
    const close = openEventStream({
      local,
      onEvent: (event) => latest.current.onEvent(event),
      onResync: () => latest.current.onResync?.(),
      onStatus: (next) => {
        setStatus(next);
        latest.current.onStatus?.(next);
      },
    });
    const watcher = latest.current.examNotification ?? false;
    if (watcher) appStore.setUnsubscribeDocExamNotification(close);
    return () => {
      close();
      if (watcher && appStore.getState().unsubscribeDocExamNotification === close) {
        appStore.setUnsubscribeDocExamNotification(null);
      }
    };
    // The stream follows its switch, the session, the local and the caller's deps; the callbacks are read through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, signedIn, local, ...deps]);

  return status;
}
