/**
 * The sign-in, the exam list and the user form used by keyboard alone (eMAG,
 * WCAG 2.1.1): only Tab, Shift+Tab, typing, arrows, Enter and Escape, no
 * click, in Chromium on the real server with the demo data.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../support/auth';
import { launchBrowser, screenshot } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

/** What has the focus: its accessible label, text or placeholder. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const labelled = element.getAttribute('aria-label');
    const byId = element.id ? document.querySelector(`label[for="${element.id}"]`) : null;
    return (
      labelled ??
      byId?.textContent ??
      (element as HTMLInputElement).placeholder ??
      element.textContent ??
      ''
    ).trim();
  });
}

/** Presses Tab until the focus is on an element whose name matches, or fails. */
async function tabTo(page: Page, name: RegExp, limit = 60): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    if (name.test(await focusedName(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`o foco não chegou a ${name} com Tab (está em "${await focusedName(page)}")`);
}

describe('keyboard alone in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in', async () => {
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await tabTo(page, /^E-mail/);
    await page.keyboard.type(ADMIN.email);
    await tabTo(page, /^Senha/);
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/home');
  });

  it('filters the exam list, pages it and opens an exam', async () => {
    await page.goto(`${server.baseUrl}/exames`);
    await page.locator('table tbody tr').first().waitFor();
    const firstBefore = await page.locator('table tbody tr').first().textContent();
    // Next page by keyboard.
    await tabTo(page, /^Próxima página$/, 120);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (before) => document.querySelector('table tbody tr')?.textContent !== before,
      firstBefore,
    );
    // Search by the start of a candidate's name seen on this page (the search matches from the start).
    const name = (await page.locator('table tbody tr a').first().textContent()) ?? '';
    const surname = name.trim().split(/\s+/).slice(0, 2).join(' ');
    expect(surname.length).toBeGreaterThan(2);
    await page.keyboard.press('Shift+Tab');
    await tabTo(page, /^Candidato|Nome ou CPF/, 120);
    await page.keyboard.type(surname);
    await page.waitForFunction((wanted) => {
      const rows = Array.from(document.querySelectorAll('table tbody tr'));
      return (
        rows.length > 0 &&
        rows.every((row) => (row.textContent ?? '').toLowerCase().includes(wanted))
      );
    }, surname.toLowerCase());
    // Open the first exam of the list.
    await page.keyboard.press('Tab');
    for (let step = 0; step < 40; step += 1) {
      const inRow = await page.evaluate(
        () => document.activeElement?.closest('table tbody tr a') !== null,
      );
      if (inRow) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/exames\/[^/]+$/);
    await page.getByRole('heading').first().waitFor();
  });

  it('fills and sends the user form, the profile picked with the arrows', async () => {
    await page.goto(`${server.baseUrl}/create-users`);
    await page.locator('form').waitFor();
    await tabTo(page, /^Nome completo/);
    await page.keyboard.type('Teclado Examinadora');
    await tabTo(page, /^E-mail/);
    await page.keyboard.type('teclado.examinadora@demo.exame.local');
    await tabTo(page, /^CPF/);
    await page.keyboard.type('39053344705');
    await tabTo(page, /^Perfil/);
    // Open the list, walk to "Examinador" and choose it.
    await page.keyboard.press('ArrowDown');
    for (let step = 0; step < 6; step += 1) {
      const selected = await page
        .locator('[role="option"][data-combobox-selected]')
        .first()
        .textContent()
        .catch(() => '');
      if (selected === 'Examinador') break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    expect(await page.locator('input[aria-haspopup="listbox"]').first().inputValue()).toBe(
      'Examinador',
    );
    await screenshot(page, 'keyboard-user-form');
    await tabTo(page, /^Cadastrar|^Criar|^Salvar/);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/list-users');
    await page.getByText('Teclado Examinadora').waitFor();
  });
});
