/**
 * Issue acceptance, "Possíveis fraudes" in Chromium: one person (dev photos
 * p01) sits the exams of three CPFs at two posts; once the server's face
 * queue has read the captures, the case appears; an auditor finds it in the
 * menu, opens it (the exams and the matching captures side by side), sends
 * its exams to audit (the one already released is reopened, with the case
 * on its audit screen) and closes the case as confirmed with a note. Every
 * screen and dialog is axe-clean, titled, and fits a phone.
 */
import { dayInZone } from '@exame/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devPhoto } from '../../apps/server/test/faces/captures';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { expectFitsWidth, launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';
import { apiOf, RELEASE_AT_ONCE_ENV } from '../support/api';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const PRODUCT = 'Exame Teórico';
const stamp = Date.now();

/** Three CPFs, three posts' rooms, three days: one face. */
const PROXY_EXAMS = [
  {
    id: `E2E-FRAUDE-A-${stamp}`,
    cpf: '111.444.777-35',
    local: 'DEMO.POSTO01-S1',
    daysAgo: 9,
    files: ['p01-1.jpg', 'p01-2.jpg'],
  },
  {
    id: `E2E-FRAUDE-B-${stamp}`,
    cpf: '123.456.789-09',
    local: 'DEMO.POSTO02-S1',
    daysAgo: 6,
    files: ['p01-3.jpg', 'p01-5.jpg'],
  },
  {
    id: `E2E-FRAUDE-C-${stamp}`,
    cpf: '987.654.321-00',
    local: 'DEMO.POSTO02-S1',
    daysAgo: 3,
    files: ['p01-7.jpg', 'p01-8.jpg'],
  },
];

type CaseDetail = {
  id: string;
  number: number;
  exams: Array<{ examId: string; schedulingId: string }>;
};

