/**
 * A refresh for bursts of live changes (an import, a busy morning, a room's
 * exams changing together): the first change of a burst schedules one
 * refresh `delayMs` later, and the changes that arrive meanwhile ride on it.
 * A load still running when the time comes is not cancelled: the refresh
 * waits for it and then runs, so every change is read by a load that began
 * after it. The dashboard and the station board share it.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export type CoalescedRefresh = { soon: () => void; cancel: () => void };

export function createCoalescedRefresh(
  queryClient: QueryClient,
  options: {
    delayMs: number;
    /** The queries whose load, if running, the refresh waits for. */
    busyKey: QueryKey;
    refresh: () => void;
  },
): CoalescedRefresh {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    if (queryClient.isFetching({ queryKey: options.busyKey }) > 0) {
      timer = setTimeout(fire, options.delayMs);
      return;
    }
    timer = undefined;
    options.refresh();
  };
  return {
    soon: () => {
      timer ??= setTimeout(fire, options.delayMs);
    },
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
