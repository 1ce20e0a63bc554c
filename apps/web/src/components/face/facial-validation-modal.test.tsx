/**
 * The guided capture: the modal asks for a challenge, guides the
 * person through it as the landmarks turn, and hands over the take in
 * order; a step that is not seen is taken at its timeout; a refusal keeps
 * the checklist and the prompt on screen; 'Tentar novamente' asks for a new
 * challenge; the password when asked; the timed guide without landmarks;
 * the camera's stream_log events.
 */
import {
  FACE_MOVE_PROMPTS,
  FACE_NEUTRAL_PROMPT,
  FACE_RETURN_PROMPT,
  moveNotFollowedMessage,
  type FaceChallenge,
} from '@exame/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queueKeyFor } from '../../lib/activity/activity-log';
import { ApiError } from '../../lib/api-client';
import { appStore } from '../../lib/app-store';
import type { Capture } from '../../lib/face-capture';
import type { LandmarkerLoader } from '../../lib/face-landmarks';
import { installFakeCamera, uninstallFakeCamera } from '../../test/fake-camera';
import { fakeChallenge, manualLandmarker } from '../../test/fake-landmarker';
import { TEST_USER } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { FacialValidationModal } from './facial-validation-modal';
import type { GuideTimings } from './use-face-guide';

type Queued = { type: string; target?: string; details?: Record<string, unknown> };

function queued(): Queued[] {
  const raw = window.localStorage.getItem(queueKeyFor(TEST_USER.email));
  return raw ? (JSON.parse(raw) as { events: Queued[] }).events : [];
}

const user = userEvent.setup({ delay: null });

function renderModal(props: {
  landmarker: LandmarkerLoader;
  requestChallenge?: () => Promise<FaceChallenge>;
  onConfirm?: (capture: Capture) => Promise<void>;
  askPassword?: { label: string };
  timings?: Partial<GuideTimings>;
}) {
  const requestChallenge = vi.fn(props.requestChallenge ?? (async () => fakeChallenge()));
  const onConfirm = vi.fn(props.onConfirm ?? (async () => undefined));
  renderWithProviders(
    <FacialValidationModal
      opened
      title="Validação facial"
      onClose={() => undefined}
      onConfirm={onConfirm}
      requestChallenge={requestChallenge}
      askPassword={props.askPassword}
      landmarker={props.landmarker}
      timings={props.timings}
    />,
  );
  return { requestChallenge, onConfirm };
}

async function start() {
  const modal = await screen.findByTestId('facial-validation');
  const button = within(modal).getByRole('button', { name: 'Iniciar captura' });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
  return modal;
}

const prompt = () => screen.getByTestId('face-prompt');
const checklist = () => within(screen.getByTestId('challenge-checklist')).getAllByRole('listitem');

beforeEach(() => {
  appStore.setUser(TEST_USER);
  installFakeCamera();
});
afterEach(() => {
  uninstallFakeCamera();
  vi.restoreAllMocks();
  appStore.setUser(null);
});

