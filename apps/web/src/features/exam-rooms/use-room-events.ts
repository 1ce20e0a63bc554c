/**
 * The board's live feed: the events of the room's local (its exams' status,
 * result, occurrences and photos, and the check-ins that hold it) from the
 * server's event stream, resumed from the last one after a dropped
 * connection; each one refreshes the board (a burst of events refreshes it
 * once: lib/coalesced-refresh.ts). The stream is the exam-notification watcher of spec 3: leaving the
 * page or logging out (`unsubscribeDocExamNotification`) closes it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { createCoalescedRefresh } from '../../lib/coalesced-refresh';
import type { RealtimeStatus } from '../../lib/realtime';
import { useRealtimeEvents } from '../../lib/use-realtime';
import { roomKeys } from './api/exam-rooms';

const REFRESH_DELAY_MS = 150;

export function useRoomEvents(examLocal: string | null, roomId: string): RealtimeStatus {
  const queryClient = useQueryClient();
  const refresher = useMemo(
    () =>
      createCoalescedRefresh(queryClient, {
        delayMs: REFRESH_DELAY_MS,
        busyKey: ['exam-rooms', 'board', roomId],
        refresh: () => {
          void queryClient.invalidateQueries({ queryKey: ['exam-rooms', 'board', roomId] });
          void queryClient.invalidateQueries({ queryKey: roomKeys.all, refetchType: 'none' });
        },
      }),
    [queryClient, roomId],
  );
  useEffect(() => () => refresher.cancel(), [refresher]);
  const refresh = refresher.soon;
  const status = useRealtimeEvents(
    {
      enabled: examLocal !== null,
      local: examLocal ?? undefined,
      examNotification: true,
      onEvent: refresh,
      // More was missed than the server replays: the board is read again.
      onResync: refresh,
      // The board was read before the stream followed the room (or while it was down):
      // once it follows, read it again so that nothing in between is missed.
      onStatus: (next) => {
        if (next === 'open') refresh();
      },
    },
    [roomId],
  );
  return examLocal === null ? 'connecting' : status;
}
