/**
 * Passing the room to another examiner (`/change-examiner`) in a unit without
 * face validation: the room comes from the server (`myOpenCheckIns`), with no
 * post kept in the browser (a new sign-in); without an open record the page
 * points to Sala de prova; with one it lists the examiners in the room (the
 * signed-in examiner leaves unless another is chosen), the one who arrives
 * logs in with e-mail and password, and the transfer names the record, who
 * leaves and the proof of who arrives.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckInRecord } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import { EXAMINER } from '../../../test/exam-room-data';
import { renderRoutes } from '../../../test/render';
import { ChangeExaminerPage } from './change-examiner-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';

const examiner = EXAMINER;
const arriving = {
  id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  name: 'Eva Nova',
  email: 'eva@sp.gov.br',
  cpf: '***.445.566-**',
  federativeUnit: 'SP',
  roleDescription: 'VIEWER' as const,
};
const RECORD_ID = 'c0ffee00-0000-4000-8000-000000000001';

function viewer(id: string, name: string, cpf: string, overrides = {}) {
  return {
    id,
    userId: `user-${id}`,
    name,
    cpf,
    faceUrl: null,
    checkInDate: new Date(Date.now() - 60 * 60_000).toISOString(),
    checkOutValidated: false,
    checkOutDate: null,
    checkOutFaceUrl: null,
    removedAt: null,
    admittedBy: 'session' as const,
    ...overrides,
  };
}

function record(overrides: Partial<CheckInRecord> = {}): CheckInRecord {
  return {
    id: RECORD_ID,
    federativeUnit: 'SP',
    schedulingLocal: 'SP.POSTO01',
    schedulingLocalDescription: 'Posto Sé',
    examRoom: { id: 'a0000000-0000-4000-8000-000000000002', name: 'Sala 2', code: 'S2' },
    status: 'open',
    checkInDate: new Date(Date.now() - 60 * 60_000).toISOString(),
    checkOutDate: null,
    openedBy: { id: 'user-v1', name: examiner.name },
    deviceId: null,
    closeReason: null,
    faceValidationRequired: false,
    viewers: [
      viewer('v1', examiner.name, '***.982.247-**'),
      viewer('v2', 'Diego Fiscal', '***.533.447-**'),
      // Left earlier: not in the room any more.
      viewer('v0', 'Bia Saiu', '***.111.222-**', { removedAt: new Date().toISOString() }),
    ],
    history: [],
    ...overrides,
  };
}

function base(extra: Record<string, (call: Call) => Response> = {}) {
  return {
    'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () =>
      json(200, [{ record: record(), viewerId: 'v2', inRoom: true }]),
    'POST /api/Auth/viewer-checkin': () =>
      json(200, {
        user: arriving,
        proctoringToken: 'prova-da-eva',
        expiresAt: new Date(Date.now() + 1e6).toISOString(),
      }),
    ...extra,
  };
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/change-examiner', element: <ChangeExaminerPage /> },
      { path: '/viewer-checkin', element: <p>Tela da sala de prova</p> },
    ],
    '/change-examiner',
  );
}

/** The global alert modal showing `title`. */
async function alertTitled(title: string) {
  const alert = await screen.findByTestId('alert-modal');
  expect(within(alert).getByTestId('alert-modal-title')).toHaveTextContent(title);
  return alert;
}

const posts = (calls: Call[], path: string) =>
  calls.filter((call) => call.method === 'POST' && call.path === path);

/** Chooses who leaves, opens the modal and logs the arriving examiner in. */
async function logInArriving(leaving: RegExp) {
  await userEvent.click(await screen.findByRole('radio', { name: leaving }));
  await userEvent.click(screen.getByRole('button', { name: 'Escolher quem recebe e transferir' }));
  const modal = await screen.findByRole('dialog', { name: 'Transferir a sala' });
  await userEvent.type(within(modal).getByRole('textbox', { name: 'Email' }), 'eva@sp.gov.br');
  await userEvent.type(within(modal).getByLabelText('Senha'), 'Segredo#123');
  await userEvent.click(within(modal).getByRole('button', { name: 'Enviar' }));
  expect(await within(modal).findByTestId('second-examiner')).toHaveTextContent('Eva Nova');
  return modal;
}

