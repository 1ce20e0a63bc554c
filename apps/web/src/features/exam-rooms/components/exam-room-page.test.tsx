/**
 * The station board of a room (`/exam-room/:examRoomId`): the room and its
 * counters as the server sends them, one card per station with the
 * candidate and the spec 3 status, the actions each exam's state allows
 * (after a confirmation), the occurrence form, the viewer's read-only
 * board, the link to the room's finished exams, and a failed refresh that
 * keeps the board on screen.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomBoard } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import {
  boardExamOf as exam,
  EXAMINER,
  examRoomOf,
  ROOM_ID,
  roomBoardOf,
  silentStream,
} from '../../../test/exam-room-data';
import { renderRoutes } from '../../../test/render';
import { ExamRoomPage } from './exam-room-page';
import {
  json,
  stubServer,
  type StubCall as Call,
  type StubHandler,
} from '../../../test/stub-server';

const BOARD_PATH = `/api/ExamRoom/${ROOM_ID}/board`;

const ROOM = examRoomOf({
  heldBy: [{ checkInId: 'c1', openedAt: new Date().toISOString(), examiners: [EXAMINER.name] }],
});

const station = (id: string, code: string, position: number) => ({
  id,
  code,
  position,
  isActive: true,
});

const ANA = exam({
  id: 'e1',
  candidateName: 'Ana Candidata',
  candidateCpf: '***.111.222-**',
  station: 'E01',
});
const BRUNO = exam({
  id: 'e2',
  candidateName: 'Bruno Candidato',
  candidateCpf: '***.333.444-**',
  status: 'started',
  stationStatus: 'started',
  station: 'E02',
});
const CAIO = exam({
  id: 'e3',
  candidateName: 'Caio Candidato',
  candidateCpf: '***.555.666-**',
  status: 'started',
  interrupted: true,
  stationStatus: 'interrupted',
  station: 'E03',
});
const DORA = exam({
  id: 'e4',
  candidateName: 'Dora Candidata',
  candidateCpf: '***.777.888-**',
  status: 'cancelled',
  stationStatus: 'cancelled',
  station: 'E05',
});

function board(overrides: Partial<RoomBoard> = {}): RoomBoard {
  return roomBoardOf({
    room: ROOM,
    // Not what the exams below add up to: the board shows the server's counters.
    counters: { total: 9, scheduled: 4, started: 2, interrupted: 1, absent: 1, finished: 3 },
    stations: [
      { station: station('s1', 'E01', 1), exam: ANA, others: 0 },
      { station: station('s2', 'E02', 2), exam: BRUNO, others: 2 },
      { station: station('s3', 'E03', 3), exam: CAIO, others: 0 },
      { station: station('s4', 'E04', 4), exam: null, others: 0 },
      { station: station('s5', 'E05', 5), exam: DORA, others: 0 },
    ],
    exams: [ANA, BRUNO, CAIO, DORA],
    canAct: true,
    ...overrides,
  });
}

/** The signals of the realtime streams opened, to see them closed. */
let streams: AbortSignal[] = [];

/** The realtime stream (read with fetch): silent, its signal kept to see it closed. */
function eventStream(call: Call, init?: RequestInit): Response {
  if (init?.signal) streams.push(init.signal);
  return silentStream(call, init);
}

function base(extra: Record<string, StubHandler> = {}) {
  return {
    [`GET ${BOARD_PATH}`]: () => json(200, board()),
    'GET /api/Realtime/events': eventStream,
    ...extra,
  };
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/exam-room/:examRoomId', element: <ExamRoomPage /> },
      { path: '/finished-exam-view', element: <p>Tela de exames finalizados</p> },
    ],
    `/exam-room/${ROOM_ID}`,
  );
}

const boardReads = (calls: Call[]) =>
  calls.filter((call) => call.method === 'GET' && call.path === BOARD_PATH).length;

async function stationCard(code: string) {
  await screen.findByTestId('room-board');
  const card = screen
    .getAllByTestId('station')
    .find((element) => element.getAttribute('data-station') === code);
  if (!card) throw new Error(`estação ${code} fora do quadro`);
  return card;
}

/**
 * A station's action button: its label, then the station's code for screen readers
 * (jsdom's accessible name drops the space before the dash).
 */
const action = (label: string, code: string) => new RegExp(`^${label}\\s?— ${code}$`);

const buttonNames = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((button) => button.textContent);

/** The global alert modal showing `title`. */
async function alertTitled(title: string) {
  const alert = await screen.findByTestId('alert-modal');
  expect(within(alert).getByTestId('alert-modal-title')).toHaveTextContent(title);
  return alert;
}

