/**
 * The audit queue, the per-post report (with the exams behind a number) and
 * the dashboard on a phone (390 px), a tablet (768 px) and a laptop (1366 px),
 * on the real server with the demo seed: nothing scrolls sideways (neither
 * the page nor its tables), no badge of the queue is cut, the chart names
 * every post, and no screen names a post by the API's report id (`DF.`).
 * Each state leaves a screenshot in e2e/artifacts/ (layout-*.png).
 */
import { addDays, dayInZone } from '@exame/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
/** A phone, a tablet, a laptop; 1280 px is where the tables take over from the cards. */
const WIDTHS = [390, 768, 1280, 1366] as const;

/**
 * What scrolls sideways: the page, any table (or its container) wider than
 * its box, and any element that scrolls horizontally. Empty when nothing does.
 */
function overflowOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ')[0]}` : ''}`;
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push(`página: ${root.scrollWidth} > ${root.clientWidth}`);
    }
    const candidates = new Set<Element>();
    for (const table of Array.from(document.querySelectorAll('table'))) {
      candidates.add(table);
      if (table.parentElement) candidates.add(table.parentElement);
    }
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const style = getComputedStyle(element);
      if (['auto', 'scroll'].includes(style.overflowX)) candidates.add(element);
    }
    for (const element of candidates) {
      if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        found.push(`${describe(element)}: ${element.scrollWidth} > ${element.clientWidth}`);
      }
    }
    return found;
  });
}

/**
 * Boxes whose content runs past their edge (a label wider than its tile, a
 * cell's text over the next one), even where nothing scrolls.
 */
function spillsOf(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button, td, th, .mantine-Paper-root, .mantine-Card-root'))
      .filter((box) => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
      .map((box) => `${box.tagName.toLowerCase()}: ${(box.textContent ?? '').slice(0, 40)}`),
  );
}

/** Badges whose text is cut ("COM AUDITOR…"). */
function cutBadges(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Badge-label'))
      .filter((label) => label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent ?? ''),
  );
}

