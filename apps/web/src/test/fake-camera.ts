/**
 * A camera for screen tests of the facial-validation modal: getUserMedia
 * answers a stream whose tracks can be stopped, the video "plays", and each
 * picture the capture keeps is a distinct JPEG data URL
 * (`data:image/jpeg;base64,/9j/quadro1`, `.../quadro2`, ...). Call
 * `uninstallFakeCamera()` and `vi.restoreAllMocks()` after each test. The
 * landmarks come from test/fake-landmarker.ts.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import { fakeChallenge } from './fake-landmarker';

export function installFakeCamera() {
  let frame = 0;
  const stop = vi.fn();
  const getUserMedia = vi.fn(
    async () => ({ getTracks: () => [{ stop }] }) as unknown as MediaStream,
  );
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  // Cast: face-api's types add a 'webgpu' overload to getContext, which the spy would pick.
  (
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext') as unknown as {
      mockReturnValue: (value: unknown) => void;
    }
  ).mockReturnValue({ drawImage: () => undefined });
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => {
    frame += 1;
    return `data:image/jpeg;base64,/9j/quadro${frame}`;
  });
  return { getUserMedia };
}

/** Takes the camera away again (the spies go with `vi.restoreAllMocks()`). */
export function uninstallFakeCamera() {
  Reflect.deleteProperty(navigator, 'mediaDevices');
}

/**
 * In the open facial-validation modal: waits for the camera, starts the
 * capture, lets the (fake) person follow the challenge, and confirms.
 */
export async function captureAndConfirm(user: UserEvent) {
  const modal = await screen.findByTestId('facial-validation');
  const start = within(modal).getByRole('button', { name: 'Iniciar captura' });
  await waitFor(() => expect(start).toBeEnabled(), { timeout: 4000 });
  await user.click(start);
  // The take follows the prompts in real time: a second or two before the review.
  await user.click(await within(modal).findByText('Confirmar', {}, { timeout: 10_000 }));
}

/**
 * A take of the fake camera as the server receives it: the challenge and the
 * four pictures (neutral, two steps, neutral), each a JPEG without its prefix.
 */
export function fakeCameraTake() {
  const picture = () => expect.stringMatching(/^\/9j\/quadro\d+$/);
  return {
    challengeId: fakeChallenge().challengeId,
    image: picture(),
    frames: [picture(), picture(), picture()],
  };
}
