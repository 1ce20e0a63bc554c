/**
 * Leaving a room where the unit requires the face (DF): the examiner's
 * check-out capture answers a 'check-out' challenge for that examiner of the
 * record, the take goes to `api/Auth/biometric-viewer-checkin` with its
 * challenge, and the verification closes the examiner's stay.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckInRecord } from '@exame/shared';
import { appStore } from '../../../lib/app-store';
import {
  captureAndConfirm,
  installFakeCamera,
  uninstallFakeCamera,
} from '../../../test/fake-camera';
import { fakeChallenge } from '../../../test/fake-landmarker';
import { TEST_USER } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { json, stubServer } from '../../../test/stub-server';
import { OpenRoom } from './open-room';

vi.mock('../../../lib/face-landmarks', () => import('../../../test/fake-landmarker'));

const VIEWER_ID = '5b0c3d2e-1f4a-4b6c-9d8e-7f6a5b4c3d2e';
const VERIFICATION_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

function record(overrides: Partial<CheckInRecord> = {}): CheckInRecord {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    federativeUnit: 'DF',
    schedulingLocal: 'DF.POSTO01',
    schedulingLocalDescription: 'Posto Centro',
    examRoom: null,
    status: 'open',
    checkInDate: new Date(Date.now() - 30 * 60_000).toISOString(),
    checkOutDate: null,
    openedBy: { id: 'u1', name: TEST_USER.name },
    deviceId: null,
    closeReason: null,
    faceValidationRequired: true,
    viewers: [
      {
        id: VIEWER_ID,
        userId: 'u1',
        name: TEST_USER.name,
        cpf: '***.982.247-**',
        faceUrl: null,
        checkInDate: new Date(Date.now() - 30 * 60_000).toISOString(),
        checkOutValidated: false,
        checkOutDate: null,
        checkOutFaceUrl: null,
        removedAt: null,
        admittedBy: 'session',
      },
    ],
    history: [],
    ...overrides,
  };
}

const user = userEvent.setup({ delay: null });

afterEach(() => {
  uninstallFakeCamera();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  appStore.clearSession();
});

describe('open room: check-out with the face', () => {
  it('asks a check-out challenge for the examiner and sends the take with it', async () => {
    appStore.setUser(TEST_USER);
    installFakeCamera();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const closed = record({ status: 'closed', checkOutDate: new Date().toISOString() });
    const calls = stubServer({
      'POST /api/BiopassID/Challenge': () => json(201, fakeChallenge(['down', 'left'])),
      'POST /api/Auth/biometric-viewer-checkin': () =>
        json(200, {
          verificationId: VERIFICATION_ID,
          name: TEST_USER.name,
          cpf: '***.982.247-**',
          faceUrl: '/files/face.jpg',
          currentDate: new Date().toISOString(),
          similarityLevel: 'alta',
        }),
      'POST /api/SchedulingLocalCheckIn/checkOut': () => json(200, closed),
    });
    const onClosed = vi.fn();
    renderWithProviders(<OpenRoom record={record()} onClosed={onClosed} />);
    await user.click(await screen.findByRole('button', { name: /Registrar saída/ }));
    expect(await screen.findByText(`Saída de ${TEST_USER.name}`)).toBeInTheDocument();
    await captureAndConfirm(user);
    const alert = await screen.findByTestId('alert-modal');
    expect(alert).toHaveTextContent('Sucesso na validação');
    await user.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(onClosed).toHaveBeenCalledTimes(1));

    expect(calls.find((call) => call.path === '/api/BiopassID/Challenge')?.body).toEqual({
      purpose: 'check-out',
      checkInViewerId: VIEWER_ID,
    });
    const take = calls.find((call) => call.path === '/api/Auth/biometric-viewer-checkin');
    expect(take?.body).toMatchObject({
      checkInViewerId: VIEWER_ID,
      challengeId: fakeChallenge().challengeId,
      uf: 'DF',
      local: 'DF.POSTO01',
    });
    expect((take?.body as { frames: string[] }).frames).toHaveLength(3);
    expect(calls.find((call) => call.path.endsWith('/checkOut'))?.body).toMatchObject({
      viewerId: VIEWER_ID,
      verificationId: VERIFICATION_ID,
    });
  });
});
