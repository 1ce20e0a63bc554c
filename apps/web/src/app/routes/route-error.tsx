/** Shown when a screen fails to render: a message for the person, the detail in the console. */
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { currentPageTarget, errorDetails, recordError } from '../../lib/activity/activity-log';

export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.error('[tela] erro ao exibir a página', error);
    recordError(currentPageTarget(), { kind: 'render', ...errorDetails(error) });
  }, [error]);
  return (
    <Center mih="70vh" p="lg">
      <Stack align="center" gap="sm" maw={460}>
        <Title order={2}>Algo deu errado</Title>
        <Text ta="center" c="dimmed">
          Não foi possível exibir esta página. Recarregue e, se o problema continuar, avise o
          suporte.
        </Text>
        <Button onClick={() => window.location.reload()}>Recarregar</Button>
      </Stack>
    </Center>
  );
}
