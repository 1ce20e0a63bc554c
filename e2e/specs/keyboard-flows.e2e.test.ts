/**
 * The examiner's check-in and the auditor's decision used by keyboard alone
 * (eMAG, WCAG 2.1.1), in Chromium on the real server with the demo data:
 * only Tab, Shift+Tab, typing, arrows, Enter and Escape, never a click. The
 * DEMO unit has no face validation (spec 5), so the room opens and closes
 * without the camera; the audit decision goes through the global alert
 * modal, whose confirm button waits for the reason and the note.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV } from '../support/auth';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';

const EXAMINER = { email: 'examinador@demo.exame.local', password: ADMIN.password };
const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };

/** What has the focus: its accessible label, text or placeholder. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    // The page itself (no focus yet) is not a control: its text is every name on the screen.
    if (!element || element === document.body) return '';
    const labelled = element.getAttribute('aria-label');
    const byLabelledBy = element.getAttribute('aria-labelledby');
    const labelledBy = byLabelledBy
      ? byLabelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : null;
    const byId = element.id ? document.querySelector(`label[for="${element.id}"]`) : null;
    return (
      labelled ??
      byId?.textContent ??
      labelledBy ??
      (element as HTMLInputElement).placeholder ??
      element.textContent ??
      ''
    ).trim();
  });
}

/** Presses Tab until the focus is on an element whose name matches, or fails. */
async function tabTo(page: Page, name: RegExp, limit = 80): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    if (name.test(await focusedName(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`o foco não chegou a ${name} com Tab (está em "${await focusedName(page)}")`);
}

/** Whether the focus is inside the element of `testId` (a dialog traps it there). */
function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate(
    (id) => Boolean(document.activeElement?.closest(`[data-testid="${id}"]`)),
    testId,
  );
}

/**
 * Opens a combobox by keyboard and chooses the option whose text matches. The
 * options may still be on their way from the server (a loaded machine): the
 * list is opened again until the wanted option is in it.
 */
async function chooseOption(page: Page, option: RegExp): Promise<void> {
  const wanted = page.getByRole('option', { name: option }).first();
  await expect
    .poll(
      async () => {
        if (!(await wanted.isVisible())) await page.keyboard.press('ArrowDown');
        return wanted.isVisible();
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  const selectedText = () =>
    page
      .locator('[role="option"][data-combobox-selected]')
      .first()
      .textContent({ timeout: 1_000 })
      .catch(() => '');
  for (let step = 0; step < 30; step += 1) {
    if (option.test((await selectedText()) ?? '')) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`as setas não chegaram à opção ${option} (está em "${await selectedText()}")`);
}

async function signInByKeyboard(page: Page, baseUrl: string, who: typeof EXAMINER) {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('heading', { name: 'Entrar' }).waitFor();
  await tabTo(page, /^E-mail/);
  await page.keyboard.type(who.email);
  await tabTo(page, /^Senha/);
  await page.keyboard.type(who.password);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/home');
}

describe('check-in and audit decision by keyboard alone in Chromium', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true', FACE_ANALYSIS_SWEEP_SECONDS: '0' });
  const browser = useBrowser();

  it('the examiner picks post and room, opens the room alone and closes it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchPageErrors(page);
    await signInByKeyboard(page, server.baseUrl, EXAMINER);
    // From the examiner's home to the room screen.
    await tabTo(page, /Sala de prova/);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/viewer-checkin');
    await page.getByRole('heading', { name: 'Sala de prova', level: 1 }).waitFor();

    await tabTo(page, /^Posto de atendimento/);
    await chooseOption(page, /DEMO\.POSTO01\)/);
    expect(
      await page.getByRole('combobox', { name: /^Posto de atendimento/ }).inputValue(),
    ).toMatch(/DEMO\.POSTO01\)/);
    const room = page.getByRole('combobox', { name: /Sala de prova/ });
    await expect.poll(() => room.isEnabled()).toBe(true);
    await tabTo(page, /^Sala de prova/);
    await chooseOption(page, /\(S3\)/);
    expect(await room.inputValue()).toMatch(/S3/);

    await tabTo(page, /^Abrir a sala$/);
    await page.keyboard.press('Enter');
    // Outside DF the notice comes first; its Ok has the focus inside the dialog.
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Aviso').waitFor();
    await expect.poll(() => focusInside(page, 'alert-modal')).toBe(true);
    await tabTo(page, /^Ok$/, 10);
    await page.keyboard.press('Enter');
    await alert.waitFor({ state: 'hidden' });

    // The examiners' dialog: examiner 2 left empty, the room opens with one examiner.
    const modal = page.getByRole('dialog', { name: 'Examinadores da sala' });
    await modal.waitFor();
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))))
      .toBe(true);
    await tabTo(page, /^Abrir a sala$/, 20);
    await page.keyboard.press('Enter');
    const open = page.getByTestId('open-room');
    await open.waitFor({ timeout: 30_000 });
    await screenshot(page, 'keyboard-check-in-open');

    // Closing asks for a confirmation, also by keyboard.
    await tabTo(page, /^Encerrar a sala$/);
    await page.keyboard.press('Enter');
    await alert
      .getByText(/Encerrar/)
      .first()
      .waitFor();
    await expect.poll(() => focusInside(page, 'alert-modal')).toBe(true);
    await tabTo(page, /^Encerrar a sala$/, 10);
    await page.keyboard.press('Enter');
    await page.getByText('Sala encerrada', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 180_000);

  it('the auditor opens the first exam of the queue and disqualifies it with reason and note', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 1000 } });
    const errors = watchPageErrors(page);
    await signInByKeyboard(page, server.baseUrl, AUDITOR);
    await page.goto(`${server.baseUrl}/auditoria`);
    const firstRow = page.locator('[data-testid="audit-queue"] tbody tr').first();
    await firstRow.waitFor();
    await tabTo(page, /^Auditar/, 150);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/auditoria/*');
    await expect
      .poll(() => page.getByTestId('claim-state').textContent())
      .toContain('Você audita este exame');

    await tabTo(page, /^Desclassificar$/, 150);
    await page.keyboard.press('Enter');
    const modal = page.getByTestId('alert-modal');
    await modal.getByText('Desclassificar o exame').waitFor();
    const confirm = modal.getByRole('button', { name: 'Desclassificar' });
    expect(await confirm.isDisabled()).toBe(true);
    await tabTo(page, /^Motivo da desclassificação/, 15);
    await chooseOption(page, /./);
    expect(await confirm.isDisabled()).toBe(true);
    await tabTo(page, /^Observação/, 15);
    await page.keyboard.type('Outra pessoa aparece diante da câmera na segunda captura.');
    expect(await confirm.isDisabled()).toBe(false);
    await tabTo(page, /^Desclassificar$/, 15);
    expect(await focusInside(page, 'alert-modal')).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('decision-panel').textContent(), { timeout: 30_000 })
      .toContain('Decisão em vigor');
    await screenshot(page, 'keyboard-audit-decision');
    expect(errors).toEqual([]);
  }, 180_000);
});
