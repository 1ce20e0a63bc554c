/**
 * The "Certificado" column of the finished exams (`/finished-exam-view`):
 * a released result (approved or reproved) has the button that issues the
 * certificate (`POST api/Certificate/<examId>`) and shows it (code,
 * examiners, auditor, QR code), an exam in analysis waits for the audit, a
 * disqualified one has none, a refusal is a red toast with the server's
 * text, an examiner has the button only for the exams whose room they held
 * while the exam ran (the board's `certificateExamIds`), and an AUDITOR only
 * reads. The sheet's missing room local and
 * "Abrir PDF" are in certificate-modal.test.tsx.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CERTIFICATE_ERRORS, type BoardExam, type RoomBoard } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import {
  boardExamOf,
  CERTIFICATE,
  EXAMINER,
  examRoomOf,
  ROOM_ID,
  roomBoardOf,
} from '../../../test/exam-room-data';
import { renderRoutes } from '../../../test/render';
import { FinishedExamsPage } from './finished-exams-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';

const ROOM = examRoomOf();

/** A finished exam, its scheduling id `SP-<last 3 digits of the id>`. */
function exam(overrides: Partial<BoardExam> & Pick<BoardExam, 'id'>): BoardExam {
  return boardExamOf({
    schedulingId: `SP-${overrides.id.slice(-3)}`,
    status: 'done',
    ...overrides,
  });
}

const APPROVED = exam({
  id: 'e0000000-0000-4000-8000-000000000001',
  candidateName: 'Ana Aprovada',
  candidateCpf: '***.111.222-**',
  result: 'approved',
  stationStatus: 'approved',
  station: 'E01',
});
const REPROVED = exam({
  id: 'e0000000-0000-4000-8000-000000000002',
  candidateName: 'Rui Reprovado',
  result: 'reproved',
  stationStatus: 'reproved',
  station: 'E02',
});
const IN_ANALYSIS = exam({
  id: 'e0000000-0000-4000-8000-000000000003',
  candidateName: 'Bruno Em Análise',
  result: 'in_analysis',
  stationStatus: 'processing',
  station: 'E03',
});
const DISQUALIFIED = exam({
  id: 'e0000000-0000-4000-8000-000000000004',
  candidateName: 'Dora Desclassificada',
  result: 'disqualified',
  stationStatus: 'disqualified',
  station: 'E04',
});
const EXAMS = [APPROVED, REPROVED, IN_ANALYSIS, DISQUALIFIED];

const BOARD: RoomBoard = roomBoardOf({
  counters: { total: 4, scheduled: 0, started: 0, interrupted: 0, absent: 0, finished: 4 },
  exams: EXAMS,
  canAct: true,
  // The server's answer for this examiner: the released results of the room they held.
  certificateExamIds: [APPROVED.id, REPROVED.id],
});

const CODE = CERTIFICATE.code;
const VERIFY_URL = CERTIFICATE.verifyUrl;

const ISSUE = `POST /api/Certificate/${APPROVED.id}`;

function base(extra: Record<string, (call: Call) => Response> = {}) {
  return {
    'GET /api/ExamRoom': () => json(200, [ROOM]),
    [`GET /api/ExamRoom/${ROOM_ID}/board`]: () => json(200, BOARD),
    [ISSUE]: () => json(200, CERTIFICATE),
    ...extra,
  };
}

function renderPage() {
  return renderRoutes(
    [{ path: '/finished-exam-view', element: <FinishedExamsPage /> }],
    `/finished-exam-view?room=${ROOM_ID}`,
  );
}

// A loaded machine (the full run) may take more than the default 1 s to a first answer.
const ANSWERED = { timeout: 3000 };

/** The "Certificado" cell of the candidate's row (plain DOM: role queries are slow in jsdom). */
async function certificateCell(candidate: string) {
  const table = await screen.findByTestId('finished-exams', {}, ANSWERED);
  const headers = [...table.querySelectorAll('th')].map((header) => header.textContent);
  const row = within(table).getByText(candidate).closest('tr')!;
  return row.querySelectorAll('td')[headers.indexOf('Certificado')]!;
}

async function openCertificate() {
  const cell = await certificateCell('Ana Aprovada');
  await userEvent.click(within(cell).getByRole('button', { name: 'Certificado de Ana Aprovada' }));
  // The sheet, then its dialog: a role query over the whole page is slow in jsdom.
  const dialog = (
    await screen.findByTestId('certificate-sheet', {}, ANSWERED)
  ).closest<HTMLElement>('[role="dialog"]')!;
  expect(dialog).toHaveAccessibleName('Certificado');
  return dialog;
}

