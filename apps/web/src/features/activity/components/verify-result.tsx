/** The answer of the activity log's chain check: intact, or the first broken link. */
import { Alert, Stack, Text } from '@mantine/core';
import { IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import type { ActivityVerify } from '@exame/shared';
import dayjs from 'dayjs';

function formatMoment(value: string): string {
  return dayjs(value).format('DD/MM/YYYY HH:mm:ss');
}

export function VerifyResult({
  result,
  error,
  onClose,
}: {
  result: ActivityVerify | undefined;
  error: Error | null;
  onClose: () => void;
}) {
  if (error) {
    return (
      <Alert
        color="red"
        title="Não foi possível verificar"
        withCloseButton
        closeButtonLabel="Fechar"
        onClose={onClose}
      >
        {error.message}
      </Alert>
    );
  }
  if (!result) return null;
  const checked = result.checked.toLocaleString('pt-BR');
  if (result.ok) {
    return (
      <Alert
        color="teal"
        icon={<IconShieldCheck size={18} />}
        title="Registro íntegro"
        withCloseButton
        closeButtonLabel="Fechar"
        onClose={onClose}
        data-testid="verify-result"
        role="status"
      >
        {checked} {result.checked === 1 ? 'evento conferido' : 'eventos conferidos'}: nenhum foi
        alterado, apagado ou inserido fora de ordem.
      </Alert>
    );
  }
  const broken = result.firstBroken;
  return (
    <Alert
      color="red"
      icon={<IconShieldX size={18} />}
      title="Registro violado"
      withCloseButton
      closeButtonLabel="Fechar"
      onClose={onClose}
      data-testid="verify-result"
      role="alert"
    >
      <Stack gap={4}>
        <Text size="sm">
          {checked} {result.checked === 1 ? 'evento conferido' : 'eventos conferidos'}. O primeiro
          elo rompido:
        </Text>
        {broken && (
          <Text size="sm" c="red.9" fw={600}>
            evento {broken.seq}
            {broken.createdAt ? `, registrado em ${formatMoment(broken.createdAt)}` : ''}
            {broken.id ? ` (id ${broken.id})` : ''} — {broken.reason}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
