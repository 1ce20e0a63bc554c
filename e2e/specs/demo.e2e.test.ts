/**
 * Issue acceptance, in Chromium with the fake camera fed from a fixture
 * photo: the DEMO ADMIN registers a demonstration candidate (CPF
 * validation), records the contact and the explicit biometric consent,
 * enrols the face with a live take from the camera, and verifies a second
 * take on the demo finished screen, which shows the score and the liveness
 * checks; then wipes the demo data. Each take answers the server's challenge
 *: the camera plays the photo's head turning (fake-camera.ts).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { screenshot, useBrowser, watchPageErrors } from '../support/browser';
import {
  cameraArgs,
  fakeCameraSkipReason,
  useCameraClips,
  type CameraClip,
} from '../support/fake-camera';
import { takeFace, watchFaceModel } from '../support/faces';
import { useServer } from '../support/server';

const skipReason = fakeCameraSkipReason('demo');

const CANDIDATE_CPF = '52998224725';

describe.skipIf(Boolean(skipReason))(`demonstration flow in Chromium ${skipReason}`.trim(), () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true', FACE_ANALYSIS_SWEEP_SECONDS: '0' });
  const clips = useCameraClips();
  // The enrolment sees one photo of the person (one the enrolment gate accepts);
  // the verification, another one.
  let enrolment: CameraClip;
  let verification: CameraClip;
  beforeAll(async () => {
    enrolment = await clips.turning('p01-1.jpg');
    verification = await clips.turning('p01-7.jpg');
  }, 240_000);
  const browser = useBrowser(() => cameraArgs(enrolment));
  const second = useBrowser(() => cameraArgs(verification));

  /**
   * The guided take in the open modal, confirmed. The camera plays a photo
   * turned in 3D, which the liveness check refuses now and then, as it
   * refuses some real takes: the person then closes it and opens the take
   * again (`open`), with a new challenge (at most five takes: a loaded machine
   * grabs the frames later, and more takes are refused).
   */
  async function captureFace(page: Page, clip: CameraClip, open: () => Promise<void>) {
    for (let attempt = 1; ; attempt++) {
      await open();
      const modal = await takeFace(page, clip);
      await modal.getByRole('button', { name: 'Descartar' }).waitFor();
      await modal.getByRole('button', { name: 'Confirmar' }).click();
      const again = modal.getByRole('button', { name: 'Tentar novamente' });
      const outcome = await Promise.race([
        modal.waitFor({ state: 'hidden', timeout: 60_000 }).then(() => 'done' as const),
        again.waitFor({ timeout: 60_000 }).then(() => 'refused' as const),
      ]).catch(() => 'done' as const);
      if (outcome === 'done' || attempt >= 5) return;
      console.warn(`demo: captura recusada, nova tentativa: ${await modal.innerText()}`);
      await modal.getByRole('button', { name: 'Cancelar' }).click();
      await modal.waitFor({ state: 'detached' });
    }
  }

  it('registers, records the consent, enrols, verifies and wipes', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    watchFaceModel(page);
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);

    // Step 1: candidate data, with CPF validation.
    await page.goto(`${server.baseUrl}/demo-register/`);
    await page.getByRole('textbox', { name: 'Nome completo' }).fill('Clara Demonstração Souza');
    await page.getByRole('textbox', { name: 'CPF' }).fill('111.111.111-11');
    await page.getByRole('textbox', { name: 'Data de nascimento' }).fill('14/03/1990');
    await page.getByRole('button', { name: 'Cadastrar e continuar' }).click();
    await page.getByText('CPF inválido.').waitFor();
    await page.getByRole('textbox', { name: 'CPF' }).fill(CANDIDATE_CPF);
    await screenshot(page, 'demo-register');
    expect(await seriousViolations(page, 'cadastro de demonstração')).toEqual([]);
    await page.getByRole('button', { name: 'Cadastrar e continuar' }).click();

    // Step 2: contact and the explicit consent (LGPD Art. 11).
    await page.waitForURL(`**/demo-register2/?cpf=${CANDIDATE_CPF}`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill('clara@exemplo.com.br');
    await page.getByRole('textbox', { name: 'Telefone com DDD' }).fill('61999991234');
    await page.getByRole('button', { name: 'Registrar e continuar' }).click();
    await page.getByText(/consentimento explícito é necessário/).waitFor();
    await page
      .getByRole('checkbox', { name: /Li e concordo com o tratamento dos meus dados biométricos/ })
      .check();
    await screenshot(page, 'demo-register2');
    expect(await seriousViolations(page, 'contato e consentimento')).toEqual([]);
    await page.getByRole('button', { name: 'Registrar e continuar' }).click();

    // Step 3: the face enrolled from the camera.
    await page.waitForURL(`**/demo-biometry/${CANDIDATE_CPF}`);
    await captureFace(page, enrolment, () =>
      page.getByRole('button', { name: 'Cadastrar rosto' }).click(),
    );
    const next = page.getByRole('link', { name: 'Continuar' });
    await next.waitFor({ timeout: 30_000 });
    await screenshot(page, 'demo-biometry');
    await next.click();
    await page.waitForURL(`**/demo-finished/?cpf=${CANDIDATE_CPF}`);

    // Step 4, on another camera showing another photo of the same person: a second
    // take verified against the enrolment, with the score and the liveness checks.
    const other = await second.newPage({ viewport: { width: 1280, height: 1000 } });
    watchFaceModel(other);
    const otherErrors = watchPageErrors(other);
    await signIn(other, server.baseUrl, ADMIN.email, ADMIN.password);
    await other.goto(`${server.baseUrl}/demo-finished/?cpf=${CANDIDATE_CPF}`);
    await captureFace(other, verification, () =>
      other.getByRole('button', { name: 'Verificar rosto' }).click(),
    );
    const result = other.getByTestId('demo-verification-result');
    await result.waitFor({ timeout: 30_000 });
    // The capture modal closes: its fade-out ends before the picture.
    await other.getByTestId('facial-validation').waitFor({ state: 'detached' });
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('Verificado');
    expect(text).toMatch(/0,\d{2}/);
    const checks = (await other.getByTestId('liveness-checks').textContent()) ?? '';
    for (const check of ['Mesmo rosto', 'Filmagem contínua', 'Movimentos pedidos', 'Profundidade'])
      expect(checks).toContain(check);
    await screenshot(other, 'demo-finished');
    expect(await seriousViolations(other, 'demonstração concluída')).toEqual([]);
    expect(otherErrors).toEqual([]);
    await page.reload();

    // The consent is on record with its time and version; then the demo data is wiped.
    const login = await fetch(`${server.baseUrl}/api/Auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const candidate = await fetch(`${server.baseUrl}/api/Demo/candidates/${CANDIDATE_CPF}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await candidate.json()) as {
      consent: { at: string; version: string } | null;
      enrolled: boolean;
      lastVerification: { verified: boolean } | null;
    };
    expect(body.consent?.version).toMatch(/^\d{4}-\d{2}-v\d+$/);
    expect(body.enrolled).toBe(true);
    expect(body.lastVerification?.verified).toBe(true);
    await page.getByRole('button', { name: 'Limpar dados de demonstração' }).click();
    await page.getByTestId('alert-modal').getByRole('button', { name: 'Limpar dados' }).click();
    await expect
      .poll(
        async () =>
          (
            await fetch(`${server.baseUrl}/api/Demo/candidates/${CANDIDATE_CPF}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).status,
      )
      .toBe(404);
    expect(errors).toEqual([]);
  }, 420_000);
});
