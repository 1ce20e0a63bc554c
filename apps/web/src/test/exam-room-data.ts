/**
 * Data of the exam-room screen tests (the board, the finished exams and their
 * certificates), typed with the shared contracts so that a change of
 * contract breaks the fixtures at compile time; and the silent realtime
 * stream those screens open.
 */
import type { BoardExam, Certificate, ExamRoom, RoomBoard } from '@exame/shared';
import { TEST_USER } from './fixtures';

export const ROOM_ID = 'a0000000-0000-4000-8000-000000000002';

/** The examiner of SP who holds the room. */
export const EXAMINER = {
  ...TEST_USER,
  name: 'Carla Examinadora',
  email: 'carla@sp.gov.br',
  federativeUnit: 'SP',
  roleDescription: 'VIEWER' as const,
};

/** Room S2 of the post SP.POSTO01, no stations, held by nobody. */
export function examRoomOf(overrides: Partial<ExamRoom> = {}): ExamRoom {
  return {
    id: ROOM_ID,
    federativeUnit: 'SP',
    schedulingLocal: 'SP.POSTO01',
    schedulingLocalDescription: 'Posto Sé',
    code: 'S2',
    name: 'Sala 2',
    examLocal: 'SP.POSTO01-S2',
    isActive: true,
    stations: [],
    heldBy: [],
    ...overrides,
  };
}

/** A scheduled exam of the board, at no station, its scheduling id `SP-<id>`. */
export function boardExamOf(overrides: Partial<BoardExam> & Pick<BoardExam, 'id'>): BoardExam {
  return {
    schedulingId: `SP-${overrides.id}`,
    candidateName: 'Candidato',
    candidateCpf: '***.000.000-**',
    schedulingDate: new Date().toISOString(),
    status: 'scheduled',
    result: null,
    interrupted: false,
    stationStatus: 'scheduled',
    station: null,
    occurrences: 0,
    photos: 0,
    ...overrides,
  };
}

/** The board of room S2 on 2026-11-20: no station, no exam, nothing to act on. */
export function roomBoardOf(overrides: Partial<RoomBoard> = {}): RoomBoard {
  return {
    room: examRoomOf(),
    day: '2026-11-20',
    counters: { total: 0, scheduled: 0, started: 0, interrupted: 0, absent: 0, finished: 0 },
    stations: [],
    exams: [],
    unplaced: [],
    canAct: false,
    certificateExamIds: [],
    ...overrides,
  };
}

/** The realtime stream of the board: it opens, sends nothing and ends when the page aborts it. */
export function silentStream(_call: unknown, init?: RequestInit): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      init?.signal?.addEventListener('abort', () =>
        controller.error(new DOMException('The operation was aborted.', 'AbortError')),
      );
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const CERTIFICATE_CODE = '7KQ2-9XHM-D4TB-W1RZ';

/** The valid certificate of Ana Aprovada's exam `SP-001`. */
export const CERTIFICATE: Certificate = {
  id: 'c0000000-0000-4000-8000-000000000001',
  code: CERTIFICATE_CODE,
  status: 'valid',
  issuedAt: new Date(2026, 10, 20, 11, 5).toISOString(),
  revokedAt: null,
  revokedReason: null,
  verifyUrl: `http://localhost/certificate?code=${CERTIFICATE_CODE}`,
  qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
  content: {
    schedulingId: 'SP-001',
    candidateName: 'Ana Aprovada',
    candidateCpf: '***.111.222-**',
    candidateRenach: 'SP987654321',
    federativeUnit: 'SP',
    unitName: 'Detran São Paulo',
    postName: 'Posto Sé',
    roomLocal: 'Posto Sé — Sala 2',
    room: 'Sala 2',
    station: 'E01',
    examDate: new Date(2026, 10, 20, 9, 30).toISOString(),
    result: 'approved',
    score: 27,
    examiners: ['Carla Examinadora', 'Fiscal Dois'],
    auditor: 'Paulo Auditor',
  },
};
