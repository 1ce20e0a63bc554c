import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startLibrasScriptServer } from '../support/libras-stub';
import { startServer, type RunningServer } from '../support/server';

describe('app shell in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let libras: Awaited<ReturnType<typeof startLibrasScriptServer>>;

  beforeAll(async () => {
    libras = await startLibrasScriptServer();
    server = await startServer({
      LIBRAS_WIDGET_URL: libras.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await libras?.stop();
  });

  it('opens the app, is sent to login, and shows the Libras widget there', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = watchPageErrors(page);
    await page.goto(server.baseUrl);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.title()).toBe('Entrar · Exame Teórico');
    const widgetButton = page.locator('[vw-access-button]');
    await widgetButton.waitFor({ state: 'visible' });
    expect(await widgetButton.textContent()).toBe('Libras');
    expect(await widgetButton.getAttribute('data-root')).toBe(
      libras.url.replace('/vlibras-plugin.js', ''),
    );
    await screenshot(page, 'login');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('takes the DF theme from the df. host name and the stored theme elsewhere', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://df.localhost:${server.port}/login`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.locator('link#app-favicon').getAttribute('href')).toBe(
      '/valid-df-theme-favicon.svg',
    );
    expect(await page.getByRole('img', { name: 'Exame Teórico' }).getAttribute('src')).toBe(
      '/valid-df-theme-logo.svg',
    );
    await screenshot(page, 'login-df');

    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.locator('link#app-favicon').getAttribute('href')).toBe(
      '/default-theme-favicon.svg',
    );
    await page.evaluate(() => localStorage.setItem('theme', 'valid-theme'));
    await page.reload();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await page.locator('link#app-favicon').getAttribute('href')).toBe(
      '/valid-theme-favicon.svg',
    );
    await context.close();
  });

  it('the Libras widget is absent on an admin-guarded route and back elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const widget = page.getByTestId('libras-widget');
    await page.locator('[vw-access-button]').waitFor({ state: 'visible' });
    await page
      .locator('nav')
      .getByRole('link', { name: /Cadastro de demonstração/ })
      .click();
    await page.waitForURL('**/demo-register/');
    await page.getByRole('heading', { name: 'Cadastro de demonstração' }).waitFor();
    expect(await widget.isHidden()).toBe(true);
    expect(await page.locator('[vw-access-button]').isVisible()).toBe(false);
    await screenshot(page, 'demo-register-admin-guarded');
    await page.goBack();
    await page.waitForURL('**/home');
    await page.locator('[vw-access-button]').waitFor({ state: 'visible' });
    await page.close();
  });

  it('the server shuts down gracefully on SIGTERM', async () => {
    const other = await startServer({ SEED_DEMO: 'false', ADMIN_FEDERATIVE_UNIT: 'MA' });
    expect((await fetch(`${other.baseUrl}/api/FederativeUnit`)).status).toBe(200);
    const started = Date.now();
    const code = await other.stop();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('an unknown address shows the not-found page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl}/nao/existe`);
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await page.close();
  });
});
