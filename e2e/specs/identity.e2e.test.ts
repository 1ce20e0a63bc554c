/**
 * Issue acceptance: the first ADMIN signs in, creates a VIEWER, the VIEWER's
 * register-password e-mail arrives over SMTP, the VIEWER sets a password
 * through the link and signs in, the ADMIN disables the VIEWER, and the
 * VIEWER's open session stops working.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLink } from '../../apps/server/test/identity';
import { startSmtpServer } from '../../apps/server/test/smtp';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

describe('identity end to end', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      SEED_DEMO: 'false',
      ADMIN_FEDERATIVE_UNIT: 'DF',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  it('ADMIN creates a VIEWER who sets a password by e-mail link, signs in, and is cut off when disabled', async () => {
    const viewer = {
      name: 'Valéria Examinadora',
      email: 'valeria@detran.df.gov.br',
      cpf: '52998224725',
    };
    const newPassword = 'Girassol#Azul-2026';

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const admin = await adminContext.newPage();
    const adminErrors = watchPageErrors(admin);
    await signIn(admin, server.baseUrl, ADMIN.email, ADMIN.password);
    await admin
      .locator('nav')
      .getByRole('link', { name: /Novo usuário/ })
      .click();
    await admin.getByRole('textbox', { name: 'Nome completo' }).fill(viewer.name);
    await admin.getByRole('textbox', { name: 'E-mail' }).fill(viewer.email);
    await admin.getByRole('textbox', { name: 'CPF' }).pressSequentially(viewer.cpf);
    expect(await admin.getByRole('textbox', { name: 'CPF' }).inputValue()).toBe('529.982.247-25');
    await admin.getByPlaceholder('Selecione o perfil').click();
    await admin.getByRole('option', { name: 'Examinador' }).click();
    await screenshot(admin, 'create-user-filled');
    await admin.getByRole('button', { name: 'Criar usuário' }).click();
    await admin.waitForURL('**/list-users');
    await admin.getByRole('cell', { name: viewer.email }).waitFor();
    await admin.getByText('Senha pendente').waitFor();

    const mail = await smtp.waitFor(viewer.email);
    expect(mail.raw).toMatch(/Subject: Cadastre sua senha de acesso/);
    const link = extractLink(mail.text);
    expect(link?.path).toBe(`/register-password/${viewer.cpf}`);

    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await viewerContext.newPage();
    const viewerErrors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}${link?.path}#token=${link?.token}`);
    await page.getByRole('heading', { name: 'Cadastrar senha' }).waitFor();
    const save = page.getByRole('button', { name: 'Salvar senha' });
    await page.getByRole('textbox', { name: 'Nova senha', exact: true }).fill('123456');
    await page.locator('[data-met="false"]', { hasText: 'Não ser uma senha comum' }).waitFor();
    expect(await save.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Nova senha', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'Confirme a nova senha' }).fill(newPassword);
    await page.locator('[data-met="true"]', { hasText: 'Não ser uma senha comum' }).waitFor();
    await screenshot(page, 'register-password');
    await save.click();
    await page.getByText('Senha cadastrada com sucesso').waitFor();
    await page.getByRole('link', { name: 'Ir para o login' }).click();
    await signIn(page, server.baseUrl, viewer.email, newPassword);
    await page.getByRole('heading', { name: /Olá, Valéria/ }).waitFor();
    const viewerToken = await page.evaluate(
      () => JSON.parse(localStorage.getItem('EP_ADMIN_USER') ?? '{}').token,
    );
    const before = await fetch(`${server.baseUrl}/api/Auth/me`, {
      headers: { authorization: `Bearer ${viewerToken}` },
    });
    expect(before.status).toBe(200);

    await admin.reload();
    await admin.getByRole('textbox', { name: 'Buscar usuários' }).fill('valeria');
    const row = admin.getByRole('row', { name: new RegExp(viewer.email) });
    await row.getByRole('button', { name: 'Desabilitar' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('Desabilitar usuário').waitFor();
    await screenshot(admin, 'disable-confirmation');
    await dialog.getByRole('button', { name: 'Desabilitar' }).click();
    await row.getByText('Desabilitado').waitFor();

    const after = await fetch(`${server.baseUrl}/api/Auth/me`, {
      headers: { authorization: `Bearer ${viewerToken}` },
    });
    expect(after.status).toBe(401);
    // The VIEWER's open page finds the session gone and goes back to login.
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('EP_ADMIN_USER'))).toBeNull();

    expect(adminErrors).toEqual([]);
    expect(viewerErrors).toEqual([]);
    await adminContext.close();
    await viewerContext.close();
  });
});
