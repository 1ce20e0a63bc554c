/**
 * Faces for the e2e specs (every capture answers a challenge).
 *
 * - `enrolFaces`: enrolment through the API, as an ADMIN does on the
 *   biometry screen: a challenge for the CPF, answered by a genuine take of
 *   the dev photo (its head turning as asked, synthetic-takes.ts).
 * - `takeFace`: a take in the facial-validation modal, in the browser, fed
 *   by a fake camera (fake-camera.ts): "Iniciar captura", the steps done by
 *   the clip itself, up to the preview with Descartar and Confirmar.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FaceChallenge } from '@exame/shared';
import { FacePool } from '../../apps/server/src/biometrics/face-pool';
import { acceptedGenuineTake } from '../../apps/server/test/faces/takes';
import type { CameraClip, PoseSignatures } from './fake-camera';

async function post(baseUrl: string, route: string, body: unknown, token?: string) {
  const response = await fetch(`${baseUrl}/${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Signs `admin` in and enrols each CPF with a live take of its dev photo.
 * The enrolment gate refuses expressive or turned captures: use photos it
 * accepts (p01-1, p01-3...). The engine runs in this process and is closed after.
 */
export async function enrolFaces(
  baseUrl: string,
  admin: { email: string; password: string },
  faces: ReadonlyArray<readonly [cpf: string, photo: string]>,
): Promise<void> {
  const login = await post(baseUrl, 'api/Auth', admin);
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const token = String(login.body.token);
  const engine = new FacePool({ inProcess: true });
  try {
    for (const [index, [cpf, photo]] of faces.entries()) {
      const challenge = await post(
        baseUrl,
        'api/BiopassID/Challenge',
        { purpose: 'enrolment', cpf },
        token,
      );
      expect(challenge.status, JSON.stringify(challenge.body)).toBe(201);
      const { challengeId, steps } = challenge.body as unknown as FaceChallenge;
      // A take the server's check accepts (synthetic takes are refused now and then, as real ones are).
      const [image, ...frames] = (await acceptedGenuineTake(engine, photo, steps, index + 1)).map(
        (picture) => picture.toString('base64'),
      );
      const enrol = await post(
        baseUrl,
        'api/BiopassID/Create',
        { cpf, challengeId, image, frames },
        token,
      );
      expect(enrol.status, `${photo} ${steps.join(',')}: ${JSON.stringify(enrol.body)}`).toBe(201);
    }
  } finally {
    await engine.close();
  }
}

/* ------------------------------------------------------------------------ */
/* The take in the browser                                                   */
/* ------------------------------------------------------------------------ */

const modelReady = new WeakMap<Page, { ready: boolean }>();

/**
 * Follows the page's face model: the modal logs 'landmarks_ready' (an
 * activity event, sent every few seconds) once face-api is loaded. Call it
 * when the page is made, before any capture modal opens.
 */
export function watchFaceModel(page: Page): void {
  const state = { ready: false };
  modelReady.set(page, state);
  page.on('request', (request) => {
    if (request.url().endsWith('/api/ActivityLog/events')) {
      if ((request.postData() ?? '').includes('landmarks_ready')) state.ready = true;
    }
  });
}

async function faceModelReady(page: Page): Promise<boolean> {
  const state = modelReady.get(page);
  if (!state) throw new Error('watchFaceModel(page) deve ser chamado ao criar a página');
  if (state.ready) return true;
  // Not sent yet: the event still waits in the activity queue.
  return page.evaluate(() =>
    Object.keys(localStorage).some(
      (key) =>
        key.startsWith('EP_ACTIVITY_QUEUE:') &&
        (localStorage.getItem(key) ?? '').includes('landmarks_ready'),
    ),
  );
}

/**
 * Clicks "Iniciar captura" at the moment the clip's head comes back to the
 * camera after its last movement (down), so that the neutral picture, the
 * reference of the take, looks at the camera: the clip's neutral stretch
 * there lasts 2 s. Watches the video in the page, where the click is
 * immediate, by the nearest pose signature (fake-camera.ts), ten times a
 * second: each pose of the clip lasts 1 s or more, and every look draws a
 * frame in the page, on the cores the take itself needs.
 */
