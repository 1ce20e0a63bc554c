/**
 * The finished exams of a room (`/finished-exam-view`): the room the board
 * names in `?room=` is the one shown (else the first of the examiner's
 * rooms), only the exams done are listed, the empty text, and a room list
 * that fails shows why.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoardExam, ExamRoom, RoomBoard } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import {
  boardExamOf as exam,
  EXAMINER,
  examRoomOf,
  roomBoardOf,
} from '../../../test/exam-room-data';
import { renderRoutes } from '../../../test/render';
import { FinishedExamsPage } from './finished-exams-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';

const R1 = 'a0000000-0000-4000-8000-000000000001';
const R2 = 'a0000000-0000-4000-8000-000000000002';

function room(id: string, code: string): ExamRoom {
  return examRoomOf({
    id,
    code,
    name: `Sala ${code.slice(1)}`,
    examLocal: `SP.POSTO01-${code}`,
  });
}
const ROOMS = [room(R1, 'S1'), room(R2, 'S2')];

function board(roomOf: ExamRoom, exams: BoardExam[]): RoomBoard {
  return roomBoardOf({
    room: roomOf,
    counters: {
      total: exams.length,
      scheduled: 0,
      started: 0,
      interrupted: 0,
      absent: 0,
      finished: 0,
    },
    exams,
    canAct: true,
  });
}

const APPROVED = exam({
  id: 'e1',
  candidateName: 'Ana Aprovada',
  candidateCpf: '***.111.222-**',
  status: 'done',
  result: 'approved',
  stationStatus: 'approved',
  station: 'E01',
});
const IN_ANALYSIS = exam({
  id: 'e2',
  candidateName: 'Bruno Em Análise',
  status: 'done',
  result: 'in_analysis',
  stationStatus: 'processing',
  station: 'E02',
});
const RUNNING = exam({
  id: 'e3',
  candidateName: 'Caio Em Andamento',
  status: 'started',
  stationStatus: 'started',
  station: 'E03',
});
const ABSENT = exam({
  id: 'e4',
  candidateName: 'Dora Ausente',
  status: 'absence',
  stationStatus: 'absent',
  station: 'E04',
});

function base(extra: Record<string, (call: Call) => Response> = {}) {
  return {
    'GET /api/ExamRoom': () => json(200, ROOMS),
    [`GET /api/ExamRoom/${R1}/board`]: () => json(200, board(ROOMS[0]!, [RUNNING])),
    [`GET /api/ExamRoom/${R2}/board`]: () =>
      json(200, board(ROOMS[1]!, [APPROVED, RUNNING, IN_ANALYSIS, ABSENT])),
    ...extra,
  };
}

function renderPage(path = '/finished-exam-view') {
  return renderRoutes([{ path: '/finished-exam-view', element: <FinishedExamsPage /> }], path);
}

const boardsRead = (calls: Call[]) =>
  calls.filter((call) => call.path.endsWith('/board')).map((call) => call.path);

describe('finished exams page', () => {
  beforeEach(() => {
    appStore.setUser(EXAMINER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('the room named by ?room= is chosen and only its exams done are listed', async () => {
    const calls = stubServer(base());
    renderPage(`/finished-exam-view?room=${R2}`);
    const table = await screen.findByTestId('finished-exams');
    expect(screen.getByRole('combobox', { name: 'Sala' })).toHaveValue('Sala 2 — Posto Sé');
    // An examiner sees the rooms they hold.
    expect(calls.find((call) => call.path === '/api/ExamRoom')?.query).toEqual({ mine: 'true' });
    expect(boardsRead(calls)).toEqual([`/api/ExamRoom/${R2}/board`]);

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ana Aprovada');
    expect(rows[0]).toHaveTextContent('***.111.222-**');
    expect(rows[0]).toHaveTextContent('E01');
    expect(rows[0]).toHaveTextContent('Aprovado');
    // An examiner sees the exam here, not its detail (scheduling-id.test.tsx): no dead link.
    expect(rows[0]).toHaveTextContent('SP-e1');
    expect(within(rows[0]!).queryByRole('link')).toBeNull();
    expect(rows[1]).toHaveTextContent('Bruno Em Análise');
    expect(rows[1]).toHaveTextContent('Em análise');
    expect(table).not.toHaveTextContent('Caio Em Andamento');
    expect(table).not.toHaveTextContent('Dora Ausente');
  });

  it('without ?room= the first room is shown; choosing another reads its board and names it in the URL', async () => {
    const calls = stubServer(base());
    const { router } = renderPage();
    expect(
      await screen.findByText('Nenhum exame finalizado nesta sala no dia.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sala' })).toHaveValue('Sala 1 — Posto Sé');
    expect(boardsRead(calls)).toEqual([`/api/ExamRoom/${R1}/board`]);

    await userEvent.click(screen.getByRole('combobox', { name: 'Sala' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Sala 2 — Posto Sé' }));
    expect(await screen.findByText('Ana Aprovada')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('room')).toBe(R2);
    expect(boardsRead(calls)).toEqual([`/api/ExamRoom/${R1}/board`, `/api/ExamRoom/${R2}/board`]);
  });

  it('without ?room= the room of the board opened last is shown', async () => {
    appStore.setStateExamMenu({ examRoomId: R2, name: 'Sala 2' });
    const calls = stubServer(base());
    renderPage();
    expect(await screen.findByText('Ana Aprovada')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sala' })).toHaveValue('Sala 2 — Posto Sé');
    expect(boardsRead(calls)).toEqual([`/api/ExamRoom/${R2}/board`]);
  });

  it('a room named in the URL that is not among the rooms falls back to the first', async () => {
    const calls = stubServer(base());
    renderPage('/finished-exam-view?room=a0000000-0000-4000-8000-000000000099');
    expect(
      await screen.findByText('Nenhum exame finalizado nesta sala no dia.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sala' })).toHaveValue('Sala 1 — Posto Sé');
    expect(boardsRead(calls)).toEqual([`/api/ExamRoom/${R1}/board`]);
    expect(screen.queryByTestId('finished-exams')).toBeNull();
  });

  it('an examiner without rooms is told to check in', async () => {
    const calls = stubServer(base({ 'GET /api/ExamRoom': () => json(200, []) }));
    renderPage();
    expect(
      await screen.findByText('Você não tem uma sala aberta. Registre a entrada em Sala de prova.'),
    ).toBeInTheDocument();
    expect(boardsRead(calls)).toEqual([]);
  });

  it('a failing room list shows its error', async () => {
    const calls = stubServer(
      base({
        'GET /api/ExamRoom': () =>
          json(400, {
            Error: 'A supervisão remota está desativada nesta unidade: não há salas de prova.',
            code: 'ROOM_PROCTORING_DISABLED',
          }),
      }),
    );
    renderPage(`/finished-exam-view?room=${R2}`);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Erro')).toBeInTheDocument();
    expect(alert).toHaveTextContent(
      'A supervisão remota está desativada nesta unidade: não há salas de prova.',
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Sala' })).toBeInvalid());
    expect(boardsRead(calls)).toEqual([]);
    expect(screen.queryByTestId('finished-exams')).toBeNull();
  });
});
