/**
 * The facial validation of a screen: the capture asks the caller's
 * challenge for the person; `verified: false` stays in the modal as a
 * refusal with the server's message; a success closes it and shows the
 * global alert of spec 8.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '@mantine/core';
import { appStore } from '../../lib/app-store';
import { installFakeCamera, uninstallFakeCamera } from '../../test/fake-camera';
import { fakeChallenge } from '../../test/fake-landmarker';
import { TEST_USER } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { useFacialValidation } from './use-facial-validation';

vi.mock('../../lib/face-landmarks', () => import('../../test/fake-landmarker'));

const user = userEvent.setup({ delay: null });

function Screen({
  verify,
  requestChallenge,
}: {
  verify: (target: string, capture: { challengeId: string }) => Promise<object>;
  requestChallenge: (target: string) => Promise<ReturnType<typeof fakeChallenge>>;
}) {
  const face = useFacialValidation({ requestChallenge, verify });
  return (
    <>
      <Button onClick={() => face.start('52998224725')}>Validar</Button>
      {face.modal}
    </>
  );
}

afterEach(() => {
  uninstallFakeCamera();
  vi.restoreAllMocks();
  appStore.setUser(null);
});

describe('useFacialValidation', () => {
  it('a negative decision stays in the modal; a positive one closes it with the success alert', async () => {
    appStore.setUser(TEST_USER);
    installFakeCamera();
    const requestChallenge = vi.fn(async () => fakeChallenge(['right', 'left']));
    const verify = vi
      .fn<(target: string, capture: { challengeId: string }) => Promise<object>>()
      .mockResolvedValueOnce({ verified: false, message: 'O rosto capturado não corresponde.' })
      .mockResolvedValueOnce({ verified: true, message: 'ok' });
    renderWithProviders(<Screen verify={verify} requestChallenge={requestChallenge} />);
    await user.click(screen.getByRole('button', { name: 'Validar' }));
    const modal = await screen.findByTestId('facial-validation');
    const take = async () => {
      const start = within(modal).getByRole('button', { name: /Iniciar captura|Tentar novamente/ });
      await waitFor(() => expect(start).toBeEnabled());
      await user.click(start);
      await user.click(
        await within(modal).findByRole('button', { name: 'Confirmar' }, { timeout: 10_000 }),
      );
    };
    await take();
    expect(requestChallenge).toHaveBeenCalledWith('52998224725', { unit: 'DF', local: null });
    expect(verify.mock.calls[0]?.[1]).toMatchObject({ challengeId: fakeChallenge().challengeId });
    const refusal = await within(modal).findByRole('alert');
    expect(refusal).toHaveTextContent('Falha na validação');
    expect(refusal).toHaveTextContent('O rosto capturado não corresponde.');
    expect(within(modal).getByTestId('challenge-checklist')).toBeInTheDocument();

    await take();
    expect(requestChallenge).toHaveBeenCalledTimes(2);
    const alert = await screen.findByTestId('alert-modal');
    expect(alert).toHaveTextContent('Sucesso na validação');
    expect(alert).toHaveTextContent('Sua validação biométrica foi concluída.');
    await waitFor(() => expect(screen.queryByTestId('facial-validation')).toBeNull());
  });
});
