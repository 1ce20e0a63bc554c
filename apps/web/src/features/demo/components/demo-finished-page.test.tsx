/**
 * `/demo-finished/`: `?cpf=` preselects a candidate and the result panel
 * shows what the verification found (pt-BR numbers, each liveness check);
 * "Verificar rosto" sends the take of a verification challenge to the demo
 * verify route; the wipe asks
 * first and Cancelar sends nothing; another unit's ADMIN reads the 403.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoVerification } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import {
  captureAndConfirm,
  fakeCameraTake,
  installFakeCamera,
  uninstallFakeCamera,
} from '../../../test/fake-camera';
import { demoCandidateOf } from '../../../test/demo-data';
import { fakeChallenge } from '../../../test/fake-landmarker';
import { TEST_USER } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { DemoFinishedPage } from './demo-finished-page';

vi.mock('../../../lib/face-landmarks', () => import('../../../test/fake-landmarker'));

const VERIFICATION: DemoVerification = {
  verified: false,
  match: true,
  distance: 0.4123,
  similarity: 0.5877,
  threshold: 0.55,
  liveness: {
    checked: true,
    passed: false,
    checks: { sameFace: true, continuous: true, followed: false, depth: true },
    note: 'Os quadros quase não mudaram.',
  },
  message: 'Não foi possível confirmar que a captura foi feita ao vivo.',
  at: '2026-11-20T15:30:00.000Z',
};
const CANDIDATE = demoCandidateOf({ enrolled: true, lastVerification: VERIFICATION });

const user = userEvent.setup({ delay: null });
const renderPage = (path: string) =>
  renderRoutes([{ path: '/demo-finished', element: <DemoFinishedPage /> }], path);

describe('demo finished', () => {
  beforeEach(() => {
    appStore.setUser({ ...TEST_USER, federativeUnit: 'DEMO', roleDescription: 'ADMIN' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    uninstallFakeCamera();
    appStore.clearSession();
  });

  it('?cpf= preselects the candidate and shows the verification result', async () => {
    stubServer({ 'GET /api/Demo/candidates': () => json(200, [CANDIDATE]) });
    renderPage('/demo-finished?cpf=52998224725');
    const table = await screen.findByTestId('demo-candidates');
    expect(within(table).getByText('***.982.247-**')).toBeInTheDocument();
    expect(within(table).getByLabelText('Selecionar Bruna Lima')).toBeChecked();
    const result = screen.getByTestId('demo-verification-result');
    const row = (label: string) => within(result).getByText(label).closest('tr');
    expect(within(result).getByText('Não verificado')).toBeInTheDocument();
    expect(row('Semelhança')).toHaveTextContent('0,5877');
    expect(row('Distância')).toHaveTextContent('0,4123 (dentro do limite de 0,55)');
    expect(row('Correspondência')).toHaveTextContent('Sim');
    const checks = within(within(result).getByTestId('liveness-checks')).getAllByRole('listitem');
    expect(checks.map((item) => item.textContent)).toEqual([
      '✓ Mesmo rosto: aprovado',
      '✓ Filmagem contínua: aprovado',
      '✗ Movimentos pedidos: reprovado',
      '✓ Profundidade de um rosto real: aprovado',
    ]);
    expect(within(result).getByText('Os quadros quase não mudaram.')).toBeInTheDocument();
  });

  it('"Verificar rosto" sends the take to the demo verify route and shows the answer', async () => {
    installFakeCamera();
    const calls = stubServer({
      'GET /api/Demo/candidates': () => json(200, [{ ...CANDIDATE, lastVerification: null }]),
      'POST /api/BiopassID/Challenge': () => json(201, fakeChallenge(['left', 'down'])),
      'POST /api/Demo/candidates/52998224725/verify': () =>
        json(200, {
          ...VERIFICATION,
          verified: true,
          liveness: { ...VERIFICATION.liveness, passed: true },
        }),
    });
    renderPage('/demo-finished?cpf=52998224725');
    await user.click(await screen.findByText('Verificar rosto'));
    expect(await screen.findByText('Verificação facial do candidato')).toBeInTheDocument();
    await captureAndConfirm(user);
    expect(await screen.findByText('Rosto verificado')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/BiopassID/Challenge')?.body).toEqual({
      purpose: 'verification',
      cpf: '52998224725',
    });
    const verify = calls.find((call) => call.path.endsWith('/verify'));
    expect(verify?.body).toMatchObject({
      cpf: '52998224725',
      ...fakeCameraTake(),
      uf: 'DEMO',
    });
    // Only the challenge comes from BiopassID: the take goes to the demo route.
    expect(
      calls.filter((call) => call.path.startsWith('/api/BiopassID')).map((call) => call.path),
    ).toEqual(['/api/BiopassID/Challenge']);
  }, 15_000);

  it('the wipe asks first: Cancelar sends nothing, confirming deletes and tells the counts', async () => {
    const calls = stubServer({
      'GET /api/Demo/candidates': () => json(200, [CANDIDATE]),
      'DELETE /api/Demo/data': () => json(200, { candidates: 1, enrolments: 1 }),
    });
    renderPage('/demo-finished');
    const wipe = await screen.findByText('Limpar dados de demonstração');
    await user.click(wipe);
    let alert = await screen.findByTestId('alert-modal');
    await user.click(within(alert).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(wipe);
    alert = await screen.findByTestId('alert-modal');
    await user.click(within(alert).getByRole('button', { name: 'Limpar dados' }));
    expect(
      await screen.findByText('Foram apagados 1 candidato(s) e 1 cadastro(s) facial(is).'),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('an ADMIN of another unit reads the server’s 403', async () => {
    stubServer({
      'GET /api/Demo/candidates': () =>
        json(403, {
          Error: 'Os fluxos de demonstração existem só na unidade DEMO.',
          code: 'DEMO_UNIT_ONLY',
        }),
    });
    renderPage('/demo-finished');
    expect(await screen.findByText('Somente na unidade DEMO')).toBeInTheDocument();
    expect(
      screen.getByText('Os fluxos de demonstração existem só na unidade DEMO.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Limpar dados de demonstração')).toBeNull();
  });
});
