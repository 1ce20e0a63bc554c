/**
 * Issue acceptance: with the fake camera playing a fixture photo's head
 * turning as the challenge asks, the guided take, confirm,
 * success modal, and the body sent: the challenge's id and its pictures in
 * order; then a different person's turning head: the refusal stays in the
 * modal, and 'Tentar novamente' asks for a new challenge. Outside DF the
 * notice is shown and nothing runs.
 */
import type { FaceChallenge } from '@exame/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpfFromBase } from '../../apps/server/src/db/seed/first-start';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import { cameraArgs, fakeCameraSkipReason, useCameraClips } from '../support/fake-camera';
import { enrolFaces, takeFace, watchFaceModel } from '../support/faces';
import { useServer } from '../support/server';

const skipReason = fakeCameraSkipReason('face');

/** The seeded ADMIN of DF (see db/seed/first-start.ts); same password as the first ADMIN. */
const DF_ADMIN = { email: 'admin.df@demo.exame.local', cpf: cpfFromBase('100200304') };

describe.skipIf(Boolean(skipReason))(`facial validation in Chromium ${skipReason}`.trim(), () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true' });
  const browsers: Browser[] = [];
  const clips = useCameraClips();

  beforeAll(async () => {
    // Enrol the DF admin's face from another capture of the same person (p01).
    await enrolFaces(server.baseUrl, { email: DF_ADMIN.email, password: ADMIN.password }, [
      [DF_ADMIN.cpf, 'p01-1.jpg'],
    ]);
  }, 180_000);
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
  });

  type Sent = {
    challenges: FaceChallenge[];
    bodies: Array<Record<string, unknown>>;
  };

  /** Signs in, opens the validation of the admin's own CPF and takes the face, up to the review. */
  async function openValidation(fixture: string): Promise<{ page: Page; sent: Sent }> {
    const clip = await clips.turning(fixture);
    const browser = await launchBrowser(cameraArgs(clip));
    browsers.push(browser);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watchFaceModel(page);
    const sent: Sent = { challenges: [], bodies: [] };
    page.on('request', (request) => {
      if (request.url().endsWith('/api/BiopassID/Verify'))
        sent.bodies.push(request.postDataJSON() as Record<string, unknown>);
    });
    page.on('response', async (response) => {
      if (response.url().endsWith('/api/BiopassID/Challenge') && response.status() === 201)
        sent.challenges.push((await response.json()) as FaceChallenge);
    });
    await signIn(page, server.baseUrl, DF_ADMIN.email, ADMIN.password);
    await page.goto(`${server.baseUrl}/demo-biometry/${DF_ADMIN.cpf}`);
    await page.getByText(/Rosto cadastrado em/).waitFor();
    await page.getByRole('button', { name: 'Validar rosto' }).click();
    const modal = page.getByTestId('facial-validation');
    // The modal's chunk and the camera start with it: slower than a screen when both cores are busy.
    await modal.getByRole('button', { name: 'Iniciar captura' }).waitFor({ timeout: 60_000 });
    await screenshot(page, `facial-validation-start-${fixture.replace('.jpg', '')}`);
    await takeFace(page, clip);
    await modal.getByRole('button', { name: 'Descartar' }).waitFor();
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    return { page, sent };
  }

  it('the same person: the guided take, confirm, success', async () => {
    const { page, sent } = await openValidation('p01-7.jpg');
    const errors = watchPageErrors(page);
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Sucesso na validação').waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toContain('Sua validação biométrica foi concluída.');
    await screenshot(page, 'facial-validation-success');
    // The challenge's id; a real JPEG without the data-URL prefix, then the
    // other pictures of the take in order, each sent once (`image` is not
    // repeated in `frames`: one picture per step and the return). Their bytes
    // are not compared: the clip loops, so the return may be the very frame
    // the take began with.
    expect(sent.challenges).toHaveLength(1);
    const challenge = sent.challenges[0]!;
    const body = sent.bodies[0] ?? {};
    expect(body.challengeId).toBe(challenge.challengeId);
    expect(String(body.image).startsWith('/9j/')).toBe(true);
    const frames = body.frames as string[];
    expect(frames).toHaveLength(challenge.pictures - 1);
    expect(frames.every((frame) => frame.startsWith('/9j/'))).toBe(true);
    expect(body).toMatchObject({ cpf: DF_ADMIN.cpf, uf: 'DF' });
    await alert.getByRole('button', { name: 'OK' }).click();
    expect(errors).toEqual([]);
  }, 240_000);

  it("another person's head: the refusal stays in the modal, then 'Tentar novamente' asks for a new challenge", async () => {
    const { page, sent } = await openValidation('p07-1.jpg');
    const modal = page.getByTestId('facial-validation');
    const refusal = modal.getByTestId('face-refusal');
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.textContent()).toContain('Falha na validação');
    expect(await refusal.textContent()).toContain(
      'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    );
    await modal.getByRole('button', { name: 'Cancelar' }).waitFor();
    await screenshot(page, 'facial-validation-failure');
    expect(await page.getByTestId('alert-modal').count()).toBe(0);
    await modal.getByRole('button', { name: 'Tentar novamente' }).click();
    // A new take of a new challenge: guided again, no picture to confirm yet.
    await expect.poll(() => sent.challenges.length, { timeout: 30_000 }).toBe(2);
    expect(sent.challenges[1]!.challengeId).not.toBe(sent.challenges[0]!.challengeId);
    await modal.getByRole('button', { name: 'Interromper' }).waitFor();
    expect(await modal.getByRole('button', { name: 'Confirmar' }).count()).toBe(0);
    expect(await refusal.count()).toBe(0);
  }, 240_000);

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
