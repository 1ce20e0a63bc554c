/**
 * A new passkey, the same at sign-in (enrolment ticket) and on the security
 * page: an optional name, then the browser asks for the device's lock
 * (fingerprint, face, PIN or security key) and the server confirms it.
 */
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { factorConfirmationSchema } from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { textField } from '../../../lib/forms';
import { addPasskey, type FactorSetupApi } from '../api/second-factor';
import { IdentityErrorAlert } from './auth-card';

const labelSchema = factorConfirmationSchema.options[1].shape.label;

export function PasskeySetupForm<Result>({
  setup,
  onConfirmed,
  actions,
}: {
  setup: FactorSetupApi<Result>;
  onConfirmed: (result: Result) => void;
  actions?: ReactNode;
}) {
  const [label, setLabel] = useState('');
  const [labelError, setLabelError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (name: string | undefined) => addPasskey(setup, name),
    onSuccess: onConfirmed,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = labelSchema.safeParse(label.trim() || undefined);
    setLabelError(checked.success ? null : (checked.error.issues[0]?.message ?? null));
    if (checked.success) create.mutate(checked.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          O navegador vai pedir o desbloqueio deste aparelho (digital, rosto ou PIN) ou a sua chave
          de segurança. Nenhuma senha nova é criada.
        </Text>
        {create.error && <IdentityErrorAlert error={create.error} testId="passkey-error" />}
        <TextInput
          label="Nome do dispositivo"
          description="Opcional. Ex.: notebook do trabalho."
          maxLength={60}
          {...textField(label, setLabel)}
          error={labelError}
        />
        <Group justify="flex-end" gap="xs">
          {actions}
          <Button
            type="submit"
            loading={create.isPending}
            leftSection={<IconFingerprint size={16} />}
          >
            Criar chave de acesso
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
