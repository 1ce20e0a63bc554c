/**
 * Issue acceptance, in Chromium: the ADMIN registers the unit's identity
 * provider (a real OpenID Connect provider started here, `oidc-provider`) on
 * its screen; the provider's button on the sign-in screen signs the ADMIN in
 * through the provider; a sensitive action (reopening a decision) asks
 * for the password again once the last proof is older than the window
 * (REAUTH_WINDOW_SECONDS below), then goes through; and the proof can come
 * from the provider, which sends the browser back to the page it left.
 */
import { dayInZone } from '@exame/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '../../apps/server/test/oidc-provider';
import { apiOf, RELEASE_AT_ONCE_ENV } from '../support/api';
import { ADMIN, ADMIN_ENV, signedInPage } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { expectFitsWidth, screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { freePort, useServer } from '../support/server';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
/**
 * How long a sign-in or confirmation counts for sensitive actions here: long
 * enough that a busy machine repeats an action inside the window a
 * confirmation opens; the specs wait past it where they need an old proof.
 */
const REAUTH_WINDOW_SECONDS = 8;

/** Waits until the last proof is older than the window. */
function pastTheWindow(page: Page): Promise<void> {
  return page.waitForTimeout(REAUTH_WINDOW_SECONDS * 1000 + 500);
}

describe('single sign-on and re-authentication in Chromium', () => {
  let idp: TestOidcProvider;
  beforeAll(async () => {
    idp = await startTestOidcProvider({ redirectUri: `${baseUrl}/api/Auth/sso/callback` });
  });
  afterAll(async () => {
    await idp?.close();
  });
  const server = useServer({
    ...ADMIN_ENV,
    ...RELEASE_AT_ONCE_ENV,
    PORT: String(port),
    PUBLIC_APP_URL: baseUrl,
    SSO_ALLOW_HTTP: 'true',
    REAUTH_WINDOW_SECONDS: String(REAUTH_WINDOW_SECONDS),
  });
  const browser = useBrowser();
  const api = apiOf(() => server.baseUrl);

  it('the ADMIN registers the provider, then signs in through it from the sign-in screen', async () => {
    const { page, errors } = await signedInPage(browser, server.baseUrl, {
      width: 1366,
      height: 900,
    });
    await page.goto(`${server.baseUrl}/provedores-de-identidade`);
    await page.getByText('Nenhum provedor cadastrado').waitFor();
    expect(await page.title()).toContain('Provedores de identidade');
    await page.getByRole('button', { name: 'Novo provedor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo provedor de identidade' });
    await dialog.getByRole('textbox', { name: /Nome no botão/ }).fill('Provedor do Estado');
    await dialog.getByRole('textbox', { name: /Emissor/ }).fill(idp.issuer);
    await dialog.getByRole('textbox', { name: /Client id/ }).fill(idp.clientId);
    await dialog.getByLabel(/Client secret/).fill(idp.clientSecret);
    await dialog.getByRole('textbox', { name: /Atributo com o CPF/ }).fill('cpf');
    expect(await seriousViolations(page, 'provedores: novo')).toEqual([]);
    // Saving a provider is a sensitive action: once the sign-in's proof is
    // older than the window, it asks for the password and then saves. Waiting
    // past the window makes the path the same on a quiet machine and a busy one.
    await pastTheWindow(page);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirme a sua identidade' });
    await confirm.getByRole('textbox', { name: 'Senha' }).fill(ADMIN.password);
    await confirm.getByRole('button', { name: 'Confirmar', exact: true }).click();
    const card = page.getByRole('list', { name: 'Provedores de identidade' });
    await card.getByText('Provedor do Estado').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => card.textContent()).toContain(`${baseUrl}/api/Auth/sso/callback`);
    await screenshot(page, 'sso-providers');
    expect(await seriousViolations(page, 'provedores de identidade')).toEqual([]);
    // The screen fits a phone and a tablet without sideways scrolling.
    for (const width of [390, 768]) {
      const narrow = await signedInPage(browser, server.baseUrl, { width, height: 900 });
      await narrow.page.goto(`${server.baseUrl}/provedores-de-identidade`);
      await narrow.page
        .getByRole('list', { name: 'Provedores de identidade' })
        .getByText('Provedor do Estado')
        .waitFor();
      await expectFitsWidth(narrow.page, width);
      await screenshot(narrow.page, `sso-providers-${width}`);
      expect(narrow.errors).toEqual([]);
      await narrow.page.close();
    }

    // The provider knows the ADMIN by CPF.
    const token = await api.tokenOf(ADMIN);
    const me = (await api.call(token, 'GET', '/api/Auth/me')).body as { cpf: string };
    idp.accounts.set('admin-no-provedor', { cpf: me.cpf, name: 'Administração' });
    idp.signInAs('admin-no-provedor');

    expect(errors).toEqual([]);
    await page.close();

    // Another browser, not signed in: the sign-in screen of the unit.
    const login = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const loginErrors = watchPageErrors(login);
    await login.goto(`${server.baseUrl}/login`);
    await login.getByRole('combobox', { name: 'Unidade federativa' }).click();
    await login.getByRole('option', { name: /DEMO/ }).click();
    const button = login.getByRole('link', { name: 'Entrar com Provedor do Estado' });
    await button.waitFor();
    await screenshot(login, 'sso-login');
    expect(await seriousViolations(login, 'login com provedor')).toEqual([]);
    await button.click();
    await login.waitForURL('**/home');
    expect(new URL(login.url()).hash).toBe('');
    expect(await login.evaluate(() => localStorage.getItem('EP_ADMIN_USER'))).toContain(
      ADMIN.email,
    );
    expect(loginErrors).toEqual([]);
    await login.close();
  }, 180_000);

  it('a refused provider sign-in is said in pt-BR on the sign-in screen', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    idp.accounts.set('desconhecido', { email: 'ninguem@exemplo.gov.br', email_verified: true });
    idp.signInAs('desconhecido');
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('combobox', { name: 'Unidade federativa' }).click();
    await page.getByRole('option', { name: /DEMO/ }).click();
    await page.getByRole('link', { name: 'Entrar com Provedor do Estado' }).click();
    await page.waitForURL('**/login*');
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toContain('não corresponde a nenhum usuário desta unidade');
    await expectFitsWidth(page, 390);
    await screenshot(page, 'sso-refused-390');
    await page.close();
  });

  it('reopening a decision asks for the password again once the proof is old, then goes through', async () => {
    const admin = await api.tokenOf(ADMIN);
    const day = dayInZone(new Date());
    const audited = await api.releasedExam(
      admin,
      'e2e reautenticação',
      AUDITOR,
      {
        schedulingId: `E2E-REAUTH-${Date.now()}`,
        candidate: { name: 'Candidata Reaberta', cpf: '529.982.247-25' },
        score: 80,
        station: 'Estação 21',
      },
      day,
    );
    const { page, errors } = await signedInPage(browser, server.baseUrl, {
      width: 1366,
      height: 1000,
    });
    await page.goto(`${server.baseUrl}/auditoria/${audited.examId}`);
    await page.getByRole('button', { name: 'Reabrir decisão' }).waitFor();
    await pastTheWindow(page);
    await page.getByRole('button', { name: 'Reabrir decisão' }).click();
    const reopen = page.getByRole('dialog', { name: 'Reabrir a decisão' });
    await reopen
      .getByRole('textbox', { name: 'Motivo da reabertura' })
      .fill('Recurso do candidato deferido pela comissão.');
    await reopen.getByRole('button', { name: 'Reabrir' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirme a sua identidade' });
    await confirm.waitFor();
    expect(await confirm.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(ADMIN.email);
    expect(await seriousViolations(page, 'confirme a sua identidade')).toEqual([]);
    await screenshot(page, 'reauth-dialog');
    await confirm.getByRole('textbox', { name: 'Senha' }).fill('Senha#Errada-2026');
    await confirm.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await expect.poll(() => confirm.getByRole('alert').textContent()).toContain('incorretos');
    await confirm.getByRole('textbox', { name: 'Senha' }).fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('decision-panel').textContent())
      .toContain('Reaberta por');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('one who signs in through the provider confirms through it, and comes back to the page to do it again', async () => {
    const { page, errors } = await signedInPage(browser, server.baseUrl, {
      width: 1366,
      height: 900,
    });
    await page.goto(`${server.baseUrl}/list-users`);
    await page.getByRole('textbox', { name: 'Buscar usuários' }).fill('auditor@demo');
    const row = page.getByRole('row', { name: new RegExp(AUDITOR.email) });
    await row.waitFor();
    const disable = async () => {
      await row.getByRole('button', { name: 'Desabilitar' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Desabilitar' }).click();
    };
    await pastTheWindow(page);
    await disable();
    const confirm = page.getByRole('dialog', { name: 'Confirme a sua identidade' });
    // The provider of the first test knows this ADMIN (linked by CPF) and signs them in again.
    idp.signInAs('admin-no-provedor');
    await confirm.getByRole('button', { name: 'Confirmar com Provedor do Estado' }).click();
    await page.waitForURL('**/list-users');
    await page.getByText('Identidade confirmada. Repita a ação para concluí-la.').waitFor();
    await page.getByRole('textbox', { name: 'Buscar usuários' }).fill('auditor@demo');
    await disable();
    await row.getByText('Desabilitado').waitFor();
    expect(await page.getByRole('dialog', { name: 'Confirme a sua identidade' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
    // The auditor of the demonstration comes back for whatever runs next.
    const admin = await api.tokenOf(ADMIN);
    const users = await api.call(
      admin,
      'GET',
      `/api/User?search=${encodeURIComponent(AUDITOR.email)}`,
    );
    const auditor = (users.body as { items: Array<{ id: string; email: string }> }).items.find(
      (user) => user.email === AUDITOR.email,
    );
    await api.call(admin, 'PUT', `/api/User/${auditor?.id}/enableDisable`, {
      registerStatus: 'enabled',
    });
  }, 180_000);
});
