/** The answer of the activity log's chain check: intact, or the first broken link. */
import { Alert, Stack, Text, type AlertProps } from '@mantine/core';
import { IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import type { ActivityVerify } from '@exame/shared';
import dayjs from 'dayjs';

function formatMoment(value: string): string {
  return dayjs(value).format('DD/MM/YYYY HH:mm:ss');
}

/** An alert the person closes with "Fechar". */
function ClosableAlert(props: AlertProps & { onClose: () => void; 'data-testid'?: string }) {
  return <Alert withCloseButton closeButtonLabel="Fechar" {...props} />;
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
      <ClosableAlert color="red" title="Não foi possível verificar" onClose={onClose}>
        {error.message}
      </ClosableAlert>
    );
  }
  if (!result) return null;
  const checked = `${result.checked.toLocaleString('pt-BR')} ${
    result.checked === 1 ? 'evento conferido' : 'eventos conferidos'
  }`;
  const broken = result.firstBroken;
  return (
    <ClosableAlert
      color={result.ok ? 'teal' : 'red'}
      icon={result.ok ? <IconShieldCheck size={18} /> : <IconShieldX size={18} />}
      title={result.ok ? 'Registro íntegro' : 'Registro violado'}
      onClose={onClose}
      data-testid="verify-result"
      role={result.ok ? 'status' : 'alert'}
    >
      {result.ok ? (
        `${checked}: nenhum foi alterado, apagado ou inserido fora de ordem.`
      ) : (
        <Stack gap={4}>
          <Text size="sm">{checked}. O primeiro elo rompido:</Text>
          {broken && (
            <Text size="sm" c="red.9" fw={600}>
              evento {broken.seq}
              {broken.createdAt ? `, registrado em ${formatMoment(broken.createdAt)}` : ''}
              {broken.id ? ` (id ${broken.id})` : ''} — {broken.reason}
            </Text>
          )}
        </Stack>
      )}
    </ClosableAlert>
  );
}
