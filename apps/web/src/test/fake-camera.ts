/**
 * A camera for screen tests of the facial-validation modal: getUserMedia
 * answers a stream whose tracks can be stopped, the video "plays", and each
 * frame the canvas grabs is a distinct JPEG data URL
 * (`data:image/jpeg;base64,/9j/quadro1`, `.../quadro2`, ...). Call
 * `uninstallFakeCamera()` and `vi.restoreAllMocks()` after each test.
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';

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
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage: () => undefined,
  } as unknown as CanvasRenderingContext2D);
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

/** In the open facial-validation modal: waits for the camera, captures the burst and confirms. */
export async function captureAndConfirm(user: UserEvent) {
  const modal = await screen.findByTestId('facial-validation');
  const capture = within(modal).getByRole('button', { name: 'Capturar' });
  await waitFor(() => expect(capture).toBeEnabled(), { timeout: 4000 });
  await user.click(capture);
  // The burst takes a few hundred milliseconds of real time before the photo shows.
  await user.click(await within(modal).findByText('Confirmar', {}, { timeout: 4000 }));
}