describe('guided capture', () => {
  it('follows the challenge as the head turns and sends the take in order', async () => {
    const { person, load } = manualLandmarker();
    const { requestChallenge, onConfirm } = renderModal({ landmarker: load });
    const modal = await start();
    await waitFor(() => expect(requestChallenge).toHaveBeenCalledTimes(1));
    expect(await within(modal).findByText(FACE_NEUTRAL_PROMPT)).toBeInTheDocument();
    expect(prompt()).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('timer')).toHaveTextContent(/Tempo restante: \d+ s/);

    // Looking at the camera, held: the first step, its arrow and the checklist.
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.left));
    expect(screen.getByTestId('face-frame')).toHaveAttribute('data-arrow', 'left');
    let items = checklist();
    expect(items.map((item) => item.textContent)).toEqual([
      'Virar à esquerda: agora',
      'Olhar para cima: a fazer',
    ]);
    expect(items[0]).toHaveAttribute('aria-current', 'step');

    // A little turn is not enough; past the goal the step is done.
    person.pose = { yaw: 8, pitch: 0 };
    await waitFor(() =>
      expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50'),
    );
    expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.left);
    person.pose = { yaw: 20, pitch: 0 };
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.up));
    expect(screen.getByTestId('face-frame')).toHaveAttribute('data-arrow', 'up');
    items = checklist();
    expect(items.map((item) => item.textContent)).toEqual([
      'Virar à esquerda: feito',
      'Olhar para cima: agora',
    ]);

    person.pose = { yaw: 0, pitch: 16 };
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_RETURN_PROMPT));
    person.pose = { yaw: 1, pitch: 2 };
    const confirm = await within(modal).findByRole('button', { name: 'Confirmar' });
    const preview = within(modal).getByRole('img', { name: 'Foto capturada' }).getAttribute('src');
    expect(within(modal).getByRole('button', { name: 'Descartar' })).toBeInTheDocument();
    await user.click(confirm);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    // Neutral, one picture per step, neutral again: steps + 2, in the order taken, without prefixes.
    const capture = onConfirm.mock.calls[0]?.[0] as Capture;
    expect(capture.challengeId).toBe(fakeChallenge().challengeId);
    expect(`data:image/jpeg;base64,${capture.image}`).toBe(preview);
    const order = [capture.image, ...capture.frames].map((picture) =>
      Number(/^\/9j\/quadro(\d+)$/.exec(picture)?.[1]),
    );
    expect(order).toHaveLength(4);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(4);
  });

  it('a step not seen is taken at its timeout (its furthest turn), and the checklist says so', async () => {
    const { person, load } = manualLandmarker();
    // Each picture names the pose it was taken at.
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(
      () => `data:image/jpeg;base64,/9j/yaw${person.pose.yaw}`,
    );
    const { onConfirm } = renderModal({
      landmarker: load,
      requestChallenge: async () => fakeChallenge(['right', 'down', 'left']),
      timings: { stepMaxMs: 2000, stepMinMs: 300 },
    });
    const modal = await start();
    // The head turns a little to the right, not enough, and comes back; then never turns again.
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.right));
    person.pose = { yaw: -10, pitch: 0 };
    await waitFor(() =>
      expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '63'),
    );
    person.pose = { yaw: -3, pitch: 0 };
    const confirm = await within(modal).findByRole(
      'button',
      { name: 'Confirmar' },
      { timeout: 10_000 },
    );
    expect(checklist().map((item) => item.textContent)).toEqual([
      'Virar à direita: não percebido',
      'Olhar para baixo: não percebido',
      'Virar à esquerda: não percebido',
    ]);
    expect(within(modal).getByText(/Nem todos os movimentos foram percebidos/)).toBeInTheDocument();
    await user.click(confirm);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    const capture = onConfirm.mock.calls[0]?.[0] as Capture;
    expect([capture.image, ...capture.frames]).toHaveLength(5);
    // The picture of "right" is its furthest turn, not the frame at its timeout.
    expect(capture.frames[0]).toBe('/9j/yaw-10');
  });

  it('a refusal keeps the checklist and the prompt with the message; Tentar novamente asks a new challenge', async () => {
    const { load } = manualLandmarker();
    // The server names the second movement as not seen.
    const message = moveNotFollowedMessage(2, 'right');
    const { requestChallenge } = renderModal({
      landmarker: load,
      requestChallenge: async () => fakeChallenge(['left', 'right']),
      timings: { stepMaxMs: 900, stepMinMs: 300 },
      onConfirm: async () => {
        throw new ApiError(message, 422, 'FACE_CHALLENGE_NOT_FOLLOWED');
      },
    });
    const modal = await start();
    await user.click(
      await within(modal).findByRole('button', { name: 'Confirmar' }, { timeout: 8000 }),
    );
    const alert = await within(modal).findByRole('alert');
    expect(alert).toHaveTextContent('Falha na validação');
    expect(alert).toHaveTextContent(message);
    // The prompt of the movement the server names is still on screen, with the checklist.
    expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.right);
    expect(checklist()).toHaveLength(2);
    expect(within(modal).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    const retry = within(modal).getByRole('button', { name: 'Tentar novamente' });
    await waitFor(() => expect(retry).toHaveFocus());
    await user.click(retry);
    await waitFor(() => expect(requestChallenge).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_NEUTRAL_PROMPT));
    expect(within(modal).queryByRole('alert')).toBeNull();
  });

  it('the password asked goes with the take', async () => {
    const { person, load } = manualLandmarker();
    const { onConfirm } = renderModal({
      landmarker: load,
      requestChallenge: async () => fakeChallenge(['down', 'up']),
      askPassword: { label: 'Senha do examinador' },
    });
    const modal = await start();
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.down));
    person.pose = { yaw: 0, pitch: -15 };
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_MOVE_PROMPTS.up));
    person.pose = { yaw: 0, pitch: 15 };
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_RETURN_PROMPT));
    person.pose = { yaw: 0, pitch: 0 };
    await within(modal).findByRole('button', { name: 'Confirmar' });
    // The password still to type takes the focus once the take is done.
    await waitFor(() => expect(within(modal).getByLabelText(/Senha do examinador/)).toHaveFocus());
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    expect(await within(modal).findByText('Informe a senha.')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await user.type(within(modal).getByLabelText(/Senha do examinador/), 'segredo-da-ana');
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect(onConfirm.mock.calls[0]?.[0]).toMatchObject({ password: 'segredo-da-ana' });
  });

  it('without the landmark model the guide is timed: a countdown for each picture', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { onConfirm } = renderModal({
      landmarker: async () => {
        throw new Error('offline');
      },
      timings: { countdownSeconds: 2, countdownStepMs: 60 },
    });
    const modal = await start();
    await waitFor(() => expect(prompt()).toHaveTextContent(FACE_NEUTRAL_PROMPT));
    await waitFor(() => expect(screen.getByTestId('face-frame')).toHaveTextContent(/[12]/));
    await user.click(
      await within(modal).findByRole('button', { name: 'Confirmar' }, { timeout: 8000 }),
    );
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect((onConfirm.mock.calls[0]?.[0] as Capture).frames).toHaveLength(3);
    expect(queued().map((event) => event.details?.event)).toContain('landmarks_unavailable');
  });
});

