/**
 * Issue acceptance, in Chromium with the fake camera fed from fixture photos:
 * the DF examiner enters by face, adds examiner 2 by e-mail and password (and
 * face), opens the room and closes it with both check-outs validated; a
 * wrong face at check-out keeps the record open with the reason. In a unit
 * without face validation the notice 'Aviso' comes first, examiner 2 of
 * another unit gets 'Usuário não encontrado!', and the room opens and closes
 * without faces.
 *
 * Every capture answers the server's challenge: the camera plays
 * a head turning left, right, up and down (fake-camera.ts), so the guided
 * take completes its steps by itself and passes; a still photo of the same
 * examiner times out on every step and the server refuses it, the modal
 * keeping the challenge's prompt and checklist on screen; and examiner 1
 * named by `cpfViewer`, not the signed-in user, types their own password in
 * the capture.
 *
 * One browser has one camera: the two DF examiners are enrolled with photos
 * of the same person (p01), so the clip of p01 passes for either; the wrong
 * face comes from a second browser fed another person's clip (p07).
 */
import { FACE_CHALLENGE_ERRORS, FACE_MOVE_PROMPTS } from '@exame/shared';
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cpfFromBase } from '../../apps/server/src/db/seed/first-start';
import { ADMIN, ADMIN_ENV, signIn } from '../support/auth';
import { seriousViolations } from '../support/axe';
import { launchBrowser, screenshot, watchPageErrors } from '../support/browser';
import {
  cameraArgs,
  fakeCameraSkipReason,
  useCameraClips,
  type CameraClip,
} from '../support/fake-camera';
import { enrolFaces, everyStepSeen, takeFace, watchFaceModel } from '../support/faces';
import { useServer } from '../support/server';

const skipReason = fakeCameraSkipReason('check-in');

/** The seeded accounts of db/seed/first-start.ts (same password as the first ADMIN). */
const DF_ADMIN = { email: 'admin.df@demo.exame.local' };
const DF_FIRST = { email: 'examinadora.df@demo.exame.local', cpf: cpfFromBase('100200305') };
const DF_SECOND = { email: 'fiscal.df@demo.exame.local', cpf: cpfFromBase('100200306') };
const DEMO_EXAMINER = { email: 'examinador@demo.exame.local' };
const STEP_PROMPTS = Object.values(FACE_MOVE_PROMPTS);
const CHALLENGE_REFUSALS = Object.values(FACE_CHALLENGE_ERRORS).map((error) => error.message);

