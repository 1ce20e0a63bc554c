/**
 * Issue acceptance, in Chromium with two auditors under the two-person rule:
 * an exam pushed through the integration API with the candidate's reference
 * photo and two captures (one of another person) waits first in the queue;
 * auditor 1 opens it (claims it) and sees the captures with their
 * similarity levels (no raw numbers); auditor 2 opening it meanwhile gets the auditor alert;
 * auditor 1 tries to disqualify without a note (button disabled), fills
 * reason and note and confirms; auditor 2 confirms; the report counters move
 * from pending audit to disqualified, and the ADMIN reopens the decision.
 */
import { dayInZone } from '@exame/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPhoto } from '../../apps/server/test/faces/captures';
import { ADMIN, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { apiOf } from '../support/api';

const AUDITOR_1 = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const AUDITOR_2 = { email: 'auditor2@demo.exame.local', password: ADMIN.password };

describe('audit with the two-person rule in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const day = dayInZone(new Date(Date.now() - 45 * 86_400_000));
  const schedulingId = `E2E-AUD-${Date.now()}`;

  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;

  async function counters(token: string) {
    const report = await call(token, 'GET', `/api/ExamReport?startDate=${day}&endDate=${day}`);
    const post = (report.body as Array<{ id: string; report: Record<string, number> }>).find(
      // Spec 7: the report names a post `DF.` plus its identifier after the unit's prefix.
      (local) => local.id === 'DF.POSTO01',
    );
    return post?.report ?? {};
  }

  beforeAll(async () => {
    server = await startServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'true',
      AUDIT_TWO_PERSON_RULE: 'true',
      AUDIT_RECHECK_PERCENT: '0',
      FACE_ANALYSIS_SWEEP_SECONDS: '0',
    });
    browser = await launchBrowser();
    const admin = await tokenOf(ADMIN);
    const created = await call(admin, 'POST', '/api/Integration/keys', { name: 'e2e auditoria' });
    const key = (created.body as { key: string }).key;
    const pushed = await call(key, 'POST', '/api/Integration/exams', {
      exams: [
        {
          schedulingId,
          candidate: { name: 'Candidata Auditada', cpf: '529.982.247-25', renach: 'DEMO0001' },
          schedulingDate: `${day}T09:00:00-03:00`,
          status: 'done',
          result: 'in_analysis',
          score: 84,
          metadata: { schedulingLocal: 'DEMO.POSTO01-S1' },
          room: 'Sala 1',
          station: 'Estação 03',
        },
      ],
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const picture = async (file: string) => (await devPhoto(file)).toString('base64');
    const reference = await call(
      key,
      'PUT',
      `/api/Integration/exams/${schedulingId}/reference-photo`,
      { image: await picture('p01-1.jpg') },
    );
    expect(reference.status, JSON.stringify(reference.body)).toBe(200);
    for (const [index, file] of ['p01-2.jpg', 'p02-1.jpg'].entries()) {
      const capture = await call(key, 'POST', `/api/Integration/exams/${schedulingId}/photos`, {
        image: await picture(file),
        capturedAt: `${day}T09:${10 + index * 10}:00-03:00`,
      });
      expect(capture.status, JSON.stringify(capture.body)).toBe(200);
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const openFromQueue = async (page: Page) => {
    await page
      .locator('nav')
      .getByRole('link', { name: /^Auditoria/ })
      .first()
      .click();
    await page.waitForURL('**/auditoria');
    const first = page.locator('[data-testid="audit-queue"] tbody tr').first();
    await expect.poll(() => first.textContent()).toContain(schedulingId);
    await first.getByRole('button', { name: /Auditar/ }).click();
    await page.waitForURL('**/auditoria/*');
  };

  it('claims, alerts, disqualifies with reason and note, confirms, and moves the counters', async () => {
    const adminToken = await tokenOf(ADMIN);
    const before = await counters(adminToken);

    const one = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const oneErrors = watchPageErrors(one);
    await signIn(one, server.baseUrl, AUDITOR_1.email, AUDITOR_1.password);
    await openFromQueue(one);
    await expect
      .poll(() => one.getByTestId('claim-state').textContent())
      .toContain('Você audita este exame');
    expect(await one.evaluate(() => localStorage.getItem('schedulingId'))).toBe(schedulingId);
    expect(await one.evaluate(() => localStorage.getItem('auditorCpf'))).toMatch(/^\d{11}$/);
    const captures = one.getByTestId('capture');
    await expect.poll(() => captures.count()).toBe(2);
    await expect.poll(() => one.getByTestId('reference-photo').locator('img').count()).toBe(1);
    // The other person's capture comes first, below the threshold; the same person's after it.
    await expect.poll(() => captures.nth(0).textContent()).toContain('Provável outra pessoa');
    await expect.poll(() => captures.nth(1).textContent()).toContain('Provável mesma pessoa');
    // The auditor reads the plain level, visible next to each capture, and no raw number.
    const level = (n: number) => captures.nth(n).getByTestId('similarity-badge');
    expect(await level(0).isVisible()).toBe(true);
    expect(await level(0).textContent()).toBe('Similaridade baixa');
    expect(await level(1).isVisible()).toBe(true);
    expect(await level(1).textContent()).toMatch(/^Similaridade (alta|média)$/);
    expect(await one.getByTestId('similarity-scores').count()).toBe(0);
    await screenshot(one, 'audit-exam');
    expect(await seriousViolations(one, 'auditoria do exame')).toEqual([]);

    // Auditor 2 opens the same exam meanwhile: the auditor alert names auditor 1.
    const two = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const twoErrors = watchPageErrors(two);
    await signIn(two, server.baseUrl, AUDITOR_2.email, AUDITOR_2.password);
    await openFromQueue(two);
    const alert = two.getByTestId('auditor-alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Auditora Demonstração');
    expect(await alert.textContent()).toMatch(/\*\*\*\.\d{3}\.\d{3}-\*\*/);
    await screenshot(two, 'audit-auditor-alert');
    await two.getByRole('button', { name: 'Ok' }).click();

    // Auditor 1 disqualifies: the button stays disabled until reason and note are filled.
    await one.getByRole('button', { name: 'Desclassificar' }).click();
    const modal = one.getByTestId('alert-modal');
    const confirmButton = modal.getByRole('button', { name: 'Desclassificar' });
    expect(await confirmButton.isDisabled()).toBe(true);
    await modal.getByRole('combobox', { name: 'Motivo da desclassificação' }).click();
    await one.getByRole('option').first().click();
    expect(await confirmButton.isDisabled()).toBe(true);
    await modal
      .getByRole('textbox', { name: 'Observação' })
      .fill('Na captura das 09:20 aparece outra pessoa diante da câmera.');
    expect(await confirmButton.isDisabled()).toBe(false);
    await screenshot(one, 'audit-disqualify-modal');
    await confirmButton.click();
    await expect
      .poll(() => one.getByTestId('decision-panel').textContent())
      .toContain('aguardando a confirmação');
    // Under the two-person rule nothing moved yet.
    expect((await counters(adminToken)).disqualified).toBe(before.disqualified);

    // Auditor 2 opens it again (now free), and confirms.
    await openFromQueue(two);
    await expect
      .poll(() => two.getByTestId('claim-state').textContent())
      .toContain('Você audita este exame');
    await two.getByRole('button', { name: 'Confirmar decisão' }).click();
    await two.getByTestId('alert-modal').getByRole('button', { name: 'Confirmar' }).click();
    await expect
      .poll(() => two.getByTestId('decision-panel').textContent())
      .toContain('Decisão em vigor');
    await screenshot(two, 'audit-confirmed');

    const after = await counters(adminToken);
    expect(after.pendingAudit).toBe((before.pendingAudit ?? 0) - 1);
    expect(after.disqualified).toBe((before.disqualified ?? 0) + 1);
    expect(oneErrors).toEqual([]);
    expect(twoErrors).toEqual([]);
  }, 240_000);

  it('the ADMIN reopens the decision with a reason and the exam is back in the queue', async () => {
    const admin = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchPageErrors(admin);
    await signIn(admin, server.baseUrl, ADMIN.email, ADMIN.password);
    const token = await tokenOf(ADMIN);
    const exams = await call(
      token,
      'GET',
      `/api/Exam?startDate=${day}&endDate=${day}&search=${encodeURIComponent('Candidata Auditada')}`,
    );
    const exam = (exams.body as { items: Array<{ id: string; result: string }> }).items[0];
    expect(exam?.result).toBe('disqualified');
    await admin.goto(`${server.baseUrl}/auditoria/${exam?.id}`);
    await admin.getByRole('button', { name: 'Reabrir decisão' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reabrir a decisão' });
    await dialog
      .getByRole('textbox', { name: 'Motivo da reabertura' })
      .fill('Recurso do candidato deferido pela comissão.');
    await dialog.getByRole('button', { name: 'Reabrir' }).click();
    await expect
      .poll(() => admin.getByTestId('decision-panel').textContent())
      .toContain('Reaberta por');
    await screenshot(admin, 'audit-reopened');
    expect(await seriousViolations(admin, 'auditoria reaberta')).toEqual([]);
    expect(errors).toEqual([]);

    // Back in the queue: the auditor marks the captures by keyboard on the photo audit.
    const auditor = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const auditorErrors = watchPageErrors(auditor);
    await signIn(auditor, server.baseUrl, AUDITOR_1.email, AUDITOR_1.password);
    await auditor.goto(`${server.baseUrl}/photo-audit/${exam?.id}`);
    await auditor.getByTestId('current-capture').waitFor();
    await expect
      .poll(() => auditor.getByTestId('photo-progress').textContent())
      .toBe('0 de 2 marcadas');
    await auditor.keyboard.press('i');
    await expect
      .poll(() => auditor.getByTestId('photo-progress').textContent())
      .toBe('1 de 2 marcadas');
    await auditor.keyboard.press('c');
    await expect
      .poll(() => auditor.getByTestId('photo-progress').textContent())
      .toBe('2 de 2 marcadas');
    await screenshot(auditor, 'photo-audit');
    expect(await seriousViolations(auditor, 'auditoria de fotos')).toEqual([]);
    // The marks feed the exam's audit, with the marking auditor's name.
    await auditor.getByRole('link', { name: 'Voltar à auditoria do exame' }).click();
    await expect
      .poll(() => auditor.getByTestId('captures').textContent())
      .toContain('Incompatível · Auditora Demonstração');
    expect(auditorErrors).toEqual([]);
  }, 120_000);
});
