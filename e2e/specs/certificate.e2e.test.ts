/**
 * Issue acceptance, in Chromium: an exam released by the audit is issued
 * its certificate from the finished exams view, whose PDF opens and reads
 * back with the candidate and the code; the code checks as authentic and
 * valid on the public page (not signed in, as a third party); the exam is
 * then reopened and disqualified by the audit, and the same check says the
 * certificate was revoked, and since when.
 */
import { dayInZone } from '@exame/shared';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { artifactsDir, screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';
import { apiOf, RELEASE_AT_ONCE_ENV } from '../support/api';
import fs from 'node:fs';
import path from 'node:path';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const EXAM = {
  schedulingId: `E2E-CERT-${Date.now()}`,
  candidate: { name: 'Candidato Certificado', cpf: '529.982.247-25', renach: 'DEMO7777' },
  score: 86.67,
  station: 'Estação 20',
};

describe('certificate issue, PDF and public check in Chromium', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true', ...RELEASE_AT_ONCE_ENV });
  const browser = useBrowser();
  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;
  const { schedulingId } = EXAM;
  let examId = '';
  let roomId = '';

  beforeAll(async () => {
    const admin = await tokenOf(ADMIN);
    // The audit releases it: approved, with the auditor named on the certificate.
    const audited = await api.releasedExam(
      admin,
      'e2e certificado',
      AUDITOR,
      EXAM,
      dayInZone(new Date()),
    );
    examId = audited.examId;
    expect(audited.released).toMatchObject({ result: 'approved' });
    const rooms = await call(admin, 'GET', '/api/ExamRoom');
    roomId =
      (rooms.body as Array<{ id: string; examLocal: string }>).find(
        (room) => room.examLocal === 'DEMO.POSTO01-S1',
      )?.id ?? '';
    expect(roomId).not.toBe('');
  });

  it('issues from the finished exams view, opens the PDF, checks the code, and sees it revoked', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await page.goto(`${server.baseUrl}/finished-exam-view?room=${roomId}`);
    const row = page.getByTestId('finished-exams').locator('tr', { hasText: schedulingId });
    await row.getByRole('button', { name: 'Certificado de Candidato Certificado' }).click();
    const sheet = page.getByTestId('certificate-sheet');
    await sheet.waitFor();
    const code = (await page.getByTestId('certificate-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const text = (await sheet.textContent()) ?? '';
    expect(text).toContain('Candidato Certificado');
    expect(text).toContain('***.982.247-**');
    expect(text).toContain('Auditora Demonstração');
    expect(text).toContain('Aprovado');
    const verifyUrl = await sheet
      .getByRole('link', { name: 'Conferir na página pública' })
      .getAttribute('href');
    expect(verifyUrl).toBe(`http://localhost:${server.port}/certificate?code=${code}`);
    await screenshot(page, 'certificate-modal');
    expect(await seriousViolations(page, 'certificado emitido')).toEqual([]);

    // The PDF opens in a new tab, and reads back with what the sheet showed. The
    // tab is told by what the page gave it: the address window.open received, a
    // blob that holds the PDF. (A browser without a PDF viewer, as Chromium's
    // headless shell the specs run in, leaves the tab itself blank.)
    await page.evaluate(() => {
      const seen = { blobs: new Map<string, Blob>(), opened: [] as string[] };
      (window as unknown as { certificateTab: typeof seen }).certificateTab = seen;
      const createObjectURL = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (object: Blob | MediaSource) => {
        const url = createObjectURL(object);
        if (object instanceof Blob) seen.blobs.set(url, object);
        return url;
      };
      const open = window.open.bind(window);
      window.open = (url?: string | URL, ...rest: [string?, string?]) => {
        seen.opened.push(String(url));
        return open(url, ...rest);
      };
    });
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Abrir PDF' }).click(),
    ]);
    const tab = await page.evaluate(async () => {
      const seen = (
        window as unknown as { certificateTab: { blobs: Map<string, Blob>; opened: string[] } }
      ).certificateTab;
      const [url = ''] = seen.opened;
      const blob = seen.blobs.get(url);
      return { url, type: blob?.type ?? null, head: blob ? await blob.slice(0, 5).text() : null };
    });
    expect(tab).toEqual({
      url: expect.stringMatching(/^blob:/),
      type: 'application/pdf',
      head: '%PDF-',
    });
    await popup.close();
    const admin = await tokenOf(ADMIN);
    const certificate = await call(admin, 'POST', `/api/Certificate/${examId}`);
    const { id } = certificate.body as { id: string };
    const pdfResponse = await fetch(`${server.baseUrl}/api/Certificate/${id}/pdf`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await pdfResponse.arrayBuffer());
    fs.mkdirSync(artifactsDir, { recursive: true });
    fs.writeFileSync(path.join(artifactsDir, 'certificate.pdf'), pdf);
    const parsed = await new PDFParse({ data: pdf }).getText();
    expect(parsed.text).toContain('Candidato Certificado');
    expect(parsed.text).toContain(code);
    expect(parsed.text).toContain('Aprovado');

    // The public check, as a third party who is not signed in.
    const outsider = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    const check = await outsider.newPage();
    await check.goto(`${server.baseUrl}/certificate?code=${code}`);
    await check.getByText('Certificado autêntico e válido').waitFor();
    const publicText = (await check.getByTestId('certificate-check').textContent()) ?? '';
    expect(publicText).toContain('***.982.247-**');
    expect(publicText).not.toContain('DEMO7777');
    expect(publicText).not.toContain('Auditora Demonstração');
    expect(await check.title()).toContain('Conferir certificado');
    await screenshot(check, 'certificate-public-valid');
    expect(await seriousViolations(check, 'conferência do certificado')).toEqual([]);

    // Reopened and disqualified by the audit: the same check says revoked, and since when.
    const reopened = await call(admin, 'POST', `/api/Audit/${examId}/reopen`, {
      reason: 'Denúncia de fraude recebida pela comissão.',
    });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    const auditor = await tokenOf(AUDITOR);
    const reasons = await call(auditor, 'GET', '/api/DisqualificationReason?onlyActive=true');
    const reasonId = (reasons.body as { items: Array<{ id: string }> }).items[0]?.id;
    expect((await call(auditor, 'POST', `/api/Audit/${examId}/claim`)).status).toBe(200);
    const disqualified = await call(auditor, 'POST', `/api/Audit/${examId}/decision`, {
      action: 'disqualify',
      reasonId,
      note: 'Outra pessoa fez a prova no lugar do candidato.',
    });
    expect(disqualified.body).toMatchObject({ result: 'disqualified' });
    await check.reload();
    await check.getByText('Certificado revogado').waitFor();
    expect(await check.getByTestId('certificate-check').textContent()).toContain('revogado em');
    await screenshot(check, 'certificate-public-revoked');
    // A code typed by hand, in lower case with spaces, finds the same certificate.
    await check.goto(`${server.baseUrl}/certificate`);
    await check
      .getByRole('textbox', { name: 'Código do certificado' })
      .fill(code.toLowerCase().replace(/-/g, ' '));
    await check.getByRole('button', { name: 'Conferir' }).click();
    await check.getByText('Certificado revogado').waitFor();
    await outsider.close();
    expect(errors).toEqual([]);
  }, 240_000);
});
