/**
 * Without SMTP the reset link reaches the operator through `npm run
 * mail:outbox`, never through the log: a person asks for a reset on the login
 * page, the operator reads the link with the command while the server runs,
 * the password page reads the token and clears it from the address bar, and
 * the new password works.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import { repoRoot, useServer } from '../support/server';

const run = promisify(execFile);

describe('mail outbox without SMTP', () => {
  const server = useServer({
    ...ADMIN_ENV,
    SEED_DEMO: 'false',
    ADMIN_FEDERATIVE_UNIT: 'DF',
    LOG_LEVEL: 'info',
  });
  const browser = useBrowser();

  it('the operator reads the reset link with npm run mail:outbox; the log never shows it', async () => {
    const page = await browser.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'E-mail ou CPF' }).fill(ADMIN.email);
    await dialog.getByRole('button', { name: 'Enviar link' }).click();
    await dialog.getByRole('status').waitFor();

    // The link request is worked off right after the answer; give it a moment, then ask.
    let output = '';
    for (let attempt = 0; attempt < 20 && !output.includes('#token='); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/cli/mail-outbox.ts'],
        {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: server.dataDir,
            PORT: String(server.port),
            LOG_LEVEL: 'silent',
          },
        },
      );
      output = stdout;
    }
    expect(output).toContain(`Para: ${ADMIN.email}`);
    expect(output).toContain('Redefinição de senha');
    const link = /(http:\/\/\S+\/reset-password\/\d{11}#token=([A-Za-z0-9_-]{43}))/.exec(output);
    expect(link).not.toBeNull();
    const token = link?.[2] ?? '';
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain('#token=');

    // The page reads the token and takes it out of the address bar.
    const address = new URL(link?.[1] ?? '');
    await page.goto(`${server.baseUrl}${address.pathname}${address.hash}`);
    await page.getByLabel(/^Nova senha/).waitFor();
    await page.waitForFunction(() => window.location.hash === '');
    expect(page.url()).not.toContain('token');
    await screenshot(page, 'reset-password-from-outbox');
    await page.getByLabel(/^Nova senha/).fill('Renovada#E2e-2026');
    await page.getByLabel(/^Confirme a nova senha/).fill('Renovada#E2e-2026');
    await page.getByRole('button', { name: 'Salvar senha' }).click();
    await page.getByText(/Senha cadastrada com sucesso/).waitFor();
    await signIn(page, server.baseUrl, ADMIN.email, 'Renovada#E2e-2026');
    expect(errors).toEqual([]);
    await page.close();
  });
});
