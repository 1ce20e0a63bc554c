/**
 * The room screen of an examiner of a unit without face validation: the
 * open record comes from the server after a new sign-in (no post kept), the
 * post is kept, the notice 'Aviso' comes first, the second-examiner modal
 * follows spec 2, 4 and 5 (Enviar, Limpar, the texts, 'Atenção' for a
 * half-filled form, the action 300 ms after closing), a refused check-in
 * keeps the record it met, and the open record closes after a confirmation.
 * In DF, examiner 1 who is not the signed-in user (`cpfViewer`) types their
 * own password in the face capture (never a face alone).
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckInRecord } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { installFakeCamera, uninstallFakeCamera } from '../../../test/fake-camera';
import { FAKE_CHALLENGE_ID, fakeChallenge } from '../../../test/fake-landmarker';
import { EXAMINER } from '../../../test/exam-room-data';
import { renderRoutes } from '../../../test/render';
import { ViewerCheckinPage } from './viewer-checkin-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';

// The person in front of the fake camera does what the capture asks.
vi.mock('../../../lib/face-landmarks', () => import('../../../test/fake-landmarker'));

const examiner = EXAMINER;
const second = {
  id: '3f1e2d4c-5b6a-4978-8c1d-2e3f4a5b6c7d',
  name: 'Diego Fiscal',
  email: 'diego@sp.gov.br',
  cpf: '39053344705',
  federativeUnit: 'SP',
  roleDescription: 'ROOM_INSPECTOR' as const,
};
const POSTS = [
  {
    id: 'p1',
    identifier: 'SP.POSTO01',
    description: 'Posto Sé',
    federativeUnit: 'SP',
    address: null,
    isActive: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  },
];
const CONFIG = {
  federativeUnit: 'SP',
  faceValidationRequired: false,
  secondExaminerAllowed: true,
  maxViewers: 2,
  proctoringEnabled: true,
  faceAloneAllowed: false,
};

function record(overrides: Partial<CheckInRecord> = {}): CheckInRecord {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    federativeUnit: 'SP',
    schedulingLocal: 'SP.POSTO01',
    schedulingLocalDescription: 'Posto Sé',
    examRoom: null,
    status: 'open',
    checkInDate: new Date(Date.now() - 75 * 60_000).toISOString(),
    checkOutDate: null,
    openedBy: { id: 'u1', name: examiner.name },
    deviceId: null,
    closeReason: null,
    faceValidationRequired: false,
    viewers: [
      {
        id: 'v1',
        userId: 'u1',
        name: examiner.name,
        cpf: '***.982.247-**',
        faceUrl: null,
        checkInDate: new Date(Date.now() - 75 * 60_000).toISOString(),
        checkOutValidated: false,
        checkOutDate: null,
        checkOutFaceUrl: null,
        removedAt: null,
        admittedBy: 'session',
      },
    ],
    history: [
      {
        type: 'open',
        at: new Date().toISOString(),
        actorName: examiner.name,
        subject: null,
        reason: null,
        transferredFrom: null,
        admittedBy: null,
      },
    ],
    ...overrides,
  };
}

function base(extra: Record<string, (call: Call) => Response> = {}) {
  return {
    'GET /api/SchedulingLocalCheckIn/getConfig': () => json(200, CONFIG),
    'GET /api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/SP': () => json(200, POSTS),
    // No open record, unless the test says otherwise.
    'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () => json(200, []),
    // A post without rooms, unless the test says otherwise.
    'GET /api/ExamRoom': () => json(200, []),
    ...extra,
  };
}

function renderPage() {
  return renderRoutes(
    [{ path: '/viewer-checkin', element: <ViewerCheckinPage /> }],
    '/viewer-checkin',
  );
}

/** The global alert modal showing `title`. */
async function alertTitled(title: string) {
  const alert = await screen.findByTestId('alert-modal');
  expect(within(alert).getByTestId('alert-modal-title')).toHaveTextContent(title);
  return alert;
}