describe('possible proxy test-takers in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;

  beforeAll(async () => {
    server = await startServer({ ...ADMIN_ENV, SEED_DEMO: 'true', ...RELEASE_AT_ONCE_ENV });
    browser = await launchBrowser();
    const admin = await tokenOf(ADMIN);
    const key = await api.integrationKey(admin, 'e2e fraudes');
    const picture = async (file: string) => (await devPhoto(file)).toString('base64');
    for (const exam of PROXY_EXAMS) {
      const day = dayInZone(new Date(Date.now() - exam.daysAgo * 86_400_000));
      const pushed = await call(key, 'POST', '/api/Integration/exams', {
        exams: [
          {
            schedulingId: exam.id,
            candidate: { name: `Candidata ${exam.id.split('-')[2]}`, cpf: exam.cpf },
            schedulingDate: `${day}T09:00:00-03:00`,
            status: 'done',
            result: 'in_analysis',
            score: 90,
            metadata: { schedulingLocal: exam.local },
            room: 'Sala 1',
            station: 'Estação 01',
          },
        ],
      });
      expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
      for (const [index, file] of exam.files.entries()) {
        const capture = await call(key, 'POST', `/api/Integration/exams/${exam.id}/photos`, {
          image: await picture(file),
          capturedAt: `${day}T09:${10 + index * 10}:00-03:00`,
        });
        expect(capture.status, JSON.stringify(capture.body)).toBe(200);
      }
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The case, once the server's face queue has read every capture. */
  async function caseOnceRead(token: string): Promise<CaseDetail> {
    let found: { items: Array<{ id: string; examCount: number }> } = { items: [] };
    await expect
      .poll(
        async () => {
          found = (await call(token, 'GET', '/api/FraudCase?status=open')).body as typeof found;
          return found.items[0]?.examCount ?? 0;
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe(3);
    return (await call(token, 'GET', `/api/FraudCase/${found.items[0]!.id}`)).body as CaseDetail;
  }

  it('shows the case, sends its exams to audit and closes it', async () => {
    const auditorToken = await tokenOf(AUDITOR);
    const detail = await caseOnceRead(auditorToken);
    expect(detail.exams.map((exam) => exam.schedulingId)).toEqual(
      PROXY_EXAMS.map((exam) => exam.id),
    );
    // B's result was released by an auditor before anyone looked at the case.
    const released = detail.exams[1]!.examId;
    expect((await call(auditorToken, 'POST', `/api/Audit/${released}/claim`)).status).toBe(200);
    const decided = await call(auditorToken, 'POST', `/api/Audit/${released}/decision`, {
      action: 'release',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    const page = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, AUDITOR.email, AUDITOR.password);
    await page.locator('nav').getByRole('link', { name: 'Possíveis fraudes' }).first().click();
    await page.waitForURL('**/possiveis-fraudes');
    const caseLink = page.getByRole('link', { name: `Caso nº ${detail.number}` }).first();
    await caseLink.waitFor();
    expect(await page.title()).toBe(`Possíveis fraudes · ${PRODUCT}`);
    expect(await seriousViolations(page, 'possíveis fraudes')).toEqual([]);
    await screenshot(page, 'fraud-cases-list');

    await caseLink.click();
    await page.waitForURL(`**/possiveis-fraudes/${detail.id}`);
    await expect.poll(() => page.getByTestId('fraud-case-exam').count()).toBe(3);
    const matches = page.getByTestId('fraud-case-match');
    await expect.poll(() => matches.count()).toBeGreaterThanOrEqual(2);
    // The matching captures load (signed addresses of the photos).
    await expect
      .poll(() =>
        matches
          .first()
          .locator('img')
          .evaluateAll(
            (images) =>
              images.filter((image) => (image as HTMLImageElement).naturalWidth > 0).length,
          ),
      )
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.title())
      .toBe(`Caso nº ${detail.number} — Possíveis fraudes · ${PRODUCT}`);
    expect(await seriousViolations(page, 'caso de possível fraude')).toEqual([]);
    await screenshot(page, 'fraud-case');

    await page.getByRole('button', { name: 'Enviar exames à auditoria' }).click();
    const send = page.getByRole('dialog');
    await send.waitFor();
    expect(await seriousViolations(page, 'caso: enviar à auditoria')).toEqual([]);
    await send.getByRole('button', { name: 'Enviar à auditoria' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect
      .poll(() => page.getByText(/já estava|já estavam|enviad/).count())
      .toBeGreaterThan(0);
    // The released exam is back in analysis, its decision reopened by the case.
    const exam = await call(auditorToken, 'GET', `/api/Audit/${released}`);
    expect(exam.body).toMatchObject({
      exam: { result: 'in_analysis' },
      fraudCases: [{ id: detail.id, number: detail.number }],
    });

    await page.getByRole('button', { name: 'Encerrar caso' }).click();
    const close = page.getByRole('dialog', { name: 'Encerrar caso' });
    await close.waitFor();
    await close.getByRole('radio', { name: 'Fraude confirmada' }).check();
    await close
      .getByRole('textbox', { name: /Nota/ })
      .fill('Mesma pessoa nas três provas; encaminhado à corregedoria.');
    expect(await seriousViolations(page, 'caso: encerrar')).toEqual([]);
    await close.getByRole('button', { name: 'Encerrar caso' }).click();
    await expect
      .poll(() => page.getByTestId('fraud-case-closed').textContent())
      .toContain('Conclusão: Fraude confirmada');
    expect(await page.getByRole('button', { name: 'Encerrar caso' }).count()).toBe(0);
    await screenshot(page, 'fraud-case-closed');

    // The reopened exam's audit screen links the case.
    await page.goto(`${server.baseUrl}/auditoria/${released}`);
    await page.getByText('Este exame faz parte de um caso de possível fraude').waitFor();
    await page.getByRole('link', { name: `Caso nº ${detail.number}` }).waitFor();
    expect(await seriousViolations(page, 'auditoria com caso de fraude')).toEqual([]);

    // A phone: the list and the case fit without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}/possiveis-fraudes`);
    await page.getByRole('heading', { name: 'Possíveis fraudes' }).first().waitFor();
    await expectFitsWidth(page, 390);
    await page.goto(`${server.baseUrl}/possiveis-fraudes/${detail.id}`);
    await expect.poll(() => page.getByTestId('fraud-case-exam').count()).toBe(3);
    await expectFitsWidth(page, 390);
    expect(await seriousViolations(page, 'caso de possível fraude (390 px)')).toEqual([]);
    expect(errors).toEqual([]);

    // Every view was logged.
    const admin = await tokenOf(ADMIN);
    const logged = await call(admin, 'GET', '/api/ActivityLog?type=fraud_case_view&pageSize=50');
    expect((logged.body as { total: number }).total).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
