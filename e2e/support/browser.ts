/** Debian's Chromium driven by playwright-core; screenshots go to e2e/artifacts/. */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

/** Debian's package `chromium-headless-shell`: Chromium's engine without the browser's own interface. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
/** Debian's package `chromium`: the whole browser, run headless. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The browser of the specs: CHROMIUM_PATH when set; else Debian's headless
 * shell when installed (the same Blink and V8 of the same Chromium release,
 * without the browser's interface: a spec of layouts and screenshots spent
 * about 40 % less Chromium CPU there than in the whole browser, measured side
 * by side); else the whole browser.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH);
export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium não encontrado em ${CHROMIUM_PATH} (instale o pacote Debian "chromium-headless-shell" ou "chromium").`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the specs ask of a browser: new pages and new contexts. */
export type SuiteBrowser = Pick<Browser, 'newPage' | 'newContext'>;

/**
 * The browser of a `describe`'s specs: launched before them (after the hooks
 * declared before this call, so `extraArgs` may name what they made) and
 * closed after them.
 */
export function useBrowser(extraArgs: () => string[] = () => []): SuiteBrowser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(extraArgs());
  });
  afterAll(async () => {
    await browser?.close();
  });
  const launched = (): Browser => {
    if (!browser) throw new Error('O navegador ainda não foi aberto (useBrowser).');
    return browser;
  };
  return {
    newPage: (options) => launched().newPage(options),
    newContext: (options) => launched().newContext(options),
  };
}

/** Collects page errors so a test can assert that none happened. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The page's width beyond `width` and the first elements that reach past it (empty when it fits). */
export async function overflowOf(page: Page, width: number): Promise<string[]> {
  return page.evaluate((limit) => {
    const root = document.documentElement;
    if (root.scrollWidth <= limit) return [];
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > limit + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName}.${String(element.className).split(' ')[0]}`);
    return [`página: ${root.scrollWidth} > ${limit}`, ...wide];
  }, width);
}

/**
 * Waits until the page fits `width` without sideways scrolling. A viewport
 * change animates the shell (the side bar's padding), so the layout is read
 * until it settles; a page that still overflows after that fails with the
 * elements that reach past the edge.
 */
export async function expectFitsWidth(page: Page, width: number): Promise<void> {
  await expect.poll(() => overflowOf(page, width), { timeout: 5_000 }).toEqual([]);
}
