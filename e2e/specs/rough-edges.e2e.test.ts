/**
 * The rough edges of the walk-through (points 10 to 12), in
 * Chromium at 390, 768 and 1366 px, each state screenshotted: the skip link
 * and the focus ring of a text field; a disabled account told so after its
 * right password only; the certificate check clearing an old answer under a
 * new error, and its district variant naming a DEMO certificate's own unit;
 * toasts at the bottom right, clear of the header; the activity screen naming screens instead of
 * addresses; the exam list opening on today.
 */
import { addDays, dayInZone } from '@exame/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';
import { apiOf, RELEASE_AT_ONCE_ENV } from '../support/api';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const INSPECTOR = { email: 'fiscal@demo.exame.local', password: ADMIN.password };
const WIDTHS = [390, 768, 1366] as const;
/** A DEMO exam of today, released by the audit, with its certificate. */
const EXAM = {
  // No run of 11 digits: the activity log masks what looks like a CPF in an address.
  schedulingId: `E2E-EDGE-${Date.now().toString(36).toUpperCase()}`,
  candidate: { name: 'Candidata Arestas', cpf: '529.982.247-25', renach: 'DEMO4242' },
  score: 90,
  station: 'Estação 21',
};

describe('rough edges of the walk-through in Chromium', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true', ...RELEASE_AT_ONCE_ENV });
  const browser = useBrowser();
  const { schedulingId } = EXAM;
  const today = dayInZone(new Date());
  let examId = '';
  let code = '';

  const api = apiOf(() => server.baseUrl);
  const { call, tokenOf } = api;

  beforeAll(async () => {
    const admin = await tokenOf(ADMIN);
    const audited = await api.releasedExam(admin, 'e2e arestas', AUDITOR, EXAM, today);
    examId = audited.examId;
    expect(audited.released).toMatchObject({ result: 'approved' });
    const certificate = await call(admin, 'POST', `/api/Certificate/${examId}`);
    code = (certificate.body as { code: string }).code;
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  });

  async function pageAt(width: number) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    return { context, page, errors: watchPageErrors(page) };
  }

  it('the shell: a skip link first, then a ring around a focused text field', async () => {
    for (const width of WIDTHS) {
      const { context, page, errors } = await pageAt(width);
      await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
      await page.goto(`${server.baseUrl}/exames`);
      await page.locator('table').first().waitFor();
      const skip = page.getByRole('link', { name: 'Ir para o conteúdo' });
      // Out of sight until the keyboard reaches it.
      expect((await skip.boundingBox())?.width).toBeLessThanOrEqual(1);
      await page.keyboard.press('Tab');
      expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
      const box = await skip.boundingBox();
      expect(box && box.y >= 0 && box.x >= 0 && box.width > 50).toBe(true);
      await screenshot(page, `edges-skip-link-${width}`);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('conteudo');
      expect(new URL(page.url()).hash).toBe('');
      // The next Tab goes into the screen, not back to the header.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('#conteudo') !== null)).toBe(
        true,
      );

      const search = page.getByRole('textbox', { name: 'Candidato' });
      await search.focus();
      const ring = await search.evaluate((element) => {
        const style = getComputedStyle(element);
        return { style: style.outlineStyle, width: style.outlineWidth };
      });
      expect(ring).toEqual({ style: 'solid', width: '2px' });
      await screenshot(page, `edges-focus-ring-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it('a disabled account hears "E-mail ou senha incorretos." for a wrong password, and whom to ask for the right one', async () => {
    const admin = await tokenOf(ADMIN);
    const users = await call(
      admin,
      'GET',
      `/api/User?search=${encodeURIComponent(INSPECTOR.email)}`,
    );
    const inspector = (users.body as { items: Array<{ id: string; email: string }> }).items.find(
      (user) => user.email === INSPECTOR.email,
    );
    expect(inspector).toBeDefined();
    const disabled = await call(admin, 'PUT', `/api/User/${inspector?.id}/enableDisable`, {
      registerStatus: 'disabled',
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    try {
      for (const width of WIDTHS) {
        const { context, page, errors } = await pageAt(width);
        await page.goto(`${server.baseUrl}/login`);
        await page.getByRole('textbox', { name: 'E-mail' }).fill(INSPECTOR.email);
        await page.getByRole('textbox', { name: 'Senha' }).fill('senha-errada-123');
        await page.getByRole('button', { name: 'Entrar' }).click();
        const alert = page.getByTestId('login-error');
        await expect.poll(() => alert.textContent()).toContain('E-mail ou senha incorretos.');
        await page.getByRole('textbox', { name: 'Senha' }).fill(INSPECTOR.password);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await expect.poll(() => alert.textContent()).toContain('Conta desativada');
        expect(await alert.textContent()).toContain('administrador da sua unidade');
        expect(new URL(page.url()).pathname).toBe('/login');
        await screenshot(page, `edges-disabled-account-${width}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    } finally {
      await call(admin, 'PUT', `/api/User/${inspector?.id}/enableDisable`, {
        registerStatus: 'enabled',
      });
    }
  }, 180_000);

  it('certificate check: a new input error clears the old answer; the district variant names the DEMO unit', async () => {
    for (const width of WIDTHS) {
      const { context, page, errors } = await pageAt(width);
      await page.goto(`${server.baseUrl}/certificate?code=0000-0000-0000-0000`);
      await page.getByTestId('certificate-check-error').waitFor();
      const field = page.getByRole('textbox', { name: 'Código do certificado' });
      await field.fill('123');
      await page.getByRole('button', { name: 'Conferir' }).click();
      await page.getByText('O código tem 16 letras e números').waitFor();
      expect(await page.getByTestId('certificate-check-error').count()).toBe(0);
      expect(await page.getByText('Certificado não encontrado').count()).toBe(0);
      await screenshot(page, `edges-certificate-input-error-${width}`);

      await page.goto(`${server.baseUrl}/certificate/${schedulingId}?code=${code}`);
      await page.getByText('Certificado autêntico e válido').waitFor();
      const unit = page.getByTestId('certificate-unit');
      await expect.poll(() => unit.textContent()).toMatch(/· Exame teórico de trânsito$/);
      expect(await unit.textContent()).not.toMatch(/Distrito Federal/i);
      expect(await page.getByTestId('certificate-check').textContent()).toContain('(DEMO)');
      await screenshot(page, `edges-certificate-demo-variant-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);

  /**
   * The toast's box, the header's and the screen's actions: the toast is at the
   * bottom right, over none of them.
   */
  async function toastClearOfHeader(page: Page) {
    const toast = page.locator('.mantine-Notification-root').first();
    await toast.waitFor();
    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const toastBox = await box('.mantine-Notification-root');
    const header = await box('header');
    const actions = await box('main button:has-text("Verificar integridade")');
    const viewport = page.viewportSize()!;
    expect(toastBox.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(toastBox.y).toBeGreaterThanOrEqual(actions.y + actions.height);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
    expect(toastBox.x + toastBox.width).toBeGreaterThan(viewport.width - 40);
  }

  it('activity: pages read as screens; a toast covers neither the header nor the actions', async () => {
    // Page views of the exam and of its audit, sent by the browser's activity log.
    const visitor = await pageAt(1366);
    await signIn(visitor.page, server.baseUrl, AUDITOR.email, AUDITOR.password);
    await visitor.page.goto(`${server.baseUrl}/auditoria/${examId}`);
    await visitor.page.getByRole('heading').first().waitFor();
    await visitor.page.goto(`${server.baseUrl}/exames/${schedulingId}`);
    await visitor.page.getByRole('heading').first().waitFor();
    await visitor.page.goto(`${server.baseUrl}/home`);
    // Sent now rather than at the next tick of the queue.
    await expect
      .poll(
        () =>
          visitor.page.evaluate(() => {
            window.dispatchEvent(new Event('online'));
            return Object.keys(localStorage)
              .filter((key) => key.startsWith('EP_ACTIVITY_QUEUE:'))
              .reduce(
                (sum, key) =>
                  sum +
                  (
                    JSON.parse(localStorage.getItem(key) ?? '{"events":[]}') as {
                      events: unknown[];
                    }
                  ).events.length,
                0,
              );
          }),
        { timeout: 20_000 },
      )
      .toBe(0);
    await visitor.context.close();

    for (const width of WIDTHS) {
      const { context, page, errors } = await pageAt(width);
      await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
      await page.goto(`${server.baseUrl}/atividades`);
      const rows = page.getByTestId('activity-table').locator('tbody tr');
      await rows.first().waitFor();
      /**
       * The page views among the rows: "Alvo" also finds events whose details
       * name the page (an error of a call made there, under a loaded machine).
       */
      const pageViews = async () =>
        (await rows.allTextContents()).filter((text) => text.includes('Página acessada'));
      /** Once the filter applies, every page view reads `wanted`. */
      const everyRow = (wanted: string) =>
        expect
          .poll(
            async () => {
              const texts = await pageViews();
              return texts.length > 0 && texts.every((text) => text.includes(wanted));
            },
            { timeout: 20_000 },
          )
          .toBe(true);
      await page.getByRole('textbox', { name: 'Alvo' }).fill('/auditoria/');
      await everyRow('Auditoria do exame');
      for (const text of await pageViews()) expect(text).not.toContain('/auditoria/');
      await page.getByRole('textbox', { name: 'Alvo' }).fill(`/exames/${schedulingId}`);
      await everyRow(`Agendamento ${schedulingId}`);
      await screenshot(page, `edges-activity-${width}`);
      await page.getByRole('button', { name: 'Exportar CSV' }).click();
      await toastClearOfHeader(page);
      await screenshot(page, `edges-toast-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 240_000);

  it('the exam list opens on today', async () => {
    const first = (day: string) => day.split('-').reverse().join('/');
    for (const width of WIDTHS) {
      const { context, page, errors } = await pageAt(width);
      await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
      await page.goto(`${server.baseUrl}/exames`);
      const firstRow = page.locator('table tbody tr').first();
      await firstRow.waitFor();
      expect(await page.getByRole('button', { name: /Período/ }).textContent()).toContain(
        `${first(addDays(today, -30))} – ${first(today)}`,
      );
      // Newest first, nothing after today: the first row is today's.
      expect(await firstRow.locator('td').first().textContent()).toContain(first(today));
      await screenshot(page, `edges-exam-list-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
