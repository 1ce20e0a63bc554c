import {
  ALL_EXAMS_FILTER,
  emptyCounters,
  emptyMetadataCounts,
  type LocalReport,
} from '@exame/shared';
import { describe, expect, it } from 'vitest';
import {
  counterOfFilter,
  dashboardReducer,
  FILTER_OPTIONS,
  initialDashboardState,
  nextRefreshAt,
  parseTimerSeconds,
  periodPending,
  selectedReport,
  selectVisibleLocals,
  timerSecondsFromMinutes,
} from './dashboard-state';

function local(id: string, name: string, total: number, approved = 0): LocalReport {
  return {
    id,
    // The post's own identifier, as "Postos de atendimento" lists it.
    identifier: id.replace(/^DF\./, 'DEMO.'),
    name,
    report: { ...emptyCounters(), total, approved, finished: approved },
    fromMetadata: emptyMetadataCounts(),
  };
}

const MARCH = { startDate: '2026-03-01', endDate: '2026-03-31' };

describe('dashboard screen state (spec 4)', () => {
  it('loads the first period at once', () => {
    const state = initialDashboardState(MARCH);
    expect(state.period).toEqual(MARCH);
    expect(periodPending(state)).toBe(false);
  });

  it('a date change keeps the loaded period until it is applied', () => {
    const changed = dashboardReducer(initialDashboardState(MARCH), {
      type: 'dates-changed',
      startDate: '2026-04-01',
      endDate: '2026-04-30',
    });
    expect(changed.period).toEqual(MARCH);
    expect(periodPending(changed)).toBe(true);
    const applied = dashboardReducer(changed, { type: 'period-applied' });
    expect(applied.period).toEqual({ startDate: '2026-04-01', endDate: '2026-04-30' });
    expect(periodPending(applied)).toBe(false);
    expect(dashboardReducer(applied, { type: 'period-applied' })).toBe(applied);
  });

  it('the same dates again change nothing', () => {
    const state = initialDashboardState(MARCH);
    expect(dashboardReducer(state, { type: 'dates-changed', ...MARCH })).toBe(state);
  });

  it('a missing date resets the period and the selection at once, and nothing is applied', () => {
    const selected = dashboardReducer(initialDashboardState(MARCH), {
      type: 'select',
      local: { id: 'DF.A', identifier: 'DEMO.A', name: 'Posto A' },
    });
    const cleared = dashboardReducer(selected, {
      type: 'dates-changed',
      startDate: '2026-03-01',
      endDate: null,
    });
    expect(cleared.period).toBeNull();
    expect(cleared.selected).toBeNull();
    expect(periodPending(cleared)).toBe(false);
    expect(dashboardReducer(cleared, { type: 'period-applied' }).period).toBeNull();
  });

  it('keeps a selected post absent from the data, with every counter at zero', () => {
    const selected = { id: 'DF.B', identifier: 'DEMO.B', name: 'Posto B' };
    expect(selectedReport(selected, [local('DF.A', 'Posto A', 1)])).toEqual({
      ...selected,
      report: emptyCounters(),
      fromMetadata: emptyMetadataCounts(),
    });
    expect(
      selectedReport(selected, [local('DF.A', 'Posto A', 1), local('DF.B', 'Posto B', 7, 5)])
        ?.report,
    ).toMatchObject({ total: 7, approved: 5 });
    expect(selectedReport(null, [local('DF.A', 'Posto A', 1)])).toBeNull();
  });

  it('the timer is set in minutes and kept in seconds, up to 2 hours', () => {
    expect(timerSecondsFromMinutes(2)).toBe(120);
    expect(timerSecondsFromMinutes(-1)).toBe(0);
    expect(timerSecondsFromMinutes(500)).toBe(7200);
    expect(timerSecondsFromMinutes(Number.NaN)).toBe(0);
    expect(parseTimerSeconds('90')).toBe(90);
    expect(parseTimerSeconds('99999')).toBe(7200);
    expect(parseTimerSeconds('abc')).toBeNull();
    expect(parseTimerSeconds(null)).toBeNull();
    const set = dashboardReducer(initialDashboardState(), {
      type: 'timer-set',
      seconds: 60,
      at: 5,
    });
    expect(set).toMatchObject({ timer: 60, timerSetAt: 5 });
  });

  it('the next reload is due one interval after the later of the last load and the timer change', () => {
    const state = { ...initialDashboardState(MARCH), timer: 60, timerSetAt: 1_000 };
    expect(nextRefreshAt(state, 0)).toBe(61_000);
    expect(nextRefreshAt(state, 10_000)).toBe(70_000);
    expect(nextRefreshAt({ ...state, timer: 0 }, 10_000)).toBeNull();
    expect(nextRefreshAt({ ...state, period: null }, 10_000)).toBeNull();
  });
});

describe('filter and search', () => {
  const locals = [
    local('DF.CENTRO', 'Posto Centro', 4, 2),
    local('DF.NORTE', 'Posto Asa Norte', 3, 0),
    local('DF.SUL', 'Posto São Sebastião', 0, 0),
  ];
  const view = { filterName: ALL_EXAMS_FILTER, search: '' };

  it('offers "Todos os exames" first and one pt-BR option per counter', () => {
    expect(FILTER_OPTIONS[0]).toBe(ALL_EXAMS_FILTER);
    expect(FILTER_OPTIONS).toContain('Aprovados');
    expect(FILTER_OPTIONS).toContain('Pendentes de auditoria');
    expect(counterOfFilter('Aprovados')).toBe('approved');
    expect(counterOfFilter(ALL_EXAMS_FILTER)).toBe('total');
  });

  it('an unknown filter falls back to "Todos os exames"', () => {
    const state = dashboardReducer(initialDashboardState(), { type: 'filter', filterName: 'x' });
    expect(state.filterName).toBe(ALL_EXAMS_FILTER);
  });

  it('keeps the posts whose filtered counter is above zero', () => {
    expect(selectVisibleLocals(locals, view)).toHaveLength(3);
    const approved = selectVisibleLocals(locals, { ...view, filterName: 'Aprovados' });
    expect(approved.map((entry) => entry.id)).toEqual(['DF.CENTRO']);
  });

  it('searches by name or the post’s own identifier, ignoring case and accents', () => {
    expect(selectVisibleLocals(locals, { ...view, search: 'sao seb' }).map((e) => e.id)).toEqual([
      'DF.SUL',
    ]);
    expect(selectVisibleLocals(locals, { ...view, search: 'demo.norte' }).map((e) => e.id)).toEqual(
      ['DF.NORTE'],
    );
    // The report id is the API's, never on screen: it finds nothing.
    expect(selectVisibleLocals(locals, { ...view, search: 'df.norte' })).toEqual([]);
    expect(selectVisibleLocals(locals, { ...view, search: 'nada' })).toEqual([]);
  });
});