async function openModal() {
  await userEvent.click(await screen.findByRole('button', { name: 'Abrir a sala' }));
  // Spec 5: outside DF the notice, then the modal.
  const notice = await alertTitled('Aviso');
  expect(notice).toHaveTextContent(
    'A validação facial está disponível apenas para o Distrito Federal',
  );
  await userEvent.click(within(notice).getByRole('button', { name: 'Ok' }));
  return screen.findByRole('dialog', { name: 'Examinadores da sala' });
}

describe('viewer check-in page (unit without face validation)', () => {
  beforeEach(() => {
    appStore.setUser(examiner);
    appStore.setSchedulingLocal('SP.POSTO01', 'Posto Sé');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    appStore.clearSession();
  });

  it('keeps the chosen post under EP_SCHEDULING_LOCAL and schedulingLocalDescription', async () => {
    appStore.setSchedulingLocal(null, null);
    stubServer(base());
    renderPage();
    expect(
      await screen.findByText('Escolha o posto de atendimento da sala para registrar a entrada.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Posto de atendimento' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Posto Sé (SP.POSTO01)' }));
    expect(localStorage.getItem('EP_SCHEDULING_LOCAL')).toBe('SP.POSTO01');
    expect(localStorage.getItem('schedulingLocalDescription')).toBe('Posto Sé');
  });

  it('examiner 2: Enviar needs both fields, the texts of spec 5, Limpar returns to not validated', async () => {
    let answer = () =>
      json(404, { Error: 'Usuário não encontrado!', code: 'CHECKIN_EXAMINER_NOT_FOUND' });
    const calls = stubServer(base({ 'POST /api/Auth/viewer-checkin': () => answer() }));
    renderPage();
    const modal = await openModal();
    expect(within(modal).getByText('Carla Examinadora')).toBeInTheDocument();
    expect(within(modal).getByText('CPF ***.982.247-**')).toBeInTheDocument();
    const send = within(modal).getByRole('button', { name: 'Enviar' });
    expect(send).toBeDisabled();
    await userEvent.type(within(modal).getByRole('textbox', { name: 'Email' }), 'carla@sp.gov.br');
    expect(send).toBeDisabled();
    await userEvent.type(within(modal).getByLabelText('Senha'), 'Segredo#123');
    expect(send).toBeEnabled();
    // The same examiner is refused before any call.
    await userEvent.click(send);
    expect(within(modal).getByTestId('second-examiner-error')).toHaveTextContent(
      'O examinador 2 não pode ser o mesmo que o examinador 1.',
    );
    expect(calls.some((call) => call.path === '/api/Auth/viewer-checkin')).toBe(false);

    const email = within(modal).getByRole('textbox', { name: 'Email' });
    await userEvent.clear(email);
    await userEvent.type(email, 'outro@df.gov.br');
    await userEvent.click(send);
    expect(await within(modal).findByTestId('second-examiner-error')).toHaveTextContent(
      'Usuário não encontrado!',
    );
    answer = () =>
      json(403, {
        Error: 'Usuário não tem permissão para participar da sala!',
        code: 'CHECKIN_EXAMINER_NOT_ALLOWED',
      });
    await userEvent.click(send);
    expect(
      await within(modal).findByText('Usuário não tem permissão para participar da sala!'),
    ).toBeInTheDocument();

    answer = () =>
      json(200, {
        user: second,
        proctoringToken: 'prova',
        expiresAt: new Date(Date.now() + 1e6).toISOString(),
      });
    await userEvent.click(send);
    expect(await screen.findByText('Examinador associado com sucesso!')).toBeInTheDocument();
    expect(within(modal).getByTestId('second-examiner')).toHaveTextContent('Diego Fiscal');
    expect(JSON.parse(localStorage.getItem('EP_ADMIN_USER_PROCTORING') ?? 'null')).toMatchObject({
      user: { name: 'Diego Fiscal' },
      proctoringToken: 'prova',
    });
    // Spec 5: Enviar stays enabled once examiner 2 is validated.
    expect(within(modal).getByRole('button', { name: 'Enviar' })).toBeEnabled();

    await userEvent.click(within(modal).getByRole('button', { name: 'Limpar' }));
    expect(within(modal).queryByTestId('second-examiner')).toBeNull();
    expect(localStorage.getItem('EP_ADMIN_USER_PROCTORING')).toBeNull();
    expect(within(modal).getByRole('textbox', { name: 'Email' })).toHaveValue('');
  });

  it("examiner 2's wrong password keeps examiner 1 signed in; once validated, the token names examiner 2", async () => {
    let answer = () =>
      json(401, { Error: 'E-mail ou senha incorretos.', code: 'invalid-credentials' });
    const calls = stubServer(
      base({
        'POST /api/Auth/viewer-checkin': () => answer(),
        'POST /api/SchedulingLocalCheckIn/checkIn': () =>
          json(201, {
            id: 'c0ffee00-0000-4000-8000-000000000001',
            checkInDate: new Date().toISOString(),
          }),
      }),
    );
    renderPage();
    const modal = await openModal();
    await userEvent.type(within(modal).getByRole('textbox', { name: 'Email' }), 'diego@sp.gov.br');
    await userEvent.type(within(modal).getByLabelText('Senha'), 'Errada#123');
    await userEvent.click(within(modal).getByRole('button', { name: 'Enviar' }));
    expect(await within(modal).findByText('E-mail ou senha incorretos.')).toBeInTheDocument();
    expect(appStore.getState().user?.email).toBe(examiner.email);
    expect(localStorage.getItem('EP_ADMIN_USER')).not.toBeNull();

    answer = () =>
      json(200, {
        user: { ...second, cpf: '***.533.447-**', email: 'd***@sp.gov.br' },
        proctoringToken: 'prova-do-diego',
        expiresAt: new Date(Date.now() + 1e6).toISOString(),
      });
    await userEvent.clear(within(modal).getByLabelText('Senha'));
    await userEvent.type(within(modal).getByLabelText('Senha'), 'Certa#123');
    await userEvent.click(within(modal).getByRole('button', { name: 'Enviar' }));
    await within(modal).findByTestId('second-examiner');
    // The confirmation is asked for this post (the server binds it there, for one use).
    expect(
      calls.filter((call) => call.path === '/api/Auth/viewer-checkin').map((call) => call.body),
    ).toEqual([
      { email: 'diego@sp.gov.br', password: 'Errada#123', schedulingLocal: 'SP.POSTO01' },
      { email: 'diego@sp.gov.br', password: 'Certa#123', schedulingLocal: 'SP.POSTO01' },
    ]);
    await userEvent.click(within(modal).getByRole('button', { name: 'Abrir a sala' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/checkIn'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/checkIn'))?.body).toMatchObject({
      viewers: [{ cpf: '52998224725' }, { proctoringToken: 'prova-do-diego' }],
    });
  });

  it('a half-filled form does not open the room; an empty one opens it 300 ms after the modal closes', async () => {
    const calls = stubServer(
      base({
        'POST /api/SchedulingLocalCheckIn/checkIn': () =>
          json(201, {
            id: 'c0ffee00-0000-4000-8000-000000000001',
            checkInDate: new Date().toISOString(),
          }),
      }),
    );
    renderPage();
    const modal = await openModal();
    await userEvent.type(within(modal).getByRole('textbox', { name: 'Email' }), 'diego@sp.gov.br');
    await userEvent.click(within(modal).getByRole('button', { name: 'Abrir a sala' }));
    const warning = await alertTitled('Atenção');
    expect(warning).toHaveTextContent(
      'Limpe o formulário ou faça login com o examinador 2 para abrir a sala',
    );
    await userEvent.click(within(warning).getByRole('button', { name: 'Ok' }));
    expect(calls.some((call) => call.path.endsWith('/checkIn'))).toBe(false);

    await userEvent.click(within(modal).getByRole('button', { name: 'Limpar' }));
    const opened = Date.now();
    await userEvent.click(within(modal).getByRole('button', { name: 'Abrir a sala' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/checkIn'))).toBe(true));
    const checkIn = calls.find((call) => call.path.endsWith('/checkIn'))!;
    expect(Date.now() - opened).toBeGreaterThanOrEqual(290);
    expect(checkIn.body).toMatchObject({
      viewers: [{ cpf: '52998224725' }],
      schedulingLocal: 'SP.POSTO01',
    });
    expect(localStorage.getItem('cpfViewer')).toBe('52998224725');
  });

  it('a refused check-in is a red toast "Erro" with the server’s text; the record it met is named by room, post and time, never by its id', async () => {
    const open = record({
      examRoom: { id: 'a0000000-0000-4000-8000-000000000009', name: 'Sala 3', code: 'S3' },
    });
    const text =
      'Carla Examinadora já tem uma entrada aberta em Sala 3 (S3), no posto Posto Sé (SP.POSTO01), desde 08:15 de 05/05/2026. Registre a saída antes de abrir outra.';
    stubServer(
      base({
        'POST /api/SchedulingLocalCheckIn/checkIn': () =>
          json(409, {
            Error: text,
            code: 'CHECKIN_ALREADY_OPEN',
            id: open.id,
            checkInDate: open.checkInDate,
          }),
        [`GET /api/SchedulingLocalCheckIn/findCheckInById/${open.id}`]: () => json(200, open),
        'GET /api/SchedulingLocalCheckIn/exams': () =>
          json(200, { items: [], total: 0, page: 1, pageSize: 20 }),
      }),
    );
    renderPage();
    const modal = await openModal();
    await userEvent.click(within(modal).getByRole('button', { name: 'Abrir a sala' }));
    const kept = await screen.findByTestId('kept-check-in');
    expect(screen.getByText('Erro')).toBeInTheDocument();
    // The toast and the kept notice say the same: which room, which post, since when.
    expect(screen.getAllByText(text)).toHaveLength(2);
    expect(kept).toHaveTextContent('Sala 3 (S3)');
    expect(kept).toHaveTextContent('Posto Sé (SP.POSTO01)');
    expect(kept).toHaveTextContent('desde 08:15 de 05/05/2026');
    expect(kept).not.toHaveTextContent(open.id);
    expect(document.body).not.toHaveTextContent(open.id);
    await userEvent.click(within(kept).getByRole('button', { name: 'Ver a entrada aberta' }));
    expect(await screen.findByTestId('open-room')).toBeInTheDocument();
  });

  it('a post with rooms: the room is chosen (a room in use cannot be) and named in the check-in', async () => {
    const room = (id: string, code: string, held: string[]) => ({
      id,
      federativeUnit: 'SP',
      schedulingLocal: 'SP.POSTO01',
      schedulingLocalDescription: 'Posto Sé',
      code,
      name: `Sala ${code.slice(1)}`,
      examLocal: `SP.POSTO01-${code}`,
      isActive: true,
      stations: [],
      heldBy: held.length
        ? [{ checkInId: 'x', openedAt: new Date().toISOString(), examiners: held }]
        : [],
    });
    const R1 = 'a0000000-0000-4000-8000-000000000001';
    const R2 = 'a0000000-0000-4000-8000-000000000002';
    const R3 = 'a0000000-0000-4000-8000-000000000003';
    const calls = stubServer(
      base({
        'GET /api/ExamRoom': () =>
          json(200, [room(R1, 'S1', ['Outra Pessoa']), room(R2, 'S2', []), room(R3, 'S3', [])]),
        'POST /api/SchedulingLocalCheckIn/checkIn': () =>
          json(201, {
            id: 'c0ffee00-0000-4000-8000-000000000001',
            checkInDate: new Date().toISOString(),
          }),
      }),
    );
    renderPage();
    const select = await screen.findByRole('combobox', { name: /Sala de prova/ });
    await waitFor(() => expect(select).toBeEnabled());
    // Nothing chosen: the room is asked for before anything else.
    await userEvent.click(screen.getByRole('button', { name: 'Abrir a sala' }));
    expect(
      await screen.findByText('Escolha a sala de prova em que vai trabalhar.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('alert-modal')).toBeNull();
    await userEvent.click(select);
    const taken = await screen.findByRole('option', {
      name: /Sala 1 \(S1\) — em uso por Outra Pessoa/,
    });
    expect(taken).toHaveAttribute('data-combobox-disabled', 'true');
    await userEvent.click(screen.getByRole('option', { name: 'Sala 2 (S2)' }));
    const modal = await openModal();
    await userEvent.click(within(modal).getByRole('button', { name: 'Abrir a sala' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/checkIn'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/checkIn'))?.body).toMatchObject({
      schedulingLocal: 'SP.POSTO01',
      examRoomId: R2,
    });
  });

  it('after a new sign-in (no post kept) the open record comes from the server, and the post follows it', async () => {
    appStore.setSchedulingLocal(null, null);
    const calls = stubServer(
      base({
        'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () =>
          json(200, [{ record: record(), viewerId: 'v1', inRoom: true }]),
        'GET /api/SchedulingLocalCheckIn/exams': () =>
          json(200, { items: [], total: 0, page: 1, pageSize: 20 }),
      }),
    );
    renderPage();
    const room = await screen.findByTestId('open-room');
    expect(within(room).getByRole('button', { name: 'Encerrar a sala' })).toBeInTheDocument();
    expect(
      screen.queryByText('Escolha o posto de atendimento da sala para registrar a entrada.'),
    ).toBeNull();
    await waitFor(() => expect(localStorage.getItem('EP_SCHEDULING_LOCAL')).toBe('SP.POSTO01'));
    expect(localStorage.getItem('schedulingLocalDescription')).toBe('Posto Sé');
    expect(screen.getByRole('combobox', { name: 'Posto de atendimento' })).toBeDisabled();
    // Nothing of the post was needed to find it.
    expect(calls.some((call) => call.path.endsWith('/findCheckIn'))).toBe(false);
  });

  it('another open record of the examiner (they left it, the other is still in) can be shown', async () => {
    const other = record({
      id: 'c0ffee00-0000-4000-8000-000000000002',
      examRoom: { id: 'a0000000-0000-4000-8000-000000000001', name: 'Sala 1', code: 'S1' },
    });
    stubServer(
      base({
        'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () =>
          json(200, [
            { record: record(), viewerId: 'v1', inRoom: true },
            { record: other, viewerId: 'v1', inRoom: false },
          ]),
        'GET /api/SchedulingLocalCheckIn/exams': () =>
          json(200, { items: [], total: 0, page: 1, pageSize: 20 }),
      }),
    );
    renderPage();
    const others = await screen.findByTestId('other-open-rooms');
    expect(others).toHaveTextContent('Sala 1 — Posto Sé');
    expect(others).toHaveTextContent('a sua saída já foi registrada');
    await userEvent.click(within(others).getByRole('button', { name: /Ver a sala Sala 1/ }));
    expect(
      await within(screen.getByTestId('open-room')).findByRole('heading', {
        name: /Sala 1 — Posto Sé/,
      }),
    ).toBeInTheDocument();
  });

  it('the open record: examiners by check-in date, time open, and closing after a confirmation', async () => {
    const open = record();
    let openNow = true;
    const calls = stubServer(
      base({
        'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () =>
          json(200, openNow ? [{ record: open, viewerId: 'v1', inRoom: true }] : []),
        'GET /api/SchedulingLocalCheckIn/exams': () =>
          json(200, {
            items: [
              {
                id: 'e1',
                cpf: '***.111.222-**',
                schedulingId: 'SP-1',
                candidateName: 'Ana Candidata',
                schedulingDate: new Date().toISOString(),
                status: 'started',
                result: null,
                room: 'Sala 1',
                station: 'Estação 02',
              },
            ],
            total: 1,
            page: 1,
            pageSize: 20,
          }),
        'POST /api/SchedulingLocalCheckIn/checkOut': () => {
          openNow = false;
          return json(200, record({ status: 'closed', checkOutDate: new Date().toISOString() }));
        },
      }),
    );
    renderPage();
    const room = await screen.findByTestId('open-room');
    expect(within(room).getByTestId('time-open')).toHaveTextContent('Tempo de sala: 1 h 15 min');
    expect(await within(room).findByText('Ana Candidata')).toBeInTheDocument();
    expect(within(room).getAllByTestId('check-in-viewer')).toHaveLength(1);
    await userEvent.click(within(room).getByRole('button', { name: 'Encerrar a sala' }));
    const confirm = await alertTitled('Encerrar a sala');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Encerrar a sala' }));
    await waitFor(() => expect(calls.some((call) => call.path.endsWith('/checkOut'))).toBe(true));
    expect(calls.find((call) => call.path.endsWith('/checkOut'))?.body).toEqual({
      checkInId: open.id,
    });
    expect(await screen.findByText('Sala encerrada')).toBeInTheDocument();
    expect(localStorage.getItem('cpfViewer')).toBeNull();
  });
});

describe('viewer check-in page (DF): the separate viewer identity types their own password', () => {
  const dfExaminer = { ...examiner, federativeUnit: 'DF', cpf: '52998224725' };
  const OTHER_CPF = '39053344705';
  const user = userEvent.setup({ delay: null });

  function dfServer(config: Partial<typeof CONFIG> = {}) {
    return stubServer({
      'GET /api/SchedulingLocalCheckIn/getConfig': () =>
        json(200, { ...CONFIG, federativeUnit: 'DF', faceValidationRequired: true, ...config }),
      'GET /api/SchedulingLocalCheckIn/schedulingLocalsByFederativeUnit/DF': () =>
        json(200, [{ ...POSTS[0], identifier: 'DF.POSTO01', federativeUnit: 'DF' }]),
      'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () => json(200, []),
      'GET /api/ExamRoom': () => json(200, []),
      'POST /api/BiopassID/Challenge': () => json(201, fakeChallenge(['left', 'up'])),
      'POST /api/Auth/biometric-viewer-checkin': () =>
        json(200, {
          verificationId: '0f0e0d0c-0b0a-4908-8706-050403020100',
          name: 'Examinadora Separada',
          cpf: '***.533.447-**',
          faceUrl: '/api/SchedulingLocalCheckIn/face/x',
          currentDate: new Date().toISOString(),
          similarityLevel: 'alta',
        }),
    });
  }

  /** Opens examiner 1's capture, takes it and returns the modal at Confirmar. */
  async function takeFirst() {
    await user.click(await screen.findByRole('button', { name: 'Validar o rosto' }));
    const modal = await screen.findByTestId('facial-validation');
    const start = within(modal).getByRole('button', { name: /Iniciar captura/ });
    await waitFor(() => expect(start).toBeEnabled());
    await user.click(start);
    await within(modal).findByRole('button', { name: 'Confirmar' }, { timeout: 10_000 });
    return modal;
  }
  const faceCall = (calls: Call[]) =>
    calls.find((call) => call.path === '/api/Auth/biometric-viewer-checkin');

  beforeEach(() => {
    appStore.setUser(dfExaminer);
    appStore.setSchedulingLocal('DF.POSTO01', 'Posto Sé');
    installFakeCamera();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    // Unmounted before the session ends, so no screen asks the server again without it.
    cleanup();
    uninstallFakeCamera();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    appStore.clearSession();
  });

  it("examiner 1 from cpfViewer: the capture asks for 'Senha do examinador' and sends it with the take", async () => {
    appStore.setCpfViewer(OTHER_CPF);
    const calls = dfServer();
    renderPage();
    expect(
      await screen.findByText(/ele digita a própria senha na validação facial/),
    ).toBeInTheDocument();
    const modal = await takeFirst();
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    // Required: nothing is sent without it.
    expect(await within(modal).findByText('Informe a senha.')).toBeInTheDocument();
    expect(faceCall(calls)).toBeUndefined();
    await user.type(within(modal).getByLabelText(/Senha do examinador/), 'Senha#Dela1');
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(faceCall(calls)).toBeDefined());
    expect(faceCall(calls)?.body).toMatchObject({
      cpf: OTHER_CPF,
      password: 'Senha#Dela1',
      challengeId: FAKE_CHALLENGE_ID,
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    expect(await screen.findByText(/Rosto validado às/)).toBeInTheDocument();
  });

  it('the signed-in examiner, or a unit that allows face alone: no password is asked', async () => {
    const calls = dfServer();
    const { unmount } = renderPage();
    let modal = await takeFirst();
    expect(within(modal).queryByLabelText(/Senha do examinador/)).toBeNull();
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(faceCall(calls)).toBeDefined());
    expect(faceCall(calls)?.body).not.toHaveProperty('password');
    unmount();

    appStore.setCpfViewer(OTHER_CPF);
    dfServer({ faceAloneAllowed: true });
    renderPage();
    modal = await takeFirst();
    expect(within(modal).queryByLabelText(/Senha do examinador/)).toBeNull();
  });
});
