/**
 * Runs a facial validation with the modal and the global alert (spec 8):
 * success 'Sucesso na validação' / 'Sua validação biométrica foi concluída.'
 * with 'OK'; failure 'Falha na validação' with the message and 'Cancelar' /
 * 'Tentar novamente' (which resets the photo). Outside DF nothing runs and
 * the notice 'Aviso' is shown (spec 5).
 *
 * The call that judges the capture is the caller's (`api/BiopassID/Verify`
 * on the biometry screen, `api/Auth/biometric-viewer-checkin` at the room's
 * check-in and check-out): it answers `verified` with a message, or fails
 * with the server's reason.
 */
import {
  FACE_VALIDATION_ONLY_DF,
  FACE_VALIDATION_SUCCESS,
  FACE_VALIDATION_UNIT,
} from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useAppState } from '../../lib/app-store';
import type { Capture } from '../../lib/face-capture';
import { useAlert } from '../alert-modal/alert-modal';
import { FacialValidationModal } from './facial-validation-modal';

/**
 * What an answer may say of the decision: `verified: false` with the message
 * to tell (an answer without `verified` is a positive decision; a refusal
 * may also come as an error with the server's reason).
 */
type Decision = { verified?: boolean; message?: string };

/** What the check knows of the screen: the signed-in user's unit and the room's post. */
export type FaceCheckContext = { unit: string; local: string | null };

export type FacialValidationOptions<T extends object> = {
  verify: (target: string, capture: Capture, context: FaceCheckContext) => Promise<T>;
  onVerified?: (result: T, target: string) => void;
};

export function useFacialValidation<T extends object>(options: FacialValidationOptions<T>) {
  const { showAlert } = useAlert();
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const [target, setTarget] = useState<{ key: string; title: string } | null>(null);
  const [attempt, setAttempt] = useState(0);

  /** Opens the capture for `key` (a CPF, or whatever the caller's check names); false outside DF. */
  const start = (key: string, title = 'Validação facial'): boolean => {
    if (unit !== FACE_VALIDATION_UNIT) {
      showAlert({ icon: 'warning', title: 'Aviso', message: FACE_VALIDATION_ONLY_DF });
      return false;
    }
    setAttempt((value) => value + 1);
    setTarget({ key, title });
    return true;
  };

  const fail = (failed: { key: string; title: string }, message: string) =>
    showAlert({
      icon: 'error',
      title: 'Falha na validação',
      message,
      actions: [
        { label: 'Cancelar' },
        {
          label: 'Tentar novamente',
          onClick: () => {
            setAttempt((value) => value + 1);
            setTarget(failed);
          },
        },
      ],
    });

  const check = useMutation({
    mutationFn: ({ key, capture }: { key: string; title: string; capture: Capture }) =>
      options.verify(key, capture, { unit, local }),
    onSuccess: (result, asked) => {
      setTarget(null);
      const decision = result as Decision;
      if (decision.verified === false) {
        fail(asked, decision.message ?? 'A validação facial não foi confirmada.');
        return;
      }
      showAlert({
        icon: 'success',
        title: 'Sucesso na validação',
        message: FACE_VALIDATION_SUCCESS,
        actions: [{ label: 'OK' }],
      });
      options.onVerified?.(result, asked.key);
    },
    onError: (error, asked) => {
      setTarget(null);
      fail(asked, error.message);
    },
  });

  // The modal's spinner lasts until the check settles; the alerts tell the outcome.
  const confirm = async (capture: Capture) => {
    if (!target) return;
    await check.mutateAsync({ ...target, capture }).catch(() => undefined);
  };

  const modal = (
    <FacialValidationModal
      key={attempt}
      opened={target !== null}
      title={target?.title ?? 'Validação facial'}
      onClose={() => setTarget(null)}
      onConfirm={confirm}
    />
  );
  return { start, modal, pending: check.isPending };
}
