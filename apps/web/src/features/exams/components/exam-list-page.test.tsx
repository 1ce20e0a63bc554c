/**
 * The exam list opens on today: the period ends today (a São Paulo day, the
 * API's period contract) and starts 30 days before, newest first, so that no
 * exam scheduled for the days ahead comes before today's.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { defaultExamPeriod, ExamListPage } from './exam-list-page';

// 23:30 of 19/11/2026 in São Paulo, already the 20th in UTC.
const NOW = new Date('2026-11-20T02:30:00.000Z');

describe('exam list', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens on today in São Paulo: the last 30 days up to today, newest first', async () => {
    const calls = stubServer({
      'GET /api/Exam': (call) =>
        json(200, { items: [], total: 0, page: Number(call.query.page ?? 1), pageSize: 20 }),
      'GET /api/SchedulingLocal': () => json(200, { items: [], total: 0, page: 1, pageSize: 100 }),
    });
    renderWithProviders(<ExamListPage />);
    await waitFor(() => expect(calls.some((call) => call.path === '/api/Exam')).toBe(true));
    const list = calls.find((call) => call.path === '/api/Exam');
    expect(list?.query).toMatchObject({
      startDate: '2026-10-20',
      endDate: '2026-11-19',
      sort: 'schedulingDate',
      order: 'desc',
    });
    expect(screen.getByRole('button', { name: /Período/ })).toHaveTextContent(
      '20/10/2026 – 19/11/2026',
    );
  });

  it('defaultExamPeriod ends on the São Paulo day, whatever the zone of the browser', () => {
    expect(defaultExamPeriod(new Date('2026-11-20T02:59:00.000Z'))).toEqual([
      '2026-10-20',
      '2026-11-19',
    ]);
    expect(defaultExamPeriod(new Date('2026-11-20T03:00:00.000Z'))).toEqual([
      '2026-10-21',
      '2026-11-20',
    ]);
  });
});
