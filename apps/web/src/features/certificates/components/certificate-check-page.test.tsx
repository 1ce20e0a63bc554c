/**
 * The public certificate check (`/certificate`) and its federal-district
 * variant (`/certificate/:schedulingId`): the code read from `?code=` is
 * checked with the shared schema and sent normalised; a valid certificate
 * shows only what a third party may see (the CPF masked, never the RENACH),
 * a revoked one says since when and why, an unknown code shows the server's
 * text, an invalid code is refused without asking the server, and a missing
 * room local is named (spec 5).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CERTIFICATE_ERRORS,
  CERTIFICATE_REVOKE_LABELS,
  MISSING_ROOM_LOCAL_MESSAGE,
  type CertificateCheck,
} from '@exame/shared';
import { renderRoutes } from '../../../test/render';
import { CertificateCheckPage } from './certificate-check-page';
import { json, stubServer, type StubCall as Call } from '../../../test/stub-server';

const CODE = '7KQ2-9XHM-D4TB-W1RZ';
const NORMALISED = '7KQ29XHMD4TBW1RZ';
const VERIFY = `/api/Certificate/verify/${NORMALISED}`;
// Built in local time, so the page's DD/MM/YYYY HH:mm reads the same in any zone.
const at = (day: number, hour: number, minute: number) =>
  new Date(2026, 10, day, hour, minute).toISOString();

const VALID: CertificateCheck = {
  code: CODE,
  status: 'valid',
  issuedAt: at(20, 11, 5),
  revokedAt: null,
  revokedReason: null,
  verifyUrl: `http://localhost/certificate?code=${CODE}`,
  content: {
    schedulingId: 'SP-000123',
    candidateName: 'Ana Aprovada',
    candidateCpf: '***.111.222-**',
    federativeUnit: 'SP',
    unitName: 'Detran São Paulo',
    postName: 'Posto Sé',
    roomLocal: 'Posto Sé — Sala 2',
    examDate: at(20, 9, 30),
    result: 'approved',
  },
};
const REVOKED: CertificateCheck = {
  ...VALID,
  status: 'revoked',
  revokedAt: at(21, 14, 45),
  revokedReason: 'disqualified',
};

function renderPage(path: string) {
  return renderRoutes(
    [
      { path: '/certificate', element: <CertificateCheckPage /> },
      { path: '/certificate/:schedulingId', element: <CertificateCheckPage /> },
    ],
    path,
  );
}

// A loaded machine (the full run) may take more than the default 1 s to a first answer.
const ANSWERED = { timeout: 3000 };

const verifyCalls = (calls: Call[]) =>
  calls.filter((call) => call.path.startsWith('/api/Certificate/verify/'));

describe('certificate check page', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a valid code shows the certificate with the CPF masked and never a RENACH', async () => {
    // Even if the answer carried more than the public contract, the page shows only its fields.
    const calls = stubServer({
      [`GET ${VERIFY}`]: () =>
        json(200, { ...VALID, content: { ...VALID.content, candidateRenach: 'SP987654321' } }),
    });
    renderPage(`/certificate?code=${CODE}`);
    const check = await screen.findByTestId('certificate-check', {}, ANSWERED);
    expect(within(check).getByText('Certificado autêntico e válido')).toBeInTheDocument();
    expect(check).toHaveTextContent('emitido em 20/11/2026 11:05 e continua válido');
    expect(check).toHaveTextContent(CODE);
    expect(check).toHaveTextContent('SP-000123');
    expect(check).toHaveTextContent('Ana Aprovada');
    expect(within(check).getByText('***.111.222-**')).toBeInTheDocument();
    expect(check).toHaveTextContent('Detran São Paulo (SP)');
    expect(check).toHaveTextContent('Posto Sé');
    expect(check).toHaveTextContent('20/11/2026 09:30');
    expect(within(check).getByText('Aprovado')).toBeInTheDocument();
    expect(check).toHaveTextContent('Posto Sé — Sala 2');
    expect(document.body).not.toHaveTextContent(/RENACH/i);
    expect(document.body).not.toHaveTextContent('SP987654321');
    expect(screen.queryByText('Certificado revogado')).toBeNull();
    expect(verifyCalls(calls)).toEqual([
      { method: 'GET', path: VERIFY, query: {}, body: undefined },
    ]);
  });

  it('a revoked certificate says so, with the date and the reason', async () => {
    stubServer({ [`GET ${VERIFY}`]: () => json(200, REVOKED) });
    renderPage(`/certificate?code=${CODE}`);
    const check = await screen.findByTestId('certificate-check', {}, ANSWERED);
    expect(within(check).getByText('Certificado revogado')).toBeInTheDocument();
    expect(check).toHaveTextContent(
      `foi revogado em 21/11/2026 14:45: ${CERTIFICATE_REVOKE_LABELS.disqualified}.`,
    );
    expect(check).toHaveTextContent('Ele não vale mais como comprovante.');
    expect(screen.queryByText('Certificado autêntico e válido')).toBeNull();
  });

  it('an unknown code shows "Certificado não encontrado" with the server’s text', async () => {
    stubServer({
      [`GET ${VERIFY}`]: () =>
        json(404, {
          Error: CERTIFICATE_ERRORS.CERTIFICATE_NOT_FOUND.message,
          code: 'CERTIFICATE_NOT_FOUND',
        }),
    });
    renderPage(`/certificate?code=${CODE}`);
    const error = await screen.findByTestId('certificate-check-error', {}, ANSWERED);
    expect(within(error).getByText('Certificado não encontrado')).toBeInTheDocument();
    expect(error).toHaveTextContent('Certificado não encontrado. Confira o código digitado.');
    expect(screen.queryByTestId('certificate-check')).toBeNull();
  });

  it('an invalid ?code= shows the schema’s text and asks the server nothing', async () => {
    const calls = stubServer({ [`GET ${VERIFY}`]: () => json(200, VALID) });
    renderPage('/certificate?code=ABC-123');
    expect(await screen.findByText('Código inválido', {}, ANSWERED)).toBeInTheDocument();
    expect(
      screen.getByText('O código tem 16 letras e números, como 7KQ2-9XHM-D4TB-W1RZ.'),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('a code typed in lower case with spaces is put in the address and sent normalised', async () => {
    const calls = stubServer({ [`GET ${VERIFY}`]: () => json(200, VALID) });
    const { router } = renderPage('/certificate');
    // "l" is read as 1 (Crockford base32). Pasted: one input event keeps the test quick.
    await userEvent.click(screen.getByRole('textbox', { name: 'Código do certificado' }));
    await userEvent.paste('  7kq2 9xhm d4tb wlrz ');
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Conferir' }));
    expect(
      await screen.findByText('Certificado autêntico e válido', {}, ANSWERED),
    ).toBeInTheDocument();
    expect(verifyCalls(calls).map((call) => call.path)).toEqual([VERIFY]);
    expect(new URLSearchParams(router.state.location.search).get('code')).toBe(
      '7kq2 9xhm d4tb wlrz',
    );
  });

  it('a typed code that is not a code is refused under the field, without a request', async () => {
    const calls = stubServer({});
    const { router } = renderPage('/certificate');
    const field = screen.getByRole('textbox', { name: 'Código do certificado' });
    await userEvent.click(field);
    await userEvent.paste('UUUU-9XHM-D4TB-W1RZ');
    await userEvent.click(screen.getByRole('button', { name: 'Conferir' }));
    expect(
      await screen.findByText(
        'O código tem 16 letras e números, como 7KQ2-9XHM-D4TB-W1RZ.',
        {},
        ANSWERED,
      ),
    ).toBeInTheDocument();
    expect(field).toBeInvalid();
    expect(router.state.location.search).toBe('');
    expect(calls).toEqual([]);
  });

  it('the federal-district variant has its heading and sends the scheduling of its address', async () => {
    const calls = stubServer({ [`GET ${VERIFY}`]: () => json(200, VALID) });
    renderPage(`/certificate/DF-000777?code=${CODE}`);
    expect(
      await screen.findByText('Certificado autêntico e válido', {}, ANSWERED),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Certificados$/);
    expect(
      screen.getByText('Conferência do certificado do agendamento DF-000777'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Conferir certificado' })).toBeNull();
    expect(verifyCalls(calls)).toEqual([
      { method: 'GET', path: VERIFY, query: { schedulingId: 'DF-000777' }, body: undefined },
    ]);
  });

  it('a certificate without a room local says so (spec 5)', async () => {
    stubServer({
      [`GET ${VERIFY}`]: () =>
        json(200, { ...VALID, content: { ...VALID.content, roomLocal: null } }),
    });
    renderPage(`/certificate?code=${CODE}`);
    const check = await screen.findByTestId('certificate-check', {}, ANSWERED);
    expect(within(check).getByText(MISSING_ROOM_LOCAL_MESSAGE)).toBeInTheDocument();
    expect(within(check).queryByText('Local da sala')).toBeNull();
    await waitFor(() => expect(check).toHaveTextContent('Ana Aprovada'));
  });

  it('a new code refused under the field clears the answer about the previous one', async () => {
    stubServer({
      [`GET ${VERIFY}`]: () =>
        json(404, {
          Error: CERTIFICATE_ERRORS.CERTIFICATE_NOT_FOUND.message,
          code: 'CERTIFICATE_NOT_FOUND',
        }),
    });
    const { router } = renderPage(`/certificate?code=${CODE}`);
    await screen.findByTestId('certificate-check-error', {}, ANSWERED);
    const field = screen.getByRole('textbox', { name: 'Código do certificado' });
    await userEvent.clear(field);
    await userEvent.paste('123');
    await userEvent.click(screen.getByRole('button', { name: 'Conferir' }));
    expect(
      await screen.findByText('O código tem 16 letras e números, como 7KQ2-9XHM-D4TB-W1RZ.'),
    ).toBeInTheDocument();
    expect(field).toBeInvalid();
    expect(screen.queryByTestId('certificate-check-error')).toBeNull();
    expect(screen.queryByText('Certificado não encontrado')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it("the district variant names the certificate's own unit: a DEMO certificate is not the district's", async () => {
    const demo: CertificateCheck = {
      ...VALID,
      content: {
        ...VALID.content,
        schedulingId: 'DEMO-000123',
        federativeUnit: 'DEMO',
        unitName: 'Demonstração',
      },
    };
    const calls = stubServer({ [`GET ${VERIFY}`]: () => json(200, demo) });
    renderPage(`/certificate/DEMO-000123?code=${CODE}`);
    await screen.findByTestId('certificate-check', {}, ANSWERED);
    await waitFor(() =>
      expect(screen.getByTestId('certificate-unit')).toHaveTextContent(
        'Demonstração · Exame teórico de trânsito',
      ),
    );
    expect(document.body).not.toHaveTextContent(/Distrito Federal/i);
    // One request serves the heading and the answer.
    expect(verifyCalls(calls)).toHaveLength(1);
  });
});
