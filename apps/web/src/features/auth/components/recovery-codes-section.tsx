/**
 * The recovery codes of the security page: how many are left, and a new
 * set after a confirmation (the old ones stop working), shown once.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { RECOVERY_CODE_COUNT } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { regenerateRecoveryCodes, secondFactorsQuery } from '../api/second-factor';
import { identityErrorText } from '../identity-errors';
import { RecoveryCodesPanel } from './recovery-codes-panel';

function leftText(left: number): string {
  if (left === 0) return 'Nenhum código de recuperação disponível.';
  if (left === 1) return 'Resta 1 código de recuperação.';
  return `Restam ${left} de ${RECOVERY_CODE_COUNT} códigos de recuperação.`;
}

export function RecoveryCodesSection({ left, hasFactor }: { left: number; hasFactor: boolean }) {
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorsQuery.queryKey }),
    onError: (error) => toast.error(identityErrorText(error)),
  });
  const confirm = () =>
    showAlert({
      icon: 'warning',
      title: 'Gerar novos códigos',
      message:
        'Os códigos de recuperação atuais deixam de funcionar assim que os novos forem gerados. Continuar?',
      actions: [
        { label: 'Cancelar' },
        { label: 'Gerar novos códigos', onClick: () => regenerate.mutate() },
      ],
    });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="recovery-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="recovery-title">
          Códigos de recuperação
        </Title>
        <Text size="sm">
          Abrem a sua conta se você perder o celular ou a chave de acesso. Cada código funciona uma
          única vez.
        </Text>
        <Text size="sm" fw={600} data-testid="recovery-codes-left">
          {leftText(left)}
        </Text>
        <Group>
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            onClick={confirm}
            loading={regenerate.isPending}
            disabled={!hasFactor}
          >
            Gerar novos códigos
          </Button>
        </Group>
        {!hasFactor && (
          <Text size="xs" c="dimmed">
            Cadastre um segundo fator para ter códigos de recuperação.
          </Text>
        )}
      </Stack>
      <AppModal
        opened={regenerate.data !== undefined}
        onClose={() => regenerate.reset()}
        title="Novos códigos de recuperação"
        width="440px"
      >
        {regenerate.data && (
          <RecoveryCodesPanel
            codes={regenerate.data}
            doneLabel="Concluir"
            onDone={() => regenerate.reset()}
          />
        )}
      </AppModal>
    </Paper>
  );
}