describe('change examiner page (unit without face validation)', () => {
  beforeEach(() => {
    // A new sign-in: the post the browser kept was cleared at logout.
    appStore.setUser(examiner);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    appStore.clearSession();
  });

  it('without an open record it points to Sala de prova', async () => {
    const calls = stubServer(
      base({ 'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () => json(200, []) }),
    );
    renderPage();
    expect(await screen.findByText(/Você não tem uma entrada aberta/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sala de prova' })).toHaveAttribute(
      'href',
      '/viewer-checkin',
    );
    // Outside DF the arriving examiner does not validate the face.
    expect(
      screen.getByText('Passe a sala a outro examinador da unidade, que entra com e-mail e senha.'),
    ).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/api/SchedulingLocalCheckIn/myOpenCheckIns']);
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('a room the examiner already left (the other is still in) is not theirs to hand over', async () => {
    stubServer(
      base({
        'GET /api/SchedulingLocalCheckIn/myOpenCheckIns': () =>
          json(200, [{ record: record(), viewerId: 'v0', inRoom: false }]),
      }),
    );
    renderPage();
    expect(await screen.findByText(/Você não tem uma entrada aberta/)).toBeInTheDocument();
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('after a new sign-in (no post kept) lists the examiners in the room; the signed-in one leaves until another is chosen', async () => {
    const calls = stubServer(base());
    renderPage();
    const group = await screen.findByRole('radiogroup', { name: 'Examinador que entrega a sala' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    expect(
      within(group).getByRole('radio', { name: 'Diego Fiscal (CPF ***.533.447-**)' }),
    ).toBeChecked();
    expect(
      within(group).getByRole('radio', { name: 'Carla Examinadora (CPF ***.982.247-**)' }),
    ).not.toBeChecked();
    expect(calls[0]?.query).toEqual({});
    expect(within(group).queryByText(/Bia Saiu/)).toBeNull();
    expect(screen.getByText('Posto Sé')).toBeInTheDocument();
    // Custody is per room: the room the record holds is named.
    expect(screen.getByText('Sala 2')).toBeInTheDocument();
  });

  it('transfers from the chosen examiner to the one who logged in, then returns to Sala de prova', async () => {
    const calls = stubServer(
      base({
        'POST /api/SchedulingLocalCheckIn/transfer': () => json(200, record()),
      }),
    );
    const { router } = renderPage();
    await userEvent.click(await screen.findByRole('radio', { name: /^Diego Fiscal/ }));
    await userEvent.click(
      screen.getByRole('button', { name: 'Escolher quem recebe e transferir' }),
    );
    let modal = await screen.findByRole('dialog', { name: 'Transferir a sala' });
    expect(within(modal).getByText('Entrega a sala')).toBeInTheDocument();
    expect(within(modal).getByText('Diego Fiscal')).toBeInTheDocument();
    expect(within(modal).getByText('Recebe a sala')).toBeInTheDocument();

    // Nobody logged in yet: the transfer is refused before any call.
    await userEvent.click(within(modal).getByRole('button', { name: 'Transferir a sala' }));
    const warning = await alertTitled('Atenção');
    expect(warning).toHaveTextContent(
      'Informe o e-mail e a senha do examinador que recebe a sala.',
    );
    await userEvent.click(within(warning).getByRole('button', { name: 'Ok' }));
    expect(posts(calls, '/api/SchedulingLocalCheckIn/transfer')).toEqual([]);
    await userEvent.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Transferir a sala' })).toBeNull(),
    );

    modal = await logInArriving(/^Diego Fiscal/);
    expect(posts(calls, '/api/Auth/viewer-checkin').map((call) => call.body)).toEqual([
      // For this record only (the confirmation is used once, by the transfer).
      { email: 'eva@sp.gov.br', password: 'Segredo#123', checkInId: RECORD_ID },
    ]);
    // No face validation outside DF.
    expect(within(modal).queryByRole('button', { name: /Validar o rosto/ })).toBeNull();
    await userEvent.click(within(modal).getByRole('button', { name: 'Transferir a sala' }));
    await waitFor(() =>
      expect(posts(calls, '/api/SchedulingLocalCheckIn/transfer')).toHaveLength(1),
    );
    expect(posts(calls, '/api/SchedulingLocalCheckIn/transfer')[0]?.body).toEqual({
      checkInId: RECORD_ID,
      fromViewerId: 'v2',
      to: { proctoringToken: 'prova-da-eva' },
    });
    expect(await screen.findByText('Sala transferida para Eva Nova.')).toBeInTheDocument();
    expect(await screen.findByText('Tela da sala de prova')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/viewer-checkin');
  });

  it('a refused transfer is a toast with the server’s text and the page stays', async () => {
    const calls = stubServer(
      base({
        'POST /api/SchedulingLocalCheckIn/transfer': () =>
          json(401, {
            Error:
              'A confirmação do examinador 2 expirou ou não é válida. Faça login com o examinador 2 novamente.',
            code: 'PROCTORING_TOKEN_INVALID',
          }),
      }),
    );
    const { router } = renderPage();
    const modal = await logInArriving(/^Carla Examinadora/);
    await userEvent.click(within(modal).getByRole('button', { name: 'Transferir a sala' }));
    expect(
      await screen.findByText(
        'A confirmação do examinador 2 expirou ou não é válida. Faça login com o examinador 2 novamente.',
      ),
    ).toBeInTheDocument();
    expect(posts(calls, '/api/SchedulingLocalCheckIn/transfer')[0]?.body).toMatchObject({
      checkInId: RECORD_ID,
      fromViewerId: 'v1',
    });
    expect(router.state.location.pathname).toBe('/change-examiner');
    // Examiner 2's proof is refused, not the session.
    expect(appStore.getState().user?.email).toBe(examiner.email);
  });
});