describe('finished exams: certificates', () => {
  beforeEach(() => {
    appStore.setUser(EXAMINER);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    // Unmounted first: the session cleared below would make the page ask for the rooms again.
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    appStore.clearSession();
  });

  it('the Certificado column follows the result', async () => {
    stubServer(base());
    renderPage();
    for (const candidate of ['Ana Aprovada', 'Rui Reprovado']) {
      expect(
        within(await certificateCell(candidate)).getByRole('button', {
          name: `Certificado de ${candidate}`,
        }),
      ).toBeInTheDocument();
    }
    const waiting = await certificateCell('Bruno Em Análise');
    expect(waiting).toHaveTextContent(/^Aguardando auditoria$/);
    expect(within(waiting).queryByRole('button')).toBeNull();
    const none = await certificateCell('Dora Desclassificada');
    expect(none).toHaveTextContent(/^Sem certificado$/);
    expect(within(none).queryByRole('button')).toBeNull();
  });

  it('the button issues the certificate of the exam and shows it', async () => {
    const calls = stubServer(base());
    renderPage();
    const dialog = await openCertificate();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/Certificate/${APPROVED.id}`, query: {}, body: undefined },
    ]);
    const sheet = within(dialog).getByTestId('certificate-sheet');
    expect(within(sheet).getByTestId('certificate-code')).toHaveTextContent(CODE);
    expect(sheet).toHaveTextContent('Ana Aprovada');
    expect(sheet).toHaveTextContent('***.111.222-**');
    expect(sheet).toHaveTextContent('SP987654321');
    expect(sheet).toHaveTextContent('Detran São Paulo (SP)');
    expect(sheet).toHaveTextContent('20/11/2026 09:30');
    expect(sheet).toHaveTextContent('Aprovado (nota 27)');
    expect(within(sheet).getByText('Carla Examinadora, Fiscal Dois')).toBeInTheDocument();
    expect(within(sheet).getByText('Paulo Auditor')).toBeInTheDocument();
    expect(within(sheet).getByText('Posto Sé — Sala 2')).toBeInTheDocument();
    expect(within(sheet).queryByTestId('missing-room-local')).toBeNull();
    expect(
      within(sheet).getByRole('img', { name: `QR code da conferência pública: ${VERIFY_URL}` }),
    ).toHaveAttribute('src', CERTIFICATE.qrDataUrl);
    expect(within(sheet).getByRole('link', { name: 'Conferir na página pública' })).toHaveAttribute(
      'href',
      VERIFY_URL,
    );
  });

  it('a refused issue is a red toast "Erro" with the server’s text', async () => {
    const message = CERTIFICATE_ERRORS.CERTIFICATE_NOT_FINAL.message;
    stubServer(
      base({ [ISSUE]: () => json(409, { Error: message, code: 'CERTIFICATE_NOT_FINAL' }) }),
    );
    renderPage();
    const cell = await certificateCell('Ana Aprovada');
    await userEvent.click(
      within(cell).getByRole('button', { name: 'Certificado de Ana Aprovada' }),
    );
    const text = await screen.findByText(message, {}, ANSWERED);
    const toast = text.closest<HTMLElement>('.mantine-Notification-root')!;
    expect(within(toast).getByText('Erro')).toBeInTheDocument();
    expect(toast.style.getPropertyValue('--notification-color')).toContain('red');
    expect(screen.queryByRole('dialog', { name: 'Certificado' })).toBeNull();
  });

  it('an examiner sees the button only where the server says they held the room while the exam ran', async () => {
    stubServer(
      base({
        [`GET /api/ExamRoom/${ROOM_ID}/board`]: () =>
          json(200, { ...BOARD, certificateExamIds: [APPROVED.id] }),
      }),
    );
    renderPage();
    expect(
      within(await certificateCell('Ana Aprovada')).getByRole('button', {
        name: 'Certificado de Ana Aprovada',
      }),
    ).toBeInTheDocument();
    const other = await certificateCell('Rui Reprovado');
    expect(other).toHaveTextContent(/^—$/);
    expect(within(other).queryByRole('button')).toBeNull();
  });

  it('an AUDITOR sees the column without the button', async () => {
    appStore.setUser({ ...EXAMINER, roleDescription: 'auditor' });
    const calls = stubServer(base());
    renderPage();
    expect(await certificateCell('Ana Aprovada')).toHaveTextContent(/^—$/);
    expect(await certificateCell('Rui Reprovado')).toHaveTextContent(/^—$/);
    expect(screen.queryByRole('button', { name: /^Certificado de/ })).toBeNull();
    // An AUDITOR reads any room of the unit, not only the ones held.
    expect(calls.find((call) => call.path === '/api/ExamRoom')?.query).toEqual({});
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
