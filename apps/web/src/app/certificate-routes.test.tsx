/**
 * The certificate check in the app's route table: `/certificate` and
 * `/certificate/:schedulingId` open without a session (public), and the
 * RootLayout names them in the browser tab ('Conferir certificado'; the DF
 * variant has the page title 'Certificados', spec 2).
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CertificateCheck } from '@exame/shared';
import { appStore } from '../lib/app-store';
import { renderRoutes } from '../test/render';
import { json, stubServer } from '../test/stub-server';
import { routes } from './router';

const CODE = '7KQ2-9XHM-D4TB-W1RZ';
const CHECK: CertificateCheck = {
  code: CODE,
  status: 'valid',
  issuedAt: '2026-11-20T14:05:00.000Z',
  revokedAt: null,
  revokedReason: null,
  verifyUrl: `http://localhost/certificate?code=${CODE}`,
  content: {
    schedulingId: 'DF-000777',
    candidateName: 'Ana Aprovada',
    candidateCpf: '***.111.222-**',
    federativeUnit: 'DF',
    unitName: 'Detran Distrito Federal',
    postName: 'Posto Asa Sul',
    roomLocal: 'Posto Asa Sul — Sala 1',
    examDate: '2026-11-20T12:30:00.000Z',
    result: 'approved',
  },
};

// A loaded machine (the full run) may take more than the default 1 s to a first answer.
const ANSWERED = { timeout: 3000 };

describe('certificate routes', () => {
  beforeEach(() => {
    appStore.clearSession();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubServer({ 'GET /api/Certificate/verify/7KQ29XHMD4TBW1RZ': () => json(200, CHECK) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('/certificate is public and its tab reads "Conferir certificado"', async () => {
    const { router } = renderRoutes(routes, `/certificate?code=${CODE}`);
    expect(
      await screen.findByText('Certificado autêntico e válido', {}, ANSWERED),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/certificate');
    await waitFor(() => expect(document.title).toBe('Conferir certificado · Exame Teórico'));
    expect(appStore.getState().pageTitle).toBe('');
  });

  it('/certificate/:schedulingId is titled "Certificados"', async () => {
    const { router } = renderRoutes(routes, `/certificate/DF-000777?code=${CODE}`);
    expect(
      await screen.findByText('Certificado autêntico e válido', {}, ANSWERED),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/certificate/DF-000777');
    await waitFor(() => expect(document.title).toBe('Certificados · Exame Teórico'));
    expect(appStore.getState().pageTitle).toBe('Certificados');
  });
});
