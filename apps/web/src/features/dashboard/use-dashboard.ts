/** The dashboard controller bound to React: one controller per mounted dashboard. */
import { dayInZone } from '@exame/shared';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { readString, STORAGE_KEYS, writeString } from '../../lib/storage';
import { fetchExamReport } from './api/dashboard';
import {
  createDashboardController,
  parseTimerSeconds,
  selectVisibleLocals,
  type TimerStorage,
} from './dashboard-state';

/** The refresh interval, in seconds, under the `timer` key (spec 3). */
export const localTimerStorage: TimerStorage = {
  read: () => parseTimerSeconds(readString(STORAGE_KEYS.timer)),
  write: (seconds) => writeString(STORAGE_KEYS.timer, String(seconds)),
};

export type UseDashboardOptions = {
  onError: (error: unknown) => void;
};

export function useDashboard(options: UseDashboardOptions) {
  const [controller] = useState(() => {
    const today = dayInZone(new Date());
    return createDashboardController({
      loader: (period, signal) => fetchExamReport(period, signal),
      onError: options.onError,
      timerStorage: localTimerStorage,
      // The dashboard opens on today, a São Paulo calendar day.
      initial: { startDate: today, endDate: today },
    });
  });
  useEffect(() => {
    controller.setErrorHandler(options.onError);
  });
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);
  const visibleLocals = useMemo(() => selectVisibleLocals(state), [state]);
  return { state, controller, visibleLocals };
}