describe('camera events in the activity log', () => {
  it('the camera opening, the model and the take sent are stream_log events of the purpose', async () => {
    const { load } = manualLandmarker();
    const { onConfirm } = renderModal({
      landmarker: load,
      timings: { stepMaxMs: 900, stepMinMs: 300 },
    });
    const modal = await start();
    await user.click(
      await within(modal).findByRole('button', { name: 'Confirmar' }, { timeout: 8000 }),
    );
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    const events = queued();
    expect(
      events.every((event) => event.type === 'stream_log' && event.target === 'Validação facial'),
    ).toBe(true);
    expect(events.map((event) => event.details?.event).sort()).toEqual([
      'camera_open',
      'capture_published',
      'landmarks_ready',
    ]);
    expect(
      events.find((event) => event.details?.event === 'capture_published')?.details,
    ).toMatchObject({
      pictures: 4,
      steps: 2,
      seen: 2,
      mode: 'landmarks',
    });
    // Never the picture itself.
    expect(JSON.stringify(events)).not.toContain('base64');
  });

  it('a refused camera is a stream_log with the error name', async () => {
    const { getUserMedia } = installFakeCamera();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    renderModal({ landmarker: () => new Promise(() => undefined) });
    await waitFor(() => expect(queued()).toHaveLength(1));
    expect(queued()[0]).toMatchObject({
      type: 'stream_log',
      target: 'Validação facial',
      details: { event: 'camera_error', name: 'NotAllowedError' },
    });
  });
});
