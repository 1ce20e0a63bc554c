/**
 * An open room after a new sign-in, in Chromium (DEMO: no face validation): the examiner's
 * open room survives a sign-out. The examiner opens a room, signs out (which
 * clears the post kept in the browser), signs in again in a new browser
 * context (another device), and from the screens, without choosing the post
 * again: registers the exit from Início ("Registrar saída" opens the open
 * room, "Encerrar a sala" closes it); then, after opening another room and
 * signing out again, transfers it from "Transferir a sala"; the examiner who
 * receives it finds it on their own Início and closes it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';

const EXAMINER = { email: 'examinador@demo.exame.local', name: 'Examinador Demonstração' };
const INSPECTOR = { email: 'fiscal@demo.exame.local', name: 'Fiscal de Sala Demonstração' };
const POST = 'Posto Centro (DEMO.POSTO01)';

describe('the examiner’s room after a new sign-in, in Chromium', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true' });
  const browser = useBrowser();
  const contexts: BrowserContext[] = [];

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
  });

  /** A new browser context (another device: nothing kept in its storage) signed in as `email`. */
  async function device(email: string): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, email, ADMIN.password);
    return { page, errors };
  }

  /** Opens the room S2 of the post alone, as on the screen (outside DF: the notice first). */
  async function openRoom(page: Page, chooseThePost: boolean) {
    await page.goto(`${server.baseUrl}/viewer-checkin`);
    if (chooseThePost) {
      await page.getByRole('combobox', { name: 'Posto de atendimento' }).click();
      await page.getByRole('option', { name: POST }).click();
    }
    const room = page.getByRole('combobox', { name: /Sala de prova/ });
    await expect.poll(() => room.isEnabled()).toBe(true);
    await room.click();
    await page.getByRole('option', { name: 'Sala 2 (S2)' }).click();
    await page.getByRole('button', { name: 'Abrir a sala' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByRole('button', { name: 'Ok' }).click();
    const modal = page.getByRole('dialog', { name: 'Examinadores da sala' });
    await modal.getByRole('button', { name: 'Abrir a sala' }).click();
    await page.getByTestId('open-room').waitFor({ timeout: 30_000 });
  }

  /** Signs out with "Sair": the session ends and the post kept in the browser is cleared. */
  async function signOut(page: Page) {
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('EP_SCHEDULING_LOCAL'))).toBeNull();
    await page.context().close();
  }

  /** Início lists the room; its "Registrar saída" opens the open room, no post to choose. */
  async function exitFromHome(page: Page) {
    const mine = page.getByTestId('my-rooms');
    await mine.getByText('Sala 2', { exact: true }).waitFor();
    await mine.getByRole('link', { name: 'Registrar saída da Sala 2' }).click();
    await page.waitForURL('**/viewer-checkin');
    const room = page.getByTestId('open-room');
    await room.waitFor();
    expect(
      await page
        .getByText('Escolha o posto de atendimento da sala para registrar a entrada.')
        .count(),
    ).toBe(0);
    // The post follows the record the server sent.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('EP_SCHEDULING_LOCAL')))
      .toBe('DEMO.POSTO01');
    return room;
  }

  it('checks out and transfers from the screens without choosing the post again', async () => {
    // 1. The room opens on one device; the examiner signs out.
    const first = await device(EXAMINER.email);
    await openRoom(first.page, true);
    await screenshot(first.page, 'sign-in-again-1-room-open');
    expect(first.errors).toEqual([]);
    await signOut(first.page);

    // 2. Another device: Início → Registrar saída → Encerrar a sala.
    const second = await device(EXAMINER.email);
    const room = await exitFromHome(second.page);
    await room.getByText(EXAMINER.name).first().waitFor();
    await screenshot(second.page, 'sign-in-again-2-room-from-server');
    expect(await seriousViolations(second.page, 'sala aberta lida do servidor')).toEqual([]);
    await room.getByRole('button', { name: 'Encerrar a sala' }).click();
    await second.page
      .getByTestId('alert-modal')
      .getByRole('button', { name: 'Encerrar a sala' })
      .click();
    await second.page
      .getByText('Sala encerrada', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(second.page, 'sign-in-again-3-closed');
    expect(second.errors).toEqual([]);

    // 3. The examiner opens the room again (the post is the one the record had) and signs out.
    await openRoom(second.page, false);
    await signOut(second.page);

    // 4. A third device: Transferir a sala finds the room and hands it to the inspector.
    const third = await device(EXAMINER.email);
    await third.page
      .locator('nav')
      .getByRole('link', { name: /Transferir a sala/ })
      .click();
    await third.page.waitForURL('**/change-examiner');
    const group = third.page.getByRole('radiogroup', { name: 'Examinador que entrega a sala' });
    await group.waitFor();
    expect(await third.page.getByText('Você não tem uma entrada aberta').count()).toBe(0);
    await third.page.getByText('Sala 2', { exact: true }).waitFor();
    expect(
      await group.getByRole('radio', { name: new RegExp(`^${EXAMINER.name}`) }).isChecked(),
    ).toBe(true);
    await screenshot(third.page, 'sign-in-again-4-transfer');
    await third.page.getByRole('button', { name: 'Escolher quem recebe e transferir' }).click();
    const modal = third.page.getByRole('dialog', { name: 'Transferir a sala' });
    await modal.getByRole('textbox', { name: 'Email' }).fill(INSPECTOR.email);
    await modal.getByLabel('Senha').fill(ADMIN.password);
    await modal.getByRole('button', { name: 'Enviar' }).click();
    await modal.getByTestId('second-examiner').getByText(INSPECTOR.name).waitFor();
    await modal.getByRole('button', { name: 'Transferir a sala' }).click();
    await third.page.getByText(`Sala transferida para ${INSPECTOR.name}.`).waitFor();
    await third.page.waitForURL('**/viewer-checkin');
    // The room is no longer the examiner's: nothing open, a post to choose for a new entry.
    await third.page
      .getByText('Escolha o posto de atendimento da sala para registrar a entrada.')
      .waitFor();
    expect(await third.page.getByTestId('open-room').count()).toBe(0);
    expect(third.errors).toEqual([]);

    // 5. The inspector, never on this post in their browser, finds the room on Início.
    const inspector = await device(INSPECTOR.email);
    const received = await exitFromHome(inspector.page);
    await received.getByText('Sala transferida').first().waitFor();
    await screenshot(inspector.page, 'sign-in-again-5-received');
    await received.getByRole('button', { name: 'Encerrar a sala' }).click();
    await inspector.page
      .getByTestId('alert-modal')
      .getByRole('button', { name: 'Encerrar a sala' })
      .click();
    await inspector.page
      .getByText('Sala encerrada', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(inspector.errors).toEqual([]);
  }, 300_000);
});