describe('audit queue, report and dashboard fit phones, tablets and laptops', () => {
  let server: RunningServer;
  let browser: Browser;
  const today = dayInZone(new Date());
  const monthAgo = addDays(today, -30);

  beforeAll(async () => {
    server = await startServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      FACE_ANALYSIS_SWEEP_SECONDS: '0',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function open(width: number, who: { email: string; password: string }) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
    });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, who.email, who.password);
    return { page, errors, close: () => context.close() };
  }

  const visibleText = (page: Page) => page.locator('body').innerText();

  it.each(WIDTHS)('the audit queue at %i px', async (width) => {
    const { page, errors, close } = await open(width, AUDITOR);
    await page.goto(`${server.baseUrl}/auditoria`);
    await page.getByRole('heading', { name: 'Fila de auditoria' }).waitFor();
    const wide = width >= 1280;
    const rows = wide
      ? page.locator('[data-testid="audit-queue"] tbody tr')
      : page.getByTestId('audit-queue-card');
    await rows.first().waitFor();
    expect(await page.getByRole('button', { name: /^Auditar o exame de / }).count()).toBe(
      await rows.count(),
    );
    // A post by its name, never its raw local (`DEMO.POSTO05-S1`).
    expect(await visibleText(page)).not.toMatch(/DEMO\.POSTO\d+-S\d/);
    if (wide) {
      // Each CPF on one line: its cell is one line high.
      const heights = await page
        .locator('[data-testid="audit-queue"] tbody tr td:nth-child(3)')
        .evaluateAll((cells) =>
          cells.map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return range.getClientRects().length;
          }),
        );
      expect(heights.every((lines) => lines === 1)).toBe(true);
    }
    expect(await cutBadges(page)).toEqual([]);
    expect(await spillsOf(page)).toEqual([]);
    expect(await overflowOf(page)).toEqual([]);
    await screenshot(page, `layout-audit-queue-${width}`);
    expect(errors).toEqual([]);
    await close();
  });

  it('the queue says what the exam page says of a face not found', async () => {
    const { page, errors, close } = await open(1366, AUDITOR);
    await page.goto(`${server.baseUrl}/auditoria`);
    const first = page.locator('[data-testid="audit-queue"] tbody tr').first();
    await first.waitFor();
    const schedulingId = (await first.locator('td').nth(1).locator('p').nth(1).textContent()) ?? '';
    await first.getByRole('button', { name: /^Auditar o exame de / }).click();
    // The demo's photos are drawings: the engine finds no face in its captures.
    const captures = page.getByTestId('capture');
    await captures.first().waitFor();
    await expect
      .poll(() => captures.first().textContent(), { timeout: 90_000 })
      .toContain('Rosto não encontrado');
    await page.goto(`${server.baseUrl}/auditoria`);
    const row = page
      .locator('[data-testid="audit-queue"] tbody tr')
      .filter({ hasText: schedulingId });
    await expect
      .poll(() => row.locator('[data-face-state]').textContent())
      .toBe('Rosto não encontrado');
    await screenshot(page, 'layout-audit-queue-face-not-found');
    expect(errors).toEqual([]);
    await close();
  });

  it.each(WIDTHS)(
    'the report of every post, and the exams behind a number, at %i px',
    async (width) => {
      const { page, errors, close } = await open(width, ADMIN);
      await page.goto(`${server.baseUrl}/exam-report/all?startDate=${monthAgo}&endDate=${today}`);
      await page.getByRole('heading', { name: 'Todos os postos', level: 1 }).waitFor();
      const wide = width >= 1280;
      const posts = wide
        ? page.locator('[data-testid="report-table"] tbody tr')
        : page.getByTestId('report-card');
      await expect.poll(() => posts.count()).toBe(9);
      // The demo's exams in analysis are pending in their metadata too: the screen says so.
      await page.getByTestId('metadata-note').waitFor();
      expect(await page.getByTestId('from-metadata').count()).toBeGreaterThan(0);
      const text = await visibleText(page);
      expect(text).toContain('DEMO.POSTO01');
      expect(text).not.toContain('DF.POSTO');
      // The last column is on screen, not behind a sideways scroll.
      const last = page.locator('[data-counter="disqualified"]').first();
      const box = await last.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(width);
      expect(await spillsOf(page)).toEqual([]);
      expect(await overflowOf(page)).toEqual([]);
      await screenshot(page, `layout-report-${width}`);

      await page
        .getByRole('button', { name: /^Pendentes de auditoria de todos os postos: / })
        .click();
      await page
        .getByRole('heading', { name: 'Pendentes de auditoria — todos os postos' })
        .waitFor();
      await (
        wide
          ? page.locator('[data-testid="counter-exams"] tbody tr')
          : page.locator('[data-testid="counter-exams-cards"] li')
      )
        .first()
        .waitFor();
      expect(await overflowOf(page)).toEqual([]);
      await screenshot(page, `layout-report-exams-${width}`);
      expect(errors).toEqual([]);
      await close();
    },
  );

  it.each(WIDTHS)('the dashboard at %i px', async (width) => {
    const { page, errors, close } = await open(width, ADMIN);
    await page.getByRole('heading', { name: 'Postos de atendimento' }).waitFor();
    await page.getByTestId('local-card').first().waitFor();
    const cards = await page.getByTestId('local-card').count();
    // Every post of the chart has its name on the axis.
    const names = page.getByTestId('posts-chart').locator('.recharts-yAxis-tick-labels text');
    await expect.poll(() => names.count()).toBe(cards);
    const labels = await names.allTextContents();
    expect(labels.every((label) => label.startsWith('Posto'))).toBe(true);
    const text = await visibleText(page);
    expect(text).toContain('DEMO.POSTO01');
    expect(text).not.toContain('DF.POSTO');
    // The last 30 days hold the demo's occurrences: their list fits as well.
    await page.getByRole('button', { name: 'Período', exact: true }).click();
    await page.getByRole('button', { name: 'Últimos 30 dias' }).click();
    await page.keyboard.press('Escape');
    // The calendar (wider than a phone) is measured only once it has closed.
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page
      .getByTestId(width >= 1280 ? 'occurrences-table' : 'occurrences-cards')
      .first()
      .waitFor();
    expect(await spillsOf(page)).toEqual([]);
    expect(await overflowOf(page)).toEqual([]);
    await screenshot(page, `layout-dashboard-${width}`);
    expect(errors).toEqual([]);
    await close();
  });
});
