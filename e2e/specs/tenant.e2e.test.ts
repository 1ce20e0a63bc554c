/**
 * The tenant from the address (spec 2), both forms: the first path segment
 * (`/df/...`, the app then keeps the prefix on every screen) and the first
 * label of the host name (`df.localhost`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

describe('tenant from the address in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const favicon = (page: Page) => page.locator('link#app-favicon').getAttribute('href');

  it('path form: /ce/ is CE with its theme, and the screens keep the prefix', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, `${server.baseUrl}/ce`, ADMIN.email, ADMIN.password);
    expect(new URL(page.url()).pathname).toBe('/ce/home');
    expect(await favicon(page)).toBe('/valid-theme-favicon.svg');
    await page
      .locator('nav')
      .getByRole('link', { name: /Usuários/ })
      .first()
      .click();
    await page.waitForURL('**/ce/list-users');
    await screenshot(page, 'tenant-path-ce');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('host form: df.localhost is DF, without a prefix', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://df.localhost:${server.port}/login`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await favicon(page)).toBe('/valid-df-theme-favicon.svg');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('no two-letter segment: the default theme, routes as they are', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await favicon(page)).toBe('/default-theme-favicon.svg');
    await context.close();
  });
});
