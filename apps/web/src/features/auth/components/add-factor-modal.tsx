/**
 * A second factor more for the signed-in account (security page): the same
 * set-up forms as at sign-in, with the account's own routes. When it is the
 * account's first factor, the server makes the recovery codes too, shown
 * here once.
 */
import { Button } from '@mantine/core';
import type { SecondFactorKind } from '@exame/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { accountFactorSetup, secondFactorsQuery, type FactorAdded } from '../api/second-factor';
import { PasskeySetupForm } from './passkey-setup-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupForm } from './totp-setup-form';

const TITLES: Record<SecondFactorKind, string> = {
  totp: 'Adicionar aplicativo autenticador',
  passkey: 'Adicionar chave de acesso',
};

export function AddFactorModal({
  opened,
  kind,
  attempt,
  onClose,
}: {
  opened: boolean;
  /** The kind being added (kept after closing, so the title stays while the modal fades out). */
  kind: SecondFactorKind;
  /** A new number for each opening: a new set-up (a new secret). */
  attempt: number;
  onClose: () => void;
}) {
  return (
    <AppModal opened={opened} onClose={onClose} title={TITLES[kind]} width="440px">
      {opened && <AddFactorContent key={attempt} kind={kind} attempt={attempt} onClose={onClose} />}
    </AppModal>
  );
}

function AddFactorContent({
  kind,
  attempt,
  onClose,
}: {
  kind: SecondFactorKind;
  attempt: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [setup] = useState(() => accountFactorSetup(attempt));
  const [codes, setCodes] = useState<string[] | null>(null);

  const confirmed = (result: FactorAdded) => {
    void queryClient.invalidateQueries({ queryKey: secondFactorsQuery.queryKey });
    toast.success(`"${result.factor.label}" cadastrado como segundo fator.`);
    if (result.recoveryCodes && result.recoveryCodes.length > 0) setCodes(result.recoveryCodes);
    else onClose();
  };

  if (codes) return <RecoveryCodesPanel codes={codes} doneLabel="Concluir" onDone={onClose} />;
  const cancel = (
    <Button variant="default" onClick={onClose}>
      Cancelar
    </Button>
  );
  return kind === 'totp' ? (
    <TotpSetupForm setup={setup} onConfirmed={confirmed} actions={cancel} />
  ) : (
    <PasskeySetupForm setup={setup} onConfirmed={confirmed} actions={cancel} />
  );
}
