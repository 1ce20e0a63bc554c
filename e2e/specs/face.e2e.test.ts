/**
 * Issue acceptance: with the fake camera fed from a fixture photo, capture,
 * confirm, success modal; then a different person's clip: failure modal and
 * 'Tentar novamente'. Outside DF the notice is shown and nothing runs.
 */
import fs from 'node:fs';
import { FACE_CAPTURE_BURST_PICTURES } from '@exame/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpfFromBase } from '../../apps/server/src/db/seed/first-start';
import { faceFixturesDir, hasFaceFixtures } from '../../apps/server/test/faces/fixtures';
import { ADMIN, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { cameraArgs, fakeCameraClip, hasFfmpeg } from '../support/fake-camera';
import { enrolFaces } from '../support/faces';
import { startServer, type RunningServer } from '../support/server';

const skipReason = !hasFaceFixtures('dev')
  ? `SKIPPED: face fixtures not found at ${faceFixturesDir()}/dev`
  : !hasFfmpeg()
    ? 'SKIPPED: ffmpeg is needed to make the fake camera clip (apt-get install ffmpeg)'
    : '';
if (skipReason) console.warn(`face e2e ${skipReason}`);

/** The seeded ADMIN of DF (see db/seed/first-start.ts); same password as the first ADMIN. */
const DF_ADMIN = { email: 'admin.df@demo.exame.local', cpf: cpfFromBase('100200304') };

describe.skipIf(Boolean(skipReason))(`facial validation in Chromium ${skipReason}`.trim(), () => {
  let server: RunningServer;
  const browsers: Browser[] = [];
  const clips: string[] = [];

  beforeAll(async () => {
    server = await startServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'true',
    });
    // Enrol the DF admin's face from another capture of the same person (p01).
    await enrolFaces(server.baseUrl, { email: DF_ADMIN.email, password: ADMIN.password }, [
      [DF_ADMIN.cpf, 'p01-1.jpg'],
    ]);
  }, 180_000);
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await server?.stop();
    for (const clip of clips) fs.rmSync(clip, { force: true });
  });

  async function openValidation(
    fixture: string,
  ): Promise<{ page: Page; bodies: Array<Record<string, unknown>> }> {
    const clip = await fakeCameraClip(fixture);
    clips.push(clip);
    const browser = await launchBrowser(cameraArgs(clip));
    browsers.push(browser);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const bodies: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/BiopassID/Verify'))
        bodies.push(request.postDataJSON() as Record<string, unknown>);
    });
    await signIn(page, server.baseUrl, DF_ADMIN.email, ADMIN.password);
    await page.goto(`${server.baseUrl}/demo-biometry/${DF_ADMIN.cpf}`);
    await page.getByText(/Rosto cadastrado em/).waitFor();
    await page.getByRole('button', { name: 'Validar rosto' }).click();
    const modal = page.getByTestId('facial-validation');
    await modal.waitFor();
    const capture = modal.getByRole('button', { name: 'Capturar' });
    await expect.poll(() => capture.isEnabled(), { timeout: 20_000 }).toBe(true);
    // Let the clip play a little so the burst sees the face move.
    await page.waitForTimeout(600);
    await screenshot(page, `facial-validation-preview-${fixture.replace('.jpg', '')}`);
    await capture.click();
    await modal.getByRole('button', { name: 'Descartar' }).waitFor();
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    return { page, bodies };
  }

  it('the same person: capture, confirm, success', async () => {
    const { page, bodies } = await openValidation('p01-2.jpg');
    const errors = watchPageErrors(page);
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Sucesso na validação').waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain('Sua validação biométrica foi concluída.');
    await screenshot(page, 'facial-validation-success');
    // A real JPEG, without the data-URL prefix, then the other frames of the
    // burst: each picture sent once, `image` never repeated in `frames`.
    const body = bodies[0] ?? {};
    expect(String(body.image).startsWith('/9j/')).toBe(true);
    const frames = body.frames as string[];
    expect(frames).toHaveLength(FACE_CAPTURE_BURST_PICTURES - 1);
    expect(frames.every((frame) => frame.startsWith('/9j/'))).toBe(true);
    expect(frames).not.toContain(body.image);
    expect(body).toMatchObject({ cpf: DF_ADMIN.cpf, uf: 'DF' });
    await alert.getByRole('button', { name: 'OK' }).click();
    expect(errors).toEqual([]);
  });

  it("another person's clip: failure, then 'Tentar novamente' resets the photo", async () => {
    const { page } = await openValidation('p03-1.jpg');
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Falha na validação').waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain(
      'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    );
    await alert.getByRole('button', { name: 'Cancelar' }).waitFor();
    await screenshot(page, 'facial-validation-failure');
    await alert.getByRole('button', { name: 'Tentar novamente' }).click();
    const modal = page.getByTestId('facial-validation');
    await modal.getByRole('button', { name: 'Capturar' }).waitFor();
    expect(await modal.getByRole('button', { name: 'Confirmar' }).count()).toBe(0);
  });

  it('outside DF the validation is not run: notice only', async () => {
    const browser = await launchBrowser();
    browsers.push(browser);
    const page = await browser.newPage();
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await page.goto(`${server.baseUrl}/demo-biometry/${cpfFromBase('100200300')}`);
    await page.getByRole('button', { name: 'Validar rosto' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Aviso').waitFor();
    expect(await alert.textContent()).toContain(
      'A validação facial está disponível apenas para o Distrito Federal',
    );
    expect(await page.getByTestId('facial-validation').count()).toBe(0);
  });
});
