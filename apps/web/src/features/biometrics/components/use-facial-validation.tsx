/**
 * Runs a facial validation with the modal and the global alert (spec 8):
 * success 'Sucesso na validação' / 'Sua validação biométrica foi concluída.'
 * with 'OK'; failure 'Falha na validação' with the message and 'Cancelar' /
 * 'Tentar novamente' (which resets the photo). Outside DF nothing runs and
 * the notice 'Aviso' is shown (spec 5).
 */
import {
  FACE_VALIDATION_ONLY_DF,
  FACE_VALIDATION_SUCCESS,
  FACE_VALIDATION_UNIT,
} from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { useAppState } from '../../../lib/app-store';
import { verifyFace, type Capture, type VerifyResponse } from '../api/biometrics';
import { FacialValidationModal } from './facial-validation-modal';

export function useFacialValidation(
  options: { onVerified?: (result: VerifyResponse) => void } = {},
) {
  const { showAlert } = useAlert();
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const [target, setTarget] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const start = (cpf: string) => {
    if (unit !== FACE_VALIDATION_UNIT) {
      showAlert({ icon: 'warning', title: 'Aviso', message: FACE_VALIDATION_ONLY_DF });
      return;
    }
    setAttempt((value) => value + 1);
    setTarget(cpf);
  };

  const fail = (cpf: string, message: string) =>
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
            setTarget(cpf);
          },
        },
      ],
    });

  const verify = useMutation({
    mutationFn: ({ cpf, capture }: { cpf: string; capture: Capture }) =>
      verifyFace({ cpf, capture, uf: unit, local }),
    onSuccess: (result, { cpf }) => {
      setTarget(null);
      if (!result.verified) {
        fail(cpf, result.message);
        return;
      }
      showAlert({
        icon: 'success',
        title: 'Sucesso na validação',
        message: FACE_VALIDATION_SUCCESS,
        actions: [{ label: 'OK' }],
      });
      options.onVerified?.(result);
    },
    onError: (error, { cpf }) => {
      setTarget(null);
      fail(cpf, error.message);
    },
  });

  // The modal's spinner lasts until the verification settles; the alerts tell the outcome.
  const confirm = async (capture: Capture) => {
    if (!target) return;
    await verify.mutateAsync({ cpf: target, capture }).catch(() => undefined);
  };

  const modal = (
    <FacialValidationModal
      key={attempt}
      opened={target !== null}
      title="Validação facial"
      onClose={() => setTarget(null)}
      onConfirm={confirm}
    />
  );
  return { start, modal };
}
