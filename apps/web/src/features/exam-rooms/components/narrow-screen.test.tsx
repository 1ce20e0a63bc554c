/**
 * The room screens on a narrow screen (a phone, a tablet: the media query
 * of lib/use-narrow-screen.ts matches): the board keeps the stations with an
 * exam and collapses the empty ones into one line, shown on request; the
 * lists of exams (the board's, the finished exams) are lists of cards, not
 * tables that scroll sideways, and say everything the table said.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoardExam, RoomBoard } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { NARROW_SCREEN_QUERY } from '../../../lib/use-narrow-screen';
import {
  boardExamOf,
  examRoomOf,
  ROOM_ID,
  roomBoardOf,
  silentStream,
} from '../../../test/exam-room-data';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { ExamRoomPage } from './exam-room-page';
import { FinishedExamsPage } from './finished-exams-page';

const ROOM = examRoomOf();
const exam = (id: string, name: string, station: string, done: boolean): BoardExam =>
  boardExamOf({
    id,
    schedulingId: `SP-2026-${id}`,
    candidateName: name,
    candidateCpf: '***.111.222-**',
    status: done ? 'done' : 'started',
    result: done ? 'approved' : null,
    stationStatus: done ? 'approved' : 'started',
    station,
    occurrences: 2,
  });
const ANA = exam('000001', 'Ana Aprovada', 'E02', true);
const BRUNO = exam('000002', 'Bruno Presente', 'E05', false);
const station = (position: number, withExam: BoardExam | null) => ({
  station: { id: `s${position}`, code: `E0${position}`, position, isActive: true },
  exam: withExam,
  others: 0,
});
const BOARD: RoomBoard = roomBoardOf({
  counters: { total: 2, scheduled: 0, started: 1, interrupted: 0, absent: 0, finished: 1 },
  stations: [
    station(1, null),
    station(2, ANA),
    station(3, null),
    station(4, null),
    station(5, BRUNO),
  ],
  exams: [ANA, BRUNO],
});

describe('the room screens on a narrow screen', () => {
  beforeEach(() => {
    const wide = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...wide(query),
      matches: query === NARROW_SCREEN_QUERY,
    }));
    appStore.setUser({ ...TEST_USER, federativeUnit: 'SP', roleDescription: 'VIEWER' });
    stubServer({
      [`GET /api/ExamRoom/${ROOM_ID}/board`]: () => json(200, BOARD),
      'GET /api/ExamRoom': () => json(200, [ROOM]),
      'GET /api/Realtime/events': silentStream,
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('the board: empty stations collapse into one line and come back on request; the exams are a list', async () => {
    renderRoutes(
      [{ path: '/exam-room/:examRoomId', element: <ExamRoomPage /> }],
      `/exam-room/${ROOM_ID}`,
    );
    await screen.findByTestId('room-board');
    const cards = () => screen.getAllByTestId('station').map((card) => card.dataset.station);
    expect(cards()).toEqual(['E02', 'E05']);
    const empty = screen.getByTestId('empty-stations');
    expect(empty).toHaveTextContent('3 estações sem exame no dia: E01, E03, E04.');
    expect(screen.queryByText('Sem exame no dia.')).toBeNull();

    const list = screen.getByTestId('room-exams');
    expect(list.tagName).toBe('UL');
    expect(document.querySelector('table')).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    for (const text of [
      'Ana Aprovada',
      'CPF ***.111.222-**',
      'E02',
      'SP-2026-000001',
      'Ocorrências:',
    ]) {
      expect(items[0]).toHaveTextContent(text);
    }

    await userEvent.click(
      within(empty).getByRole('button', { name: 'Mostrar as estações sem exame' }),
    );
    expect(cards()).toEqual(['E01', 'E02', 'E03', 'E04', 'E05']);
    expect(screen.queryByTestId('empty-stations')).toBeNull();
  });

  it('the finished exams: a card per exam with its result and certificate, no table', async () => {
    renderRoutes(
      [{ path: '/finished-exam-view', element: <FinishedExamsPage /> }],
      `/finished-exam-view?room=${ROOM_ID}`,
    );
    const list = await screen.findByTestId('finished-exams');
    expect(list.tagName).toBe('UL');
    expect(document.querySelector('table')).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Ana Aprovada');
    expect(items[0]).toHaveTextContent('Resultado:Aprovado');
    expect(items[0]).toHaveTextContent('Certificado:—');
  });
});
