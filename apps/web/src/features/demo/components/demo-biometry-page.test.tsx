/**
 * `/demo-biometry/:cpf`: in the DEMO unit a demonstration candidate's CPF
 * enrols through `api/Demo/candidates/:cpf/enrol` (never BiopassID), shows
 * the consent state and, once enrolled, "Continuar" to `/demo-finished/`;
 * elsewhere the CPF is a user's, as before, without any demo call.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../lib/app-store';
import {
  captureAndConfirm,
  fakeCameraTake,
  installFakeCamera,
  uninstallFakeCamera,
} from '../../../test/fake-camera';
import { demoCandidateOf, DEMO_CPF } from '../../../test/demo-data';
import { fakeChallenge } from '../../../test/fake-landmarker';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { DemoBiometryPage } from './demo-biometry-page';

vi.mock('../../../lib/face-landmarks', () => import('../../../test/fake-landmarker'));

const CPF = DEMO_CPF;
const CANDIDATE = demoCandidateOf();

const user = userEvent.setup({ delay: null });
const renderPage = () =>
  renderRoutes(
    [{ path: '/demo-biometry/:cpf', element: <DemoBiometryPage /> }],
    `/demo-biometry/${CPF}`,
  );

describe('demo biometry', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    uninstallFakeCamera();
    appStore.clearSession();
  });

  it('a user’s CPF outside the DEMO unit keeps the user screen, with no demo call', async () => {
    appStore.setUser({ ...TEST_USER, federativeUnit: 'DF' });
    const calls = stubServer({
      [`GET /api/User/cpf/${CPF}`]: () =>
        json(200, {
          id: 'u1',
          name: 'Ana Souza',
          email: 'ana@exemplo.gov.br',
          cpf: CPF,
          federativeUnit: 'DF',
          roleDescription: 'VIEWER',
        }),
    });
    renderPage();
    expect(await screen.findByText('Ana Souza')).toBeInTheDocument();
    expect(screen.getByText('Validar rosto').closest('button')).toBeEnabled();
    expect(calls.some((call) => call.path.startsWith('/api/Demo'))).toBe(false);
  });

  it('without consent: the way to step 2, and no enrolment', async () => {
    appStore.setUser({ ...TEST_USER, federativeUnit: 'DEMO' });
    stubServer({
      [`GET /api/Demo/candidates/${CPF}`]: () => json(200, { ...CANDIDATE, consent: null }),
    });
    renderPage();
    expect(await screen.findByText('Sem consentimento')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Registrar contato e consentimento' })).toHaveAttribute(
      'href',
      `/demo-register2/?cpf=${CPF}`,
    );
    expect(screen.getByText('Cadastrar rosto').closest('button')).toBeDisabled();
  });

  it('a demo candidate enrols through the demo route, then "Continuar" leads to the verification', async () => {
    appStore.setUser({ ...TEST_USER, federativeUnit: 'DEMO' });
    installFakeCamera();
    let enrolled = false;
    const calls = stubServer({
      [`GET /api/Demo/candidates/${CPF}`]: () => json(200, { ...CANDIDATE, enrolled }),
      'POST /api/BiopassID/Challenge': () => json(201, fakeChallenge(['up', 'right'])),
      [`POST /api/Demo/candidates/${CPF}/enrol`]: () => {
        enrolled = true;
        return json(201, { cpf: CPF, captures: 1, enrolledAt: '2026-11-20T15:10:00.000Z' });
      },
    });
    renderPage();
    expect(await screen.findByText(/Consentimento registrado em/)).toBeInTheDocument();
    expect(screen.queryByText('Continuar')).toBeNull();
    await user.click(screen.getByText('Cadastrar rosto'));
    expect(await screen.findByText('Cadastro facial do candidato')).toBeInTheDocument();
    await captureAndConfirm(user);
    const next = await screen.findByText('Continuar');
    expect(next.closest('a')).toHaveAttribute('href', `/demo-finished/?cpf=${CPF}`);
    // Enrolment is a live take of an enrolment challenge, sent to the demo route.
    expect(calls.find((call) => call.path === '/api/BiopassID/Challenge')?.body).toEqual({
      purpose: 'enrolment',
      cpf: CPF,
    });
    expect(calls.find((call) => call.path.endsWith('/enrol'))?.body).toMatchObject({
      cpf: CPF,
      ...fakeCameraTake(),
      uf: 'DEMO',
    });
    expect(
      calls.filter((call) => /BiopassID|User/.test(call.path)).map((call) => call.path),
    ).toEqual(['/api/BiopassID/Challenge']);
  }, 15_000);
});