describe.skipIf(Boolean(skipReason))(`examiner check-in in Chromium ${skipReason}`.trim(), () => {
  const server = useServer({ ...ADMIN_ENV, SEED_DEMO: 'true' });
  const browsers: Browser[] = [];
  const clips = useCameraClips();
  /** The p01 head turning: another photo of the person both DF examiners enrolled with. */
  let turning: CameraClip;

  beforeAll(async () => {
    // The DF admin enrols both examiners (as on the biometry screen).
    await enrolFaces(server.baseUrl, { email: DF_ADMIN.email, password: ADMIN.password }, [
      [DF_FIRST.cpf, 'p01-1.jpg'],
      [DF_SECOND.cpf, 'p01-3.jpg'],
    ]);
    turning = await clips.turning('p01-7.jpg');
  }, 240_000);
  // Each test's browsers end with it: several idle Chromiums (a face model and a
  // camera each) are a load this 2-core machine does not need.
  afterEach(async () => {
    for (const browser of browsers.splice(0)) await browser.close();
  });

  async function browserWithCamera(clip?: CameraClip): Promise<Page> {
    const browser = await launchBrowser(clip ? cameraArgs(clip) : []);
    browsers.push(browser);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watchFaceModel(page);
    return page;
  }

  async function choosePost(page: Page, option: string) {
    await page.goto(`${server.baseUrl}/viewer-checkin`);
    await page.getByRole('heading', { name: 'Sala de prova', level: 1 }).waitFor();
    expect(await page.title()).toBe('Sala de prova · Exame Teórico');
    await page.getByRole('combobox', { name: 'Posto de atendimento' }).click();
    await page.getByRole('option', { name: option }).click();
  }

  /** The post has rooms (the demo's S1 to S3): the examiners take one. */
  async function chooseRoom(page: Page, option: string) {
    const select = page.getByRole('combobox', { name: /Sala de prova/ });
    await expect.poll(() => select.isEnabled()).toBe(true);
    await select.click();
    await page.getByRole('option', { name: option }).click();
  }

  /** The take, confirmed; success closes the modal and shows the alert. */
  async function expectSuccess(page: Page, clip: CameraClip) {
    const modal = await takeFace(page, clip);
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Sucesso na validação').waitFor({ timeout: 60_000 });
    await alert.getByRole('button', { name: 'OK' }).click();
    await alert.waitFor({ state: 'hidden' });
  }

  it("DF: a take of one still photo of the examiner is refused, the challenge's prompt still on screen", async () => {
    const still = await clips.still('p01-7.jpg');
    const page = await browserWithCamera(still);
    const errors = watchPageErrors(page);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/Auth/biometric-viewer-checkin')) sent.push(request.url());
    });
    await signIn(page, server.baseUrl, DF_FIRST.email, ADMIN.password);
    await choosePost(page, 'Posto Centro (DF.POSTO01)');
    await page.getByRole('button', { name: 'Validar o rosto' }).click();
    // No step is ever reached: each runs out, and the take goes to the server anyway.
    const modal = await takeFace(page, still);
    expect(await everyStepSeen(modal)).toBe(false);
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    const refusal = modal.getByTestId('face-refusal');
    await refusal.waitFor({ timeout: 60_000 });
    expect(sent).toHaveLength(1);
    // The refusal and the challenge's prompt and checklist, together in the modal.
    expect(await refusal.textContent()).toContain('Falha na validação');
    // Refused for not answering the challenge (which check says so first is the server's).
    const reason = ((await refusal.textContent()) ?? '').replace('Falha na validação', '');
    expect(
      CHALLENGE_REFUSALS.some((message) => reason.includes(message)) ||
        /^O movimento \d \(.+\) não foi visto na captura/.test(reason),
      reason,
    ).toBe(true);
    expect(await refusal.isVisible()).toBe(true);
    const prompt = modal.getByTestId('face-prompt');
    expect(await prompt.isVisible()).toBe(true);
    expect(STEP_PROMPTS).toContain(await prompt.textContent());
    const checklist = modal.getByTestId('challenge-checklist');
    expect(await checklist.isVisible()).toBe(true);
    expect(await checklist.textContent()).toContain('não percebido');
    await modal.getByRole('button', { name: 'Tentar novamente' }).waitFor();
    await screenshot(page, 'check-in-df-7-still-photo-refused');
    expect(await seriousViolations(page, 'validação facial: foto parada recusada')).toEqual([]);
    // Nothing was admitted: examiner 1 still has to validate, the room stays closed.
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Validar o rosto' }).waitFor();
    expect(await page.getByRole('button', { name: 'Abrir a sala' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  }, 240_000);

  it('DF: examiner 1 by face, examiner 2 by password and face, the room opens; a wrong face keeps it open; both leave by face', async () => {
    const page = await browserWithCamera(turning);
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, DF_FIRST.email, ADMIN.password);
    // The examiner's home leads to the room screen.
    await page
      .getByRole('link', { name: /Sala de prova/ })
      .first()
      .click();
    await page.waitForURL('**/viewer-checkin');
    await choosePost(page, 'Posto Centro (DF.POSTO01)');
    await chooseRoom(page, 'Sala 1 (S1)');
    await page.getByRole('button', { name: 'Validar o rosto' }).waitFor();
    expect(await page.getByRole('button', { name: 'Abrir a sala' }).isDisabled()).toBe(true);
    await screenshot(page, 'check-in-df-1-post');

    // Examiner 1: the guided take, its prompt and arrow while the head turns, then the review.
    await page.getByRole('button', { name: 'Validar o rosto' }).click();
    const first = await takeFace(page, turning, {
      whileGuiding: async ({ prompt, checklist }) => {
        expect(STEP_PROMPTS).toContain(prompt);
        expect(checklist).toContain('agora');
        await screenshot(page, 'check-in-df-2-guided-take');
      },
    });
    expect(await everyStepSeen(first)).toBe(true);
    await screenshot(page, 'check-in-df-2-take-review');
    expect(await seriousViolations(page, 'validação facial: revisão da captura')).toEqual([]);
    await first.getByRole('button', { name: 'Confirmar' }).click();
    const success = page.getByTestId('alert-modal');
    await success.getByText('Sucesso na validação').waitFor({ timeout: 60_000 });
    await success.getByRole('button', { name: 'OK' }).click();
    await page.getByText(/Rosto validado às/).waitFor();
    await screenshot(page, 'check-in-df-2-examiner-1-validated');

    await page.getByRole('button', { name: 'Abrir a sala' }).click();
    const modal = page.getByRole('dialog', { name: 'Examinadores da sala' });
    await modal.waitFor();
    await modal.getByRole('textbox', { name: 'Email' }).fill(DF_SECOND.email);
    await modal.getByLabel('Senha').fill(ADMIN.password);
    await modal.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Examinador associado com sucesso!').waitFor();
    await modal
      .getByTestId('second-examiner')
      .getByText('Fiscal de Sala Distrito Federal')
      .waitFor();
    // Opening before examiner 2's face is checked is refused with the reason.
    await modal.getByRole('button', { name: 'Abrir a sala' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Valide o rosto do examinador 2', { exact: false }).waitFor();
    await alert.getByRole('button', { name: 'Ok' }).click();
    await modal.getByRole('button', { name: 'Validar o rosto do examinador 2' }).click();
    await expectSuccess(page, turning);
    await modal.getByText('Rosto validado').waitFor();
    await screenshot(page, 'check-in-df-3-second-examiner');
    expect(await seriousViolations(page, 'modal do segundo examinador')).toEqual([]);
    await modal.getByRole('button', { name: 'Abrir a sala' }).click();

    const room = page.getByTestId('open-room');
    await room.waitFor({ timeout: 30_000 });
    await expect.poll(() => room.getByTestId('check-in-viewer').count()).toBe(2);
    await room
      .getByRole('img', { name: /Captura de entrada de Examinadora Distrito Federal/ })
      .waitFor();
    await room.getByTestId('check-in-exams').waitFor();
    await screenshot(page, 'check-in-df-4-room-open');
    expect(await seriousViolations(page, 'sala aberta (DF)')).toEqual([]);

    // Another browser, another person's head turning: the take follows the
    // challenge, the face is not examiner 2's; the refusal stays in the modal.
    const otherClip = await clips.turning('p07-1.jpg');
    const other = await browserWithCamera(otherClip);
    await signIn(other, server.baseUrl, DF_FIRST.email, ADMIN.password);
    // The open room comes from the server: nothing to choose on this device.
    await other.goto(`${server.baseUrl}/viewer-checkin`);
    const otherRoom = other.getByTestId('open-room');
    await otherRoom.waitFor();
    const secondCard = otherRoom
      .getByTestId('check-in-viewer')
      .filter({ hasText: 'Fiscal de Sala Distrito Federal' });
    await secondCard.getByRole('button', { name: 'Registrar saída' }).click();
    const wrong = await takeFace(other, otherClip);
    await wrong.getByRole('button', { name: 'Confirmar' }).click();
    const refusal = wrong.getByTestId('face-refusal');
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.textContent()).toContain('Falha na validação');
    expect(await refusal.textContent()).toContain(
      'O rosto capturado não corresponde ao cadastro facial deste CPF.',
    );
    await screenshot(other, 'check-in-df-5-wrong-face');
    await wrong.getByRole('button', { name: 'Cancelar' }).click();
    await secondCard.getByText('Na sala').waitFor();

    // The right faces: each examiner leaves (examiner 1 first: the room stays on this
    // device for examiner 2), and the room closes with the last one.
    for (const name of ['Examinadora Distrito Federal', 'Fiscal de Sala Distrito Federal']) {
      const card = room.getByTestId('check-in-viewer').filter({ hasText: name });
      await card.getByRole('button', { name: 'Registrar saída' }).click();
      await expectSuccess(page, turning);
      await card
        .getByText(/Saída às .* \(validada pelo rosto\)/)
        .or(page.getByText('Sala encerrada'))
        .first()
        .waitFor({ timeout: 30_000 });
    }
    await page.getByText('Sala encerrada', { exact: true }).first().waitFor({ timeout: 30_000 });
    // Let the last dialog's fade-out end before the picture.
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'check-in-df-6-closed');
    expect(errors).toEqual([]);

    // The DF admin finds the record, both check-outs validated by face.
    const admin = await browserWithCamera();
    await signIn(admin, server.baseUrl, DF_ADMIN.email, ADMIN.password);
    await admin.goto(`${server.baseUrl}/check-ins`);
    const table = admin.getByTestId('check-ins-table');
    await table.waitFor();
    await table
      .getByRole('button', { name: /Detalhes/ })
      .first()
      .click();
    const drawer = admin.getByRole('dialog', { name: 'Registro de entrada' });
    await drawer.getByText('Encerrada', { exact: true }).waitFor();
    await expect.poll(() => drawer.getByText(/\(validada pelo rosto\)/).count()).toBe(2);
    await drawer.getByRole('img', { name: /Captura de saída de Fiscal de Sala/ }).waitFor();
    await screenshot(admin, 'check-ins-admin-detail');
    expect(await seriousViolations(admin, 'entradas nas salas: detalhe')).toEqual([]);
  }, 600_000);

  it('DF: examiner 1 named by cpfViewer, not the signed-in user, types their own password in the capture', async () => {
    const page = await browserWithCamera(turning);
    const errors = watchPageErrors(page);
    const sent: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/Auth/biometric-viewer-checkin'))
        sent.push(request.postDataJSON() as Record<string, unknown>);
    });
    await signIn(page, server.baseUrl, DF_FIRST.email, ADMIN.password);
    // The separate viewer identity of the device (spec 6): another examiner of the unit.
    await page.evaluate((cpf) => localStorage.setItem('cpfViewer', cpf), DF_SECOND.cpf);
    await choosePost(page, 'Posto Centro (DF.POSTO01)');
    await chooseRoom(page, 'Sala 1 (S1)');
    await page
      .getByText('ele digita a própria senha na validação facial', { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Validar o rosto' }).click();

    const modal = page.getByTestId('facial-validation');
    const password = modal.getByLabel('Senha do examinador');
    await password.waitFor();
    expect(await password.evaluate((input) => (input as HTMLInputElement).required)).toBe(true);
    await takeFace(page, turning);
    // Without the password the take is not sent.
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    await modal.getByText('Informe a senha.').waitFor();
    expect(sent).toHaveLength(0);
    await screenshot(page, 'check-in-df-8-viewer-password');
    expect(await seriousViolations(page, 'validação facial: senha do examinador')).toEqual([]);
    await password.fill(ADMIN.password);
    await modal.getByRole('button', { name: 'Confirmar' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Sucesso na validação').waitFor({ timeout: 60_000 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ cpf: DF_SECOND.cpf, password: ADMIN.password });
    await alert.getByRole('button', { name: 'OK' }).click();

    // The room opens with examiner 1 alone, admitted by face and password.
    await page.getByRole('button', { name: 'Abrir a sala' }).click();
    const examiners = page.getByRole('dialog', { name: 'Examinadores da sala' });
    await examiners.getByRole('button', { name: 'Abrir a sala' }).click();
    const room = page.getByTestId('open-room');
    await room.waitFor({ timeout: 30_000 });
    const card = room
      .getByTestId('check-in-viewer')
      .filter({ hasText: 'Fiscal de Sala Distrito Federal' });
    await card.getByTestId('admitted-password').getByText('Confirmado por senha').waitFor();
    await screenshot(page, 'check-in-df-9-viewer-admitted');
    expect(errors).toEqual([]);
  }, 300_000);

  it('outside DF: the notice, examiner 2 of another unit is not found, the room opens and closes without faces', async () => {
    const page = await browserWithCamera();
    const errors = watchPageErrors(page);
    await signIn(page, server.baseUrl, DEMO_EXAMINER.email, ADMIN.password);
    await choosePost(page, 'Posto Centro (DEMO.POSTO01)');
    await chooseRoom(page, 'Sala 2 (S2)');
    await page.getByRole('button', { name: 'Abrir a sala' }).click();
    const alert = page.getByTestId('alert-modal');
    await alert.getByText('Aviso').waitFor();
    expect(await alert.textContent()).toContain(
      'A validação facial está disponível apenas para o Distrito Federal',
    );
    await screenshot(page, 'check-in-demo-1-notice');
    await alert.getByRole('button', { name: 'Ok' }).click();

    const modal = page.getByRole('dialog', { name: 'Examinadores da sala' });
    await modal.waitFor();
    await modal.getByRole('textbox', { name: 'Email' }).fill(DF_SECOND.email);
    await modal.getByLabel('Senha').fill(ADMIN.password);
    await modal.getByRole('button', { name: 'Enviar' }).click();
    await modal.getByTestId('second-examiner-error').getByText('Usuário não encontrado!').waitFor();
    await screenshot(page, 'check-in-demo-2-other-unit');
    await modal.getByRole('button', { name: 'Limpar' }).click();
    await modal.getByRole('button', { name: 'Abrir a sala' }).click();

    const room = page.getByTestId('open-room');
    await room.waitFor({ timeout: 30_000 });
    await screenshot(page, 'check-in-demo-3-room-open');
    await room.getByRole('button', { name: 'Encerrar a sala' }).click();
    await alert.getByRole('button', { name: 'Encerrar a sala' }).click();
    await page.getByText('Sala encerrada', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => localStorage.getItem('cpfViewer'))).toBeNull();
    expect(errors).toEqual([]);
  }, 180_000);
});
