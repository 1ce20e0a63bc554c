/**
 * Runs a facial validation with the modal (spec 8): success closes it and
 * shows the global alert 'Sucesso na validação' / 'Sua validação biométrica
 * foi concluída.' with 'OK'; a failure stays in the modal, with the steps of
 * the take and its prompt still on screen: 'Falha na validação', the
 * server's message, 'Cancelar' and 'Tentar novamente' (a new challenge).
 * Outside DF nothing runs and the notice 'Aviso' is shown (spec 5).
 *
 * Each capture answers a challenge of the server: the caller's
 * `requestChallenge` asks `api/BiopassID/Challenge` for the purpose and the
 * person; the call that judges the take is the caller's too
 * (`api/BiopassID/Verify` on the biometry screen,
 * `api/Auth/biometric-viewer-checkin` at the room's check-in and check-out),
 * with `capture.challengeId`. It answers `verified` with a message, or fails
 * with the server's reason (FACE_CHALLENGE_*, FACE_NOT_VERIFIED...).
 */
import {
  FACE_VALIDATION_ONLY_DF,
  FACE_VALIDATION_SUCCESS,
  FACE_VALIDATION_UNIT,
  type FaceChallenge,
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
  /** A new challenge for the capture of `target` (the purpose and the person are the caller's). */
  requestChallenge: (target: string, context: FaceCheckContext) => Promise<FaceChallenge>;
  verify: (target: string, capture: Capture, context: FaceCheckContext) => Promise<T>;
  onVerified?: (result: T, target: string) => void;
};

type Target = { key: string; title: string; askPassword?: { label: string } };

export function useFacialValidation<T extends object>(options: FacialValidationOptions<T>) {
  const { showAlert } = useAlert();
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const [target, setTarget] = useState<Target | null>(null);
  const [attempt, setAttempt] = useState(0);

  /**
   * Opens the capture for `key` (a CPF, or whatever the caller's check
   * names); false outside DF. `askPassword` asks the person's own password in
   * the capture (a person who is not the signed-in user).
   */
  const start = (
    key: string,
    title = 'Validação facial',
    extra: { askPassword?: { label: string } } = {},
  ): boolean => {
    if (unit !== FACE_VALIDATION_UNIT) {
      showAlert({ icon: 'warning', title: 'Aviso', message: FACE_VALIDATION_ONLY_DF });
      return false;
    }
    setAttempt((value) => value + 1);
    setTarget({ key, title, askPassword: extra.askPassword });
    return true;
  };

  const check = useMutation({
    mutationFn: ({ key, capture }: { key: string; capture: Capture }) =>
      options.verify(key, capture, { unit, local }),
  });

  // The modal's spinner lasts until the check settles; a refusal (rejected) stays in the modal.
  const confirm = async (capture: Capture) => {
    if (!target) return;
    const result = await check.mutateAsync({ key: target.key, capture });
    const decision = result as Decision;
    if (decision.verified === false) {
      throw new Error(decision.message ?? 'A validação facial não foi confirmada.');
    }
    setTarget(null);
    showAlert({
      icon: 'success',
      title: 'Sucesso na validação',
      message: FACE_VALIDATION_SUCCESS,
      actions: [{ label: 'OK' }],
    });
    options.onVerified?.(result, target.key);
  };

  const modal = (
    <FacialValidationModal
      key={attempt}
      opened={target !== null}
      title={target?.title ?? 'Validação facial'}
      onClose={() => setTarget(null)}
      onConfirm={confirm}
      requestChallenge={() => options.requestChallenge(target?.key ?? '', { unit, local })}
      askPassword={target?.askPassword}
    />
  );
  return { start, modal, pending: check.isPending };
}
