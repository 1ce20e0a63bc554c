/**
 * The "Agendamento" of the room screens is no dead end.
 * Examiners (VIEWER, ROOM_INSPECTOR) see the exam of their room on the board
 * and in the finished exams — its id, candidate, station and state, what the
 * board shows — and no link to the exam's detail, which would answer "Acesso
 * restrito"; ADMIN and auditor, who may open the detail, get the link.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXAM_DETAIL_ROLES, ROLES, type Role, type RoomBoard } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
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
const DONE = boardExamOf({
  id: 'e1',
  schedulingId: 'SP-2026-000123',
  candidateName: 'Ana Aprovada',
  candidateCpf: '***.111.222-**',
  status: 'done',
  result: 'approved',
  stationStatus: 'approved',
  station: 'E01',
  occurrences: 1,
});
const BOARD: RoomBoard = roomBoardOf({
  counters: { total: 1, scheduled: 0, started: 0, interrupted: 0, absent: 0, finished: 1 },
  stations: [
    { station: { id: 's1', code: 'E01', position: 1, isActive: true }, exam: DONE, others: 0 },
  ],
  exams: [DONE],
});

function serve() {
  stubServer({
    [`GET /api/ExamRoom/${ROOM_ID}/board`]: () => json(200, BOARD),
    'GET /api/ExamRoom': () => json(200, [ROOM]),
    'GET /api/Realtime/events': silentStream,
  });
}

function signIn(role: Role) {
  appStore.setUser({ ...TEST_USER, federativeUnit: 'SP', roleDescription: role });
}

const detailLinks = () =>
  screen.queryAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('/exames'));

describe('the scheduling id on the room screens', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('only the roles that open the exam detail are ADMIN and auditor', () => {
    expect([...EXAM_DETAIL_ROLES].sort()).toEqual(['ADMIN', 'auditor']);
  });

  for (const role of ROLES) {
    const opens = EXAM_DETAIL_ROLES.includes(role);

    it(`${role}: the board's list ${opens ? 'links the exam detail' : 'shows the id without a link'}`, async () => {
      signIn(role);
      serve();
      renderRoutes(
        [{ path: '/exam-room/:examRoomId', element: <ExamRoomPage /> }],
        `/exam-room/${ROOM_ID}`,
      );
      const list = await screen.findByTestId('room-exams');
      expect(list).toHaveTextContent('SP-2026-000123');
      expect(list).toHaveTextContent('Ana Aprovada');
      if (opens) {
        expect(within(list).getByRole('link', { name: 'SP-2026-000123' })).toHaveAttribute(
          'href',
          '/exames/SP-2026-000123',
        );
      } else {
        expect(within(list).getByTestId('scheduling-id')).toHaveTextContent('SP-2026-000123');
        expect(detailLinks()).toEqual([]);
      }
    });

    it(`${role}: the finished exams ${opens ? 'link the exam detail' : 'show the id without a link'}`, async () => {
      signIn(role);
      serve();
      renderRoutes(
        [{ path: '/finished-exam-view', element: <FinishedExamsPage /> }],
        `/finished-exam-view?room=${ROOM_ID}`,
      );
      const list = await screen.findByTestId('finished-exams');
      expect(list).toHaveTextContent('SP-2026-000123');
      if (opens) {
        expect(within(list).getByRole('link', { name: 'SP-2026-000123' })).toHaveAttribute(
          'href',
          '/exames/SP-2026-000123',
        );
      } else {
        expect(detailLinks()).toEqual([]);
      }
    });
  }
});
