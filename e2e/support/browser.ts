/** Debian's Chromium driven by playwright-core; screenshots go to e2e/artifacts/. */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = path.resolve(import.meta.dirname, '../artifacts');

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium não encontrado em ${CHROMIUM_PATH} (instale o pacote Debian "chromium").`,
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
