/**
 * Issue acceptance, in Chromium: the ADMIN, whose role requires a second
 * factor (MFA_REQUIRED_ROLES=ADMIN, production's default), enrols an
 * authenticator app at the first sign-in, keeps the recovery codes, and signs
 * in with the app's code the next time; an auditor adds a passkey on
 * "Segurança da conta" (Chromium's virtual authenticator) and signs in with
 * it. Each screen is checked with axe and at a phone's width.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../apps/server/src/lib/totp';
import { apiOf } from '../support/api';
import { ADMIN, ADMIN_ENV } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { expectFitsWidth, screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { freePort, useServer } from '../support/server';

const AUDITOR = { email: 'auditor@demo.exame.local', password: ADMIN.password };
const INSPECTOR = { email: 'fiscal@demo.exame.local', password: ADMIN.password };
const port = await freePort();
/** Passkeys need a host name (localhost), not an address: the relying party is PUBLIC_APP_URL's host. */
const baseUrl = `http://localhost:${port}`;

async function passwordSignIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(who.email);
  await page.getByRole('textbox', { name: 'Senha' }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

describe('second factor in Chromium', () => {
  const server = useServer({
    ...ADMIN_ENV,
    PORT: String(port),
    PUBLIC_APP_URL: baseUrl,
    MFA_REQUIRED_ROLES: 'ADMIN',
  });
  const browser = useBrowser();
  const api = apiOf(() => server.baseUrl);

  it('the ADMIN enrols an authenticator app at the first sign-in, keeps the codes, and signs in with a code next time', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchPageErrors(page);
    await passwordSignIn(page, ADMIN);
    const enrolment = page.getByTestId('second-factor-enrolment');
    await enrolment
      .getByRole('heading', { name: 'Cadastre a verificação em duas etapas' })
      .waitFor();
    expect(await seriousViolations(page, 'cadastro do segundo fator')).toEqual([]);
    await screenshot(page, 'mfa-enrolment');
    await enrolment.getByRole('button', { name: /Aplicativo autenticador/ }).click();
    await page.getByTestId('totp-qr').waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await seriousViolations(page, 'aplicativo autenticador')).toEqual([]);
    await screenshot(page, 'mfa-enrolment-totp');

    // A wrong first code is refused in pt-BR; the right one enrols.
    const code = page.getByRole('textbox', { name: 'Código do aplicativo autenticador' });
    await code.fill('000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await expect
      .poll(() => page.getByTestId('totp-confirm-error').textContent())
      .toContain('Código incorreto');
    await code.fill(totpCode(secret, new Date()));
    await page.getByRole('textbox', { name: 'Nome do dispositivo' }).fill('Celular da coordenação');
    await page.getByRole('button', { name: 'Confirmar' }).click();

    const codesPanel = page.getByTestId('recovery-codes');
    await codesPanel.getByRole('heading', { name: 'Guarde os códigos de recuperação' }).waitFor();
    const codes = await codesPanel.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    const proceed = codesPanel.getByRole('button', { name: 'Continuar' });
    expect(await proceed.isDisabled()).toBe(true);
    expect(await seriousViolations(page, 'códigos de recuperação')).toEqual([]);
    await screenshot(page, 'mfa-recovery-codes');
    await codesPanel.getByRole('checkbox', { name: 'Guardei os códigos em lugar seguro' }).check();
    await proceed.click();
    await page.waitForURL('**/home');
    expect(errors).toEqual([]);
    await page.close();

    // The next sign-in, on a phone: the password, then the app's code (a later one: a code works once).
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const phoneErrors = watchPageErrors(phone);
    await passwordSignIn(phone, ADMIN);
    const step = phone.getByTestId('second-factor-step');
    await step.getByRole('heading', { name: 'Verificação em duas etapas' }).waitFor();
    await expectFitsWidth(phone, 390);
    expect(await seriousViolations(phone, 'verificação em duas etapas')).toEqual([]);
    await screenshot(phone, 'mfa-step-390');
    const stepCode = step.getByRole('textbox', { name: 'Código do aplicativo autenticador' });
    await stepCode.fill('123456');
    await phone.keyboard.press('Enter');
    await expect
      .poll(() => phone.getByTestId('second-factor-error').textContent())
      .toContain('Código incorreto');
    await stepCode.fill(totpCode(secret, new Date(Date.now() + 30_000)));
    await phone.keyboard.press('Enter');
    await phone.waitForURL('**/home');

    // "Segurança da conta" lists the app, and says the role requires it.
    await phone.goto(`${baseUrl}/seguranca`);
    await phone.getByText('Celular da coordenação').waitFor();
    expect(await phone.title()).toContain('Segurança da conta');
    await phone.getByText('Obrigatória para o seu perfil').waitFor();
    await expectFitsWidth(phone, 390);
    expect(await seriousViolations(phone, 'segurança da conta')).toEqual([]);
    await screenshot(phone, 'mfa-security-390');
    // The room inspector of the demonstration has an app and lost it: the ADMIN resets it from the list.
    const inspector = await api.tokenOf(INSPECTOR);
    const setup = await api.call(inspector, 'POST', '/api/Auth/factors/totp');
    const { secret: inspectorSecret } = setup.body as { secret: string };
    const added = await api.call(inspector, 'POST', '/api/Auth/factors', {
      method: 'totp',
      code: totpCode(inspectorSecret, new Date()),
    });
    expect(added.status).toBe(201);
    await phone.goto(`${baseUrl}/list-users`);
    const reset = phone.getByRole('button', { name: 'Redefinir 2º fator' });
    // Only the user with a factor offers it.
    await expect.poll(() => reset.count()).toBe(1);
    await expectFitsWidth(phone, 390);
    await reset.click();
    const confirm = phone.getByRole('dialog');
    await confirm.getByText('Redefinir segundo fator').waitFor();
    expect(await seriousViolations(phone, 'redefinir segundo fator')).toEqual([]);
    await screenshot(phone, 'mfa-reset-confirm-390');
    await confirm.getByRole('button', { name: 'Redefinir' }).click();
    await phone.getByText(/O segundo fator de .* foi redefinido/).waitFor();
    await expect.poll(() => reset.count()).toBe(0);
    expect(phoneErrors).toEqual([]);
    await phone.close();
  }, 180_000);

  it('an auditor adds a passkey on "Segurança da conta" and signs in with it', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors = watchPageErrors(page);
    // Chromium's virtual authenticator: a platform passkey that verifies the user by itself.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await passwordSignIn(page, AUDITOR);
    await page.waitForURL('**/home');
    await page.goto(`${baseUrl}/seguranca`);
    await page.getByText('Nenhum segundo fator cadastrado').waitFor();
    await page.getByRole('button', { name: 'Adicionar chave de acesso' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar chave de acesso' });
    await dialog.getByRole('textbox', { name: 'Nome do dispositivo' }).fill('Notebook do posto');
    expect(await seriousViolations(page, 'adicionar chave de acesso')).toEqual([]);
    await dialog.getByRole('button', { name: 'Criar chave de acesso' }).click();
    // The first factor comes with the recovery codes.
    await dialog.getByRole('heading', { name: 'Guarde os códigos de recuperação' }).waitFor();
    await dialog.getByRole('checkbox', { name: 'Guardei os códigos em lugar seguro' }).check();
    await dialog.getByRole('button', { name: 'Concluir' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('second-factors').getByText('Notebook do posto').waitFor();
    await screenshot(page, 'mfa-security-passkey');
    expect(await seriousViolations(page, 'segurança da conta com chave')).toEqual([]);

    // Out, and in again: the password, then the passkey.
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/login*');
    await passwordSignIn(page, AUDITOR);
    const step = page.getByTestId('second-factor-step');
    await step.getByRole('button', { name: 'Usar chave de acesso' }).waitFor();
    await screenshot(page, 'mfa-step-passkey');
    await step.getByRole('button', { name: 'Usar chave de acesso' }).click();
    // Back where the session ended, signed in.
    await page.waitForURL('**/seguranca');
    await page.getByTestId('second-factors').getByText('Notebook do posto').waitFor();
    // The page fits a tablet and a phone too.
    for (const width of [768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectFitsWidth(page, width);
      await screenshot(page, `mfa-security-passkey-${width}`);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