describe('exam room board', () => {
  beforeEach(() => {
    appStore.setUser(EXAMINER);
    streams = [];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('shows the room, the server’s counters and a card per station with candidate and masked CPF', async () => {
    const calls = stubServer(base());
    renderPage();
    expect(await screen.findByRole('heading', { level: 2, name: 'Sala 2' })).toBeInTheDocument();
    expect(
      screen.getByText('Posto Sé · SP.POSTO01-S2 · em uso por Carla Examinadora'),
    ).toBeInTheDocument();
    // Today's board: no day in the request.
    expect(calls.find((call) => call.path === BOARD_PATH)?.query).toEqual({});

    const counters = {
      total: ['Exames do dia', '9'],
      scheduled: ['Agendados', '4'],
      started: ['Em andamento', '2'],
      interrupted: ['Interrompidos', '1'],
      absent: ['Ausentes', '1'],
      finished: ['Finalizados', '3'],
    };
    for (const [counter, [label, value]] of Object.entries(counters)) {
      const tile = screen.getByTestId(`board-${counter}`);
      expect(tile.querySelector('dt')).toHaveTextContent(label!);
      expect(tile.querySelector('dd')).toHaveTextContent(new RegExp(`^${value}$`));
    }

    const stations = screen.getAllByTestId('station');
    expect(stations.map((card) => card.getAttribute('data-station'))).toEqual([
      'E01',
      'E02',
      'E03',
      'E04',
      'E05',
    ]);
    expect(stations.map((card) => card.getAttribute('data-station-status'))).toEqual([
      'scheduled',
      'started',
      'interrupted',
      'empty',
      'cancelled',
    ]);
    const e02 = await stationCard('E02');
    expect(within(e02).getByText('Bruno Candidato')).toBeInTheDocument();
    expect(e02).toHaveTextContent(/CPF \*\*\*\.333\.444-\*\* · \d{2}:\d{2} · SP-e2/);
    expect(e02).toHaveTextContent('Em andamento · +2 no dia');
    expect(within(e02).getByRole('img', { name: 'Em andamento' })).toBeInTheDocument();
    expect(await stationCard('E04')).toHaveTextContent('Sem exame no dia.');
    expect(within(await stationCard('E01')).getByText('Ana Candidata')).toBeInTheDocument();
    expect(await stationCard('E01')).toHaveTextContent('CPF ***.111.222-**');

    // The room's finished exams start on this room.
    expect(appStore.getState().stateExamMenu).toEqual({ examRoomId: ROOM_ID, name: 'Sala 2' });
  });

  it('follows the room’s local live, reads the board again once it follows, and closes the stream on leaving', async () => {
    let follow!: () => void;
    const following = new Promise<void>((resolve) => {
      follow = resolve;
    });
    const calls = stubServer(
      base({
        'GET /api/Realtime/events': async (call, init) => {
          await following;
          return eventStream(call, init);
        },
      }),
    );
    const { unmount } = renderPage();
    expect(await screen.findByTestId('live-status')).toHaveTextContent('Conectando…');
    expect(boardReads(calls)).toBe(1);
    follow();
    expect(await screen.findByText('Ao vivo')).toBeInTheDocument();
    const opened = calls.filter((call) => call.path === '/api/Realtime/events');
    expect(opened.map((call) => call.query)).toEqual([{ local: 'SP.POSTO01-S2' }]);
    expect(streams).toHaveLength(1);
    // Once the stream follows the room, the board is read again so nothing in between is missed.
    await waitFor(() => expect(boardReads(calls)).toBe(2));
    // It is the exam-notification watcher: logout closes it.
    expect(appStore.getState().unsubscribeDocExamNotification).toEqual(expect.any(Function));
    unmount();
    expect(streams[0]?.aborted).toBe(true);
    expect(appStore.getState().unsubscribeDocExamNotification).toBeNull();
  });

  it('offers exactly the actions each exam’s state allows', async () => {
    stubServer(base());
    renderPage();
    expect(buttonNames(await stationCard('E01'))).toEqual([
      'Registrar ausência — E01',
      'Ocorrência — E01',
    ]);
    expect(buttonNames(await stationCard('E02'))).toEqual([
      'Interromper — E02',
      'Finalizar e enviar o resultado — E02',
      'Ocorrência — E02',
    ]);
    expect(buttonNames(await stationCard('E03'))).toEqual(['Retomar — E03', 'Ocorrência — E03']);
    // No exam, or a cancelled one: nothing to act on.
    expect(buttonNames(await stationCard('E04'))).toEqual([]);
    expect(buttonNames(await stationCard('E05'))).toEqual([]);
    expect(screen.queryByText(/Você acompanha o quadro/)).toBeNull();
  });

  it('an action asks first: Cancelar sends nothing, Confirmar sends it and the board shows the new state', async () => {
    let current = board();
    const calls = stubServer(
      base({
        [`GET ${BOARD_PATH}`]: () => json(200, current),
        [`POST /api/ExamRoom/${ROOM_ID}/exams/e2/action`]: () => {
          const interrupted = {
            ...BRUNO,
            interrupted: true,
            stationStatus: 'interrupted' as const,
          };
          current = board({
            stations: current.stations.map((entry) =>
              entry.exam?.id === 'e2' ? { ...entry, exam: interrupted } : entry,
            ),
          });
          return json(200, interrupted);
        },
      }),
    );
    renderPage();
    const e02 = await stationCard('E02');
    await userEvent.click(within(e02).getByRole('button', { name: action('Interromper', 'E02') }));
    let confirm = await alertTitled('Interromper');
    expect(confirm).toHaveTextContent('Interromper o exame de Bruno Candidato?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('alert-modal')).toBeNull());
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(within(e02).getByRole('button', { name: action('Interromper', 'E02') }));
    confirm = await alertTitled('Interromper');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.path)).toEqual([`/api/ExamRoom/${ROOM_ID}/exams/e2/action`]);
    expect(posts[0]?.body).toEqual({ action: 'interrupt' });
    expect(await screen.findByText('Interromper: Bruno Candidato.')).toBeInTheDocument();
    await waitFor(async () =>
      expect(await stationCard('E02')).toHaveAttribute('data-station-status', 'interrupted'),
    );
    expect(buttonNames(await stationCard('E02'))).toEqual(['Retomar — E02', 'Ocorrência — E02']);
  });

  it('a viewer follows the board without actions; "Exames finalizados" opens the room’s finished exams', async () => {
    stubServer(base({ [`GET ${BOARD_PATH}`]: () => json(200, board({ canAct: false })) }));
    const { router } = renderPage();
    expect(
      await screen.findByText(
        'Você acompanha o quadro. As ações nos exames são dos examinadores com entrada aberta nesta sala.',
      ),
    ).toBeInTheDocument();
    for (const card of screen.getAllByTestId('station')) {
      expect(within(card).queryAllByRole('button')).toEqual([]);
    }
    const link = screen.getByRole('link', { name: 'Exames finalizados' });
    expect(link).toHaveAttribute('href', `/finished-exam-view?room=${ROOM_ID}`);
    await userEvent.click(link);
    expect(await screen.findByText('Tela de exames finalizados')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/finished-exam-view');
    expect(new URLSearchParams(router.state.location.search).get('room')).toBe(ROOM_ID);
  });

  it('a refresh that fails keeps the board on screen under "Não foi possível atualizar"', async () => {
    let reads = 0;
    stubServer(
      base({
        [`GET ${BOARD_PATH}`]: () => {
          reads += 1;
          return reads === 1
            ? json(200, board())
            : json(404, { Error: 'Sala não encontrada.', code: 'ROOM_NOT_FOUND' });
        },
      }),
    );
    renderPage();
    expect(await screen.findByRole('heading', { level: 2, name: 'Sala 2' })).toBeInTheDocument();
    expect(screen.queryByTestId('refresh-error')).toBeNull();
    // The stream opening reads the board again; that read fails.
    const problem = await screen.findByTestId('refresh-error', undefined, { timeout: 3000 });
    expect(problem).toHaveTextContent('Não foi possível atualizar');
    expect(problem).toHaveTextContent(
      'Sala não encontrada. Os dados abaixo podem estar desatualizados.',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Sala 2' })).toBeInTheDocument();
    expect(screen.getAllByTestId('station')).toHaveLength(5);
    expect(screen.getByTestId('board-total')).toHaveTextContent('9');
    expect(screen.queryByText('Erro', { selector: '.mantine-Alert-title' })).toBeNull();
  });

  it('an occurrence: empty fields are refused in pt-BR, filled ones are sent', async () => {
    const calls = stubServer(
      base({
        [`POST /api/ExamRoom/${ROOM_ID}/exams/e2/occurrences`]: () =>
          json(201, { ...BRUNO, occurrences: 1 }),
      }),
    );
    renderPage();
    await userEvent.click(
      within(await stationCard('E02')).getByRole('button', { name: action('Ocorrência', 'E02') }),
    );
    const modal = await screen.findByRole('dialog', { name: 'Ocorrência — Bruno Candidato' });
    const type = within(modal).getByRole('combobox', { name: /^Tipo/ });
    expect(type).toHaveValue('Outra pessoa no ambiente');
    // Clear the type (choosing the chosen option again deselects it) and send an empty form.
    await userEvent.click(type);
    await userEvent.click(
      await within(modal).findByRole('option', { name: 'Outra pessoa no ambiente' }),
    );
    expect(type).toHaveValue('');
    await userEvent.click(within(modal).getByRole('button', { name: 'Registrar ocorrência' }));
    expect(await within(modal).findByText('Informe o tipo da ocorrência.')).toBeInTheDocument();
    expect(within(modal).getByText('Descreva a ocorrência.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.click(type);
    await userEvent.click(await within(modal).findByRole('option', { name: 'Problema técnico' }));
    await userEvent.click(within(modal).getByRole('textbox', { name: /^Descrição/ }));
    await userEvent.paste('A câmera da estação parou de transmitir.');
    await userEvent.click(within(modal).getByRole('button', { name: 'Registrar ocorrência' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.path)).toEqual([
      `/api/ExamRoom/${ROOM_ID}/exams/e2/occurrences`,
    ]);
    expect(posts[0]?.body).toEqual({
      type: 'tecnico',
      description: 'A câmera da estação parou de transmitir.',
    });
    expect(await screen.findByText('Ocorrência registrada: Bruno Candidato.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Ocorrência — Bruno Candidato' })).toBeNull(),
    );
  });
});
