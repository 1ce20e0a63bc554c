/**
 * The certificate sheet of the finished exams (CertificateModal): a missing
 * room local is named (spec 5), a revoked certificate says since when and
 * why, and "Abrir PDF" downloads `api/Certificate/<id>/pdf` and opens it in a
 * new tab (saved instead only when the pop-up is blocked; a refusal is a red
 * toast). The issue from the table is in finished-exams-certificates.test.tsx.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CERTIFICATE_ERRORS,
  CERTIFICATE_REVOKE_LABELS,
  MISSING_ROOM_LOCAL_MESSAGE,
  type Certificate,
} from '@exame/shared';
import { CERTIFICATE } from '../../../test/exam-room-data';
import { renderWithProviders } from '../../../test/render';
import { CertificateModal } from './certificate-modal';
import { json, stubServer } from '../../../test/stub-server';

const PDF = `GET /api/Certificate/${CERTIFICATE.id}/pdf`;

/** The PDF as the server sends it, with its file name. */
const pdfAnswer = () =>
  new Response('%PDF-1.7', {
    status: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': 'inline; filename="certificado-SP-001.pdf"',
    },
  });

/** `URL.createObjectURL` and `revokeObjectURL`, which jsdom lacks. */
function stubObjectUrls() {
  const created = vi.fn((_blob: Blob) => 'blob:certificado');
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = created;
      static override revokeObjectURL = vi.fn();
    },
  );
  return created;
}

/** The open modal; its dialog. */
function renderModal(certificate: Certificate = CERTIFICATE) {
  renderWithProviders(<CertificateModal certificate={certificate} onClose={() => undefined} />);
  return screen.getByRole('dialog', { name: 'Certificado' });
}

// A loaded machine (the full run) may take more than the default 1 s to an answer.
const ANSWERED = { timeout: 3000 };

describe('certificate modal', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('a certificate without a room local shows the spec-5 alert', () => {
    const dialog = renderModal({
      ...CERTIFICATE,
      content: { ...CERTIFICATE.content, roomLocal: null },
    });
    expect(within(dialog).getByTestId('missing-room-local')).toHaveTextContent(
      MISSING_ROOM_LOCAL_MESSAGE,
    );
    expect(within(dialog).queryByText('Local da sala')).toBeNull();
  });

  it('a revoked certificate says since when and why', () => {
    const dialog = renderModal({
      ...CERTIFICATE,
      status: 'revoked',
      revokedAt: new Date(2026, 10, 21, 14, 45).toISOString(),
      revokedReason: 'reopened',
    });
    expect(within(dialog).getByText('Certificado revogado')).toBeInTheDocument();
    expect(within(dialog).getByTestId('certificate-sheet')).toHaveTextContent(
      `Revogado em 21/11/2026 14:45: ${CERTIFICATE_REVOKE_LABELS.reopened}.`,
    );
  });

  it('"Abrir PDF" opens the server’s PDF in a new tab and saves nothing', async () => {
    const calls = stubServer({ [PDF]: pdfAnswer });
    const created = stubObjectUrls();
    // As browsers do: with "noopener" window.open gives back null even when the tab opened.
    const tab = { opener: window } as unknown as Window;
    const open = vi
      .spyOn(window, 'open')
      .mockImplementation((_url, _target, features) =>
        features?.includes('noopener') ? null : tab,
      );
    const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const dialog = renderModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abrir PDF' }));
    await waitFor(() => expect(open).toHaveBeenCalledOnce(), ANSWERED);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([PDF]);
    expect(created).toHaveBeenCalledOnce();
    expect(await created.mock.calls[0]![0].text()).toBe('%PDF-1.7');
    expect(open.mock.calls[0]?.[0]).toBe('blob:certificado');
    expect(open.mock.calls[0]?.[1]).toBe('_blank');
    // The tab opened: the file is not downloaded as well, and the tab cannot reach this page.
    expect(saved).not.toHaveBeenCalled();
    expect(tab.opener).toBeNull();
  });

  it('"Abrir PDF" with the pop-up blocked saves the file with the server’s name', async () => {
    stubServer({ [PDF]: pdfAnswer });
    stubObjectUrls();
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const saved: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this);
    });
    const dialog = renderModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abrir PDF' }));
    await waitFor(() => expect(saved).toHaveLength(1), ANSWERED);
    expect(saved[0]?.href).toBe('blob:certificado');
    expect(saved[0]?.download).toBe('certificado-SP-001.pdf');
  });

  it('a PDF the server refuses is a red toast with its text, and nothing opens', async () => {
    const message = CERTIFICATE_ERRORS.CERTIFICATE_NOT_FOUND.message;
    stubServer({ [PDF]: () => json(404, { Error: message, code: 'CERTIFICATE_NOT_FOUND' }) });
    const created = stubObjectUrls();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const dialog = renderModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abrir PDF' }));
    const toast = (await screen.findByText(message, {}, ANSWERED)).closest<HTMLElement>(
      '.mantine-Notification-root',
    )!;
    expect(within(toast).getByText('Erro')).toBeInTheDocument();
    expect(toast.style.getPropertyValue('--notification-color')).toContain('red');
    expect(open).not.toHaveBeenCalled();
    expect(created).not.toHaveBeenCalled();
  });
});
