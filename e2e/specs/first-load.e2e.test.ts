/**
 * The web's first load (route-level code splitting), in Chromium on the real
 * server with the production build: the sign-in page fetches only the entry
 * script and the chunks it needs, under a byte budget, and never the
 * common-password list (about 1 MB); a password page with a valid-looking
 * link fetches the list, and one with an incomplete link does not; a screen
 * of the shell arrives as a chunk of its own and, while it arrives, the shell
 * stays and an accessible status reads "Carregando…".
 *
 * The budget: before the split the sign-in page loaded one 1.68 MB script
 * (496 kB gzip); after it, about 0.89 MB (about 0.28 MB gzip) in a few
 * scripts. A budget of 1 MB raw and 320 kB gzip leaves room for ordinary
 * growth and fails as soon as a whole group of screens (or the list) is back
 * in the entry. bench/first-load.bench.ts measures both builds in one run.
 */
import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { useServer } from '../support/server';

const SIGN_IN_BUDGET_BYTES = 1_000_000;
const SIGN_IN_BUDGET_GZIP_BYTES = 320_000;
const COMMON_PASSWORDS = /\/assets\/common-passwords-[^/]+\.js$/;
const CPF = '52998224725';
const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789';

type Script = { path: string; bytes: number; gzipBytes: number };

/**
 * Every script of the build (`/assets/*.js`) the page fetches, with its size.
 * `settled` waits until the page has been quiet (no request in flight nor
 * started) for a second: Chromium's own "network idle" can come before a big
 * script has even run, and so before the requests its screen makes.
 */
function recordScripts(page: Page): { scripts: Script[]; settled: () => Promise<void> } {
  const scripts: Script[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight += 1;
    lastActivity = Date.now();
  });
  const finished = async (request: Request) => {
    try {
      const path = new URL(request.url()).pathname;
      const response = await request.response();
      if (response && path.startsWith('/assets/') && path.endsWith('.js')) {
        const body = await response.body();
        scripts.push({ path, bytes: body.length, gzipBytes: gzipSync(body).length });
      }
    } finally {
      inFlight -= 1;
      lastActivity = Date.now();
    }
  };
  page.on('requestfinished', (request) => void finished(request));
  page.on('requestfailed', () => {
    inFlight -= 1;
    lastActivity = Date.now();
  });
  return {
    scripts,
    settled: async () => {
      while (inFlight > 0 || Date.now() - lastActivity < 1000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

const total = (scripts: Script[], key: 'bytes' | 'gzipBytes') =>
  scripts.reduce((sum, script) => sum + script[key], 0);

describe('first load in Chromium', () => {
  const server = useServer(ADMIN_ENV);
  const browser = useBrowser();

  it('the sign-in page loads no password list and stays under the budget', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const { scripts, settled } = recordScripts(page);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    await settled();

    const raw = total(scripts, 'bytes');
    const gzip = total(scripts, 'gzipBytes');
    console.log(
      `/login: ${scripts.length} scripts, ${raw} bytes (${gzip} gzip)\n` +
        scripts.map((script) => `  ${script.path} ${script.bytes}`).join('\n'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => COMMON_PASSWORDS.test(script.path))).toEqual([]);
    // No screen of the shell came along with the sign-in page.
    expect(
      scripts.filter((script) => /(home|exam-list-page|list-users-page)-/.test(script.path)),
    ).toEqual([]);
    expect(raw).toBeLessThan(SIGN_IN_BUDGET_BYTES);
    expect(gzip).toBeLessThan(SIGN_IN_BUDGET_GZIP_BYTES);
    expect(await page.title()).toBe('Entrar · Exame Teórico');
    await screenshot(page, 'first-load-login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a password page with a link loads the list; an incomplete link does not', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchPageErrors(page);

    const withLink = recordScripts(page);
    const list = page.waitForResponse((response) => COMMON_PASSWORDS.test(response.url()));
    await page.goto(`${server.baseUrl}/register-password/${CPF}#token=${TOKEN}`);
    await page.getByLabel('Nova senha').first().waitFor();
    expect((await list).ok()).toBe(true);
    await withLink.settled();
    expect(withLink.scripts.some((script) => /\/password-page-/.test(script.path))).toBe(true);
    expect(await page.title()).toBe('Cadastrar senha · Exame Teórico');
    await context.close();

    const other = await browser.newContext();
    const incomplete = await other.newPage();
    const withoutLink = recordScripts(incomplete);
    await incomplete.goto(`${server.baseUrl}/reset-password/${CPF}`);
    await incomplete.getByText('Este link está incompleto ou é inválido').waitFor();
    await withoutLink.settled();
    expect(withoutLink.scripts.some((script) => /\/password-page-/.test(script.path))).toBe(true);
    expect(withoutLink.scripts.filter((script) => COMMON_PASSWORDS.test(script.path))).toEqual([]);
    expect(errors).toEqual([]);
    await other.close();
  });

  it('a screen of the shell arrives as its own chunk, with "Carregando…" meanwhile', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);

    // Hold the screen's chunk until the loading state has been checked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let requested = false;
    await page.route(/\/assets\/list-users-page-[^/]+\.js$/, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });

    await page.goto(`${server.baseUrl}/list-users`, { waitUntil: 'commit' });
    const status = page.getByRole('status').filter({ hasText: 'Carregando…' });
    await status.waitFor();
    expect(requested).toBe(true);
    // The shell stays: its menu and the sign-out are there while the screen arrives.
    await page.getByRole('navigation', { name: 'Menu principal' }).waitFor();
    await page.getByRole('button', { name: 'Sair' }).waitFor();
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('[data-testid="page-loader"]') as Element)
          .opacity === '1',
    );
    expect(await seriousViolations(page, 'carregando')).toEqual([]);
    await screenshot(page, 'first-load-carregando');

    release();
    await page.locator('table tbody tr').first().waitFor();
    expect(await status.count()).toBe(0);
    expect(await page.title()).toBe('Usuários · Exame Teórico');
    expect(errors).toEqual([]);
    await context.close();
  });
});
