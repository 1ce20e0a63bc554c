/**
 * The activity log end to end: the ADMIN's navigation becomes page_view
 * events; the `atividades` screen finds them by type and target, exports the
 * filtered CSV and checks the hash chain; events recorded while the server is
 * unreachable stay in the browser (across a reload too) and reach the log
 * once it is back, each exactly once — also when the server took a batch
 * whose answer never came back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';

type LogPage = { items: { type: string; target: string | null; id: string }[]; total: number };

/** The log as the API gives it, with the signed-in ADMIN's session. */
async function searchLog(page: Page, query: string): Promise<LogPage> {
  return (await page.evaluate(async (search) => {
    const user = JSON.parse(localStorage.getItem('EP_ADMIN_USER') ?? '{}') as { token: string };
    const answer = await fetch(`/api/ActivityLog?${search}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    return answer.json();
  }, query)) as LogPage;
}

/** The events waiting in the browser's queue (every user's). */
function queuedTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('EP_ACTIVITY_QUEUE:'))
      .flatMap(
        (key) =>
          (
            JSON.parse(localStorage.getItem(key) ?? '{"events":[]}') as {
              events: { target?: string }[];
            }
          ).events,
      )
      .map((event) => event.target ?? ''),
  );
}

/** Asks the app to send now (the browser says it is online again: the back-off restarts). */
function sendNow(page: Page): Promise<void> {
  return page.evaluate(() => {
    window.dispatchEvent(new Event('online'));
  });
}

/**
 * Opens a screen from the menu and waits until it is shown (its document
 * title): a page the browser left before it ever rendered was not viewed.
 */
async function openFromMenu(page: Page, name: RegExp, url: string, title: string): Promise<void> {
  await page.locator('nav').getByRole('link', { name }).click();
  await page.waitForURL(`**${url}`);
  await expect.poll(() => page.title()).toBe(`${title} · Exame Teórico`);
}

describe('activity log end to end', () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'false', ADMIN_FEDERATIVE_UNIT: 'PE' });
  const browser = useBrowser();
  const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'exame-atividades-'));

  afterAll(() => {
    fs.rmSync(downloads, { recursive: true, force: true });
  });

  it('navigation in the log, search, CSV export, chain check', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await openFromMenu(page, /^Usuários/, '/list-users', 'Usuários');
    await openFromMenu(page, /^Exames/, '/exames', 'Exames');
    await openFromMenu(page, /^Atividades/, '/atividades', 'Atividades');

    // The timer sends the queue within seconds.
    await expect
      .poll(
        async () => {
          await sendNow(page);
          return (await searchLog(page, 'type=page_view&pageSize=200')).items;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({ target: '/list-users' }),
          expect.objectContaining({ target: '/exames' }),
        ]),
      );

    // The screen: a reload shows what arrived, newest first.
    await page.reload();
    const table = page.getByTestId('activity-table');
    const rows = table.locator('tbody tr');
    await rows.first().waitFor();
    await expect.poll(() => table.textContent()).toContain('Usuários');
    expect(await table.textContent()).toContain('Página acessada');

    // Filters: type and target.
    await page.getByLabel('Tipos', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Página acessada' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Alvo' }).fill('/list-users');
    await expect.poll(() => rows.count()).toBe(1);
    // The page reads as its screen's name; the address itself is in the event's details.
    expect(await rows.first().textContent()).toContain('Usuários');
    expect(await rows.first().textContent()).not.toContain('/list-users');
    expect(await rows.first().textContent()).toContain('Página acessada');
    await screenshot(page, 'activity-filtered');
    await page.screenshot({ path: '/tmp/activity-filtered.png', fullPage: true });

    // The event's details: its device, app version and hash.
    await rows
      .first()
      .getByRole('button', { name: /^Detalhes do evento/ })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const detailText = (await dialog.textContent()) ?? '';
    expect(detailText).toMatch(/[0-9a-f]{64}/);
    expect(detailText).toContain('Dispositivo');
    expect(detailText).toContain('Alvo registrado/list-users');
    await page.screenshot({ path: '/tmp/activity-details.png', fullPage: true });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The export has the filtered events only.
    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toMatch(/^atividades-PE-.+\.csv$/);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const csv = fs.readFileSync(file, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBe(2);
    expect(lines[0]).toContain('Alvo');
    expect(lines[1]).toContain('/list-users');
    expect(lines[1]).toContain('page_view');
    expect(csv).not.toContain('/exames');

    // The chain check.
    await page.getByRole('button', { name: 'Verificar integridade' }).click();
    const verdict = page.getByTestId('verify-result');
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain('Registro íntegro');
    await page.screenshot({ path: '/tmp/activity-verified.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('events survive an unreachable server and a reload, and are logged once each', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);

    // The server cannot be reached: every send fails.
    let refused = 0;
    await page.route('**/api/ActivityLog/events', async (route) => {
      refused += 1;
      await route.abort('internetdisconnected');
    });
    await openFromMenu(page, /^Justificativas/, '/justificativas', 'Justificativas');
    await expect.poll(() => refused, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await queuedTargets(page)).toContain('/justificativas');
    // A reload keeps them (and its own send on leaving fails too).
    await page.reload();
    await page.getByRole('heading', { name: 'Justificativas' }).first().waitFor();
    expect(await queuedTargets(page)).toContain('/justificativas');

    // The server takes a batch but the answer is lost: the browser must send it again.
    await page.unroute('**/api/ActivityLog/events');
    let lostAnswers = 0;
    await page.route('**/api/ActivityLog/events', async (route) => {
      const response = await route.fetch();
      if (response.ok() && lostAnswers === 0) {
        lostAnswers += 1;
        await route.abort('connectionreset');
        return;
      }
      await route.fulfill({ response });
    });
    await openFromMenu(
      page,
      /^Postos de atendimento/,
      '/scheduling-locals',
      'Postos de atendimento',
    );
    await sendNow(page);
    await expect.poll(() => lostAnswers, { timeout: 30_000 }).toBe(1);
    // Sent again after the back-off, or at once when asked.
    await expect
      .poll(
        async () => {
          await sendNow(page);
          return queuedTargets(page);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toEqual([]);

    const justificativas = await searchLog(page, 'type=page_view&target=/justificativas');
    // One view before the reload and one after it: each once, none twice.
    expect(justificativas.items.map((item) => item.target)).toEqual([
      '/justificativas',
      '/justificativas',
    ]);
    const posts = await searchLog(page, 'type=page_view&target=/scheduling-locals');
    expect(posts.total).toBe(1);
    const ids = [...justificativas.items, ...posts.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);

    // The screen shows them once too. Filtered as the search above (page
    // views of that page): a call or script cut short by the reload may
    // rightly leave an `error` event on the same page.
    await page.unroute('**/api/ActivityLog/events');
    await page.goto(`${server.baseUrl}/atividades`);
    await page.getByLabel('Tipos', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Página acessada' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Alvo' }).fill('/justificativas');
    const rows = page.getByTestId('activity-table').locator('tbody tr');
    await expect
      .poll(async () => {
        const texts = await rows.allTextContents();
        return texts.length === 2 ? 2 : texts;
      })
      .toBe(2);
    const shown = await rows.allTextContents();
    expect(shown.every((text) => text.includes('Página acessada'))).toBe(true);
    expect(shown.every((text) => text.includes('Justificativas'))).toBe(true);
    await page.close();
  });

  it('the screen works by keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await page.goto(`${server.baseUrl}/atividades`);
    await page.getByTestId('activity-table').locator('tbody tr').first().waitFor();

    // Tab to the biometric preset and press it: the type filter holds the three view types.
    const preset = page.getByRole('button', { name: 'Acessos a dados biométricos' });
    for (let index = 0; index < 60; index += 1) {
      await page.keyboard.press('Tab');
      if (await preset.evaluate((element) => element === document.activeElement)) break;
    }
    expect(await preset.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => preset.getAttribute('aria-pressed')).toBe('true');
    // Every row left is a view of biometric data (or none is).
    const types = page.getByTestId('activity-table').locator('tbody tr td:nth-child(2)');
    await expect
      .poll(async () =>
        (await types.allTextContents()).every((text) =>
          ['Imagem facial vista', 'Foto de exame vista', 'CPF completo visto'].includes(text),
        ),
      )
      .toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => preset.getAttribute('aria-pressed')).toBe('false');

    // The first event's details open and close by keyboard.
    const details = page.getByRole('button', { name: /^Detalhes do evento/ }).first();
    await details.waitFor();
    await details.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await details.evaluate((element) => element === document.activeElement)).toBe(true);

    // The chain check by keyboard.
    await page.getByRole('button', { name: 'Verificar integridade' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('verify-result').waitFor();
    await page.close();
  });
});
