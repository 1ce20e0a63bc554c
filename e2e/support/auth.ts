import type { Page } from 'playwright-core';
import type { Credentials } from './api';
import { watchPageErrors, type SuiteBrowser } from './browser';

export const ADMIN = { email: 'admin@e2e.exame.local', password: 'Admin#E2e-2026' };

/** The server settings that make `ADMIN` the first ADMIN (the rest of a spec's env is its own). */
export const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Senha' }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/home');
}

/** A new page at `viewport`, its errors collected, signed in as `who` (the first ADMIN unless said). */
export async function signedInPage(
  browser: SuiteBrowser,
  baseUrl: string,
  viewport: { width: number; height: number },
  who: Credentials = ADMIN,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors = watchPageErrors(page);
  await signIn(page, baseUrl, who.email, who.password);
  return { page, errors };
}