async function startFacing(page: Page, signatures: PoseSignatures): Promise<void> {
  const result = await page.evaluate(
    async ({ region, poses, timeoutMs }) => {
      const root = document.querySelector('[data-testid="facial-validation"]');
      const video = root?.querySelector('video');
      const start = Array.from(root?.querySelectorAll('button') ?? []).find((button) =>
        button.textContent?.includes('Iniciar captura'),
      );
      if (!video || !start) return { started: false, seen: 'sem vídeo ou sem o botão' };
      const canvas = document.createElement('canvas');
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return { started: false, seen: 'sem canvas' };
      const seen: string[] = [];
      let sawDown = false;
      const until = performance.now() + timeoutMs;
      while (performance.now() < until) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        context.drawImage(video, 0, 0);
        const { data } = context.getImageData(region.x, region.y, region.width, region.height);
        const values: number[] = [];
        for (let by = 0; by < region.height; by += region.block) {
          for (let bx = 0; bx < region.width; bx += region.block) {
            let sum = 0;
            for (let y = by; y < by + region.block; y++) {
              for (let x = bx; x < bx + region.block; x++) {
                const i = (y * region.width + x) * 4;
                sum += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
              }
            }
            values.push(sum / (region.block * region.block));
          }
        }
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const norm = Math.hypot(...values.map((v) => v - mean)) || 1;
        let best = { pose: '', score: -Infinity };
        for (const { pose, signature } of poses) {
          let score = 0;
          for (let i = 0; i < values.length; i++)
            score += ((values[i]! - mean) / norm) * signature[i]!;
          if (score > best.score) best = { pose, score };
        }
        if (seen[seen.length - 1] !== best.pose) seen.push(best.pose);
        if (best.pose === 'down') sawDown = true;
        else if (sawDown && best.pose === 'neutral') {
          start.click();
          return { started: true, seen: seen.join(' ') };
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { started: false, seen: seen.join(' ') };
    },
    { ...signatures, timeoutMs: 40_000 },
  );
  if (!result.started) {
    throw new Error(`A câmera de teste não mostrou a volta ao rosto de frente: ${result.seen}`);
  }
}

/** What the modal asked at one moment of the take. */
export type GuideMoment = { target: string; prompt: string; checklist: string };

/** Runs `step` once the modal asks for a movement (its `data-face-target` names it). */
async function whileMoving(
  page: Page,
  step: (moment: GuideMoment) => Promise<void>,
): Promise<void> {
  const moving = page.locator(
    '[data-testid="facial-validation"]:is([data-face-target="left"], [data-face-target="right"], [data-face-target="up"], [data-face-target="down"])',
  );
  await moving.waitFor({ timeout: 30_000 });
  // Read at once: the step may be seen, and the target change, any moment now.
  const moment = await page.evaluate(() => {
    const modal = document.querySelector('[data-testid="facial-validation"]');
    const text = (testId: string) =>
      modal?.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '';
    return {
      target: modal?.getAttribute('data-face-target') ?? '',
      prompt: text('face-prompt'),
      checklist: text('challenge-checklist'),
    };
  });
  await step(moment);
}

/**
 * A take in the open facial-validation modal, up to the preview (Descartar
 * and Confirmar): waits for the camera and the face model, starts (a
 * turning clip at its neutral moment) and lets the clip do the steps; a
 * step runs out after ~12 s and a still photo times out on every one, so
 * the take may last ~40 s. With a turning clip, a take where a step was not
 * seen is discarded and done again once (a person would do the same: the
 * modal suggests it), and said in the log. Returns the modal.
 */
export async function takeFace(
  page: Page,
  clip: CameraClip,
  options: {
    /** Runs once while a movement is asked (a screenshot of the guide); the take goes on meanwhile. */
    whileGuiding?: (moment: GuideMoment) => Promise<void>;
  } = {},
): Promise<Locator> {
  const modal = page.getByTestId('facial-validation');
  await modal.waitFor();
  const start = modal.getByRole('button', { name: 'Iniciar captura' });
  await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => faceModelReady(page), { timeout: 90_000 }).toBe(true);
  const attempts = clip.signatures ? 2 : 1;
  for (let attempt = 1; ; attempt++) {
    if (clip.signatures) await startFacing(page, clip.signatures);
    else await start.click();
    const guiding =
      attempt === 1 && options.whileGuiding ? whileMoving(page, options.whileGuiding) : null;
    // The challenge lasts 60 s; the take ends with 12 s of it left for the review.
    await modal.getByRole('button', { name: 'Confirmar' }).waitFor({ timeout: 75_000 });
    await guiding;
    const missed = modal.getByText('Nem todos os movimentos foram percebidos', { exact: false });
    if (!clip.signatures || attempt >= attempts || (await missed.count()) === 0) return modal;
    const checklist = await modal.getByTestId('challenge-checklist').textContent();
    console.warn(`takeFace: passo não percebido (${checklist}); a captura é refeita`);
    await modal.getByRole('button', { name: 'Descartar' }).click();
    await expect.poll(() => start.isEnabled()).toBe(true);
  }
}

/** Whether every step of the take in the modal was seen (no "não percebido" in the checklist). */
export async function everyStepSeen(modal: Locator): Promise<boolean> {
  return !((await modal.getByTestId('challenge-checklist').textContent()) ?? '').includes(
    'não percebido',
  );
}
