/**
 * The board's live feed: the events of the room's exams (status, result,
 * occurrences, photos) from the server's event stream, resumed from the last
 * one after a dropped connection; each one refreshes the board (a burst of
 * events refreshes it once). Leaving the page closes the stream.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { openEventStream, type RealtimeStatus } from '../../lib/realtime';
import { roomKeys } from './api/exam-rooms';

const REFRESH_DELAY_MS = 150;

export function useRoomEvents(examLocal: string | null, roomId: string): RealtimeStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>('connecting');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!examLocal) return undefined;
    const refresh = () => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: ['exam-rooms', 'board', roomId] });
        void queryClient.invalidateQueries({ queryKey: roomKeys.all, refetchType: 'none' });
      }, REFRESH_DELAY_MS);
    };
    const close = openEventStream({
      local: examLocal,
      onStatus: (next) => {
        setStatus(next);
        // The board was read before the stream followed the room (or while it was down):
        // once it follows, read it again so that nothing in between is missed.
        if (next === 'open') refresh();
      },
      onEvent: refresh,
      // More was missed than the server replays: the board is read again.
      onResync: refresh,
    });
    return () => {
      window.clearTimeout(timer.current);
      close();
    };
  }, [examLocal, roomId, queryClient]);
  return status;
}
