import userEvent from '@testing-library/user-event';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queueKeyFor } from '../../lib/activity/activity-log';
import { appStore } from '../../lib/app-store';
import { installFakeCamera, captureAndConfirm, uninstallFakeCamera } from '../../test/fake-camera';
import { TEST_USER } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { FacialValidationModal } from './facial-validation-modal';

type Queued = { type: string; target?: string; details?: Record<string, unknown> };

function queued(): Queued[] {
  const raw = window.localStorage.getItem(queueKeyFor(TEST_USER.email));
  return raw ? (JSON.parse(raw) as { events: Queued[] }).events : [];
}

afterEach(() => {
  uninstallFakeCamera();
  vi.restoreAllMocks();
  appStore.setUser(null);
});

describe('camera events in the activity log', () => {
  it('the camera opening and the capture sent are stream_log events of the purpose', async () => {
    appStore.setUser(TEST_USER);
    installFakeCamera();
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => undefined);
    renderWithProviders(
      <FacialValidationModal
        opened
        title="Entrada na sala"
        onClose={() => undefined}
        onConfirm={onConfirm}
      />,
    );
    await captureAndConfirm(user);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    const events = queued();
    expect(events.map((event) => [event.type, event.target, event.details?.event])).toEqual([
      ['stream_log', 'Entrada na sala', 'camera_open'],
      ['stream_log', 'Entrada na sala', 'capture_published'],
    ]);
    // Never the picture itself.
    expect(JSON.stringify(events)).not.toContain('base64');
  });

  it('a refused camera is a stream_log with the error name', async () => {
    appStore.setUser(TEST_USER);
    const { getUserMedia } = installFakeCamera();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    getUserMedia.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    renderWithProviders(
      <FacialValidationModal
        opened
        title="Validação facial"
        onClose={() => undefined}
        onConfirm={async () => undefined}
      />,
    );
    await waitFor(() => expect(queued()).toHaveLength(1));
    expect(queued()[0]).toMatchObject({
      type: 'stream_log',
      target: 'Validação facial',
      details: { event: 'camera_error', name: 'NotAllowedError' },
    });
  });
});
