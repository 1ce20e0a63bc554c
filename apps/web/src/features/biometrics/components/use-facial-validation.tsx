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
import { useState } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { ApiError } from '../../../lib/api-client';
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

  const confirm = async (capture: Capture) => {
    const cpf = target;
    if (!cpf) return;
    try {
      const result = await verifyFace({ cpf, capture, uf: unit, local });
      setTarget(null);
      if (result.verified) {
        showAlert({
          icon: 'success',
          title: 'Sucesso na validação',
          message: FACE_VALIDATION_SUCCESS,
          actions: [{ label: 'OK' }],
        });
        options.onVerified?.(result);
      } else {
        fail(cpf, result.message);
      }
    } catch (error) {
      setTarget(null);
      fail(
        cpf,
        error instanceof ApiError || error instanceof Error ? error.message : String(error),
      );
    }
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
