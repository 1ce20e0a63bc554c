/**
 * The states every data panel has: loading (spinner), error (red alert titled
 * 'Erro' with the message), empty (a pt-BR sentence), or the content.
 * `compact` suits a panel inside a page (a smaller spinner, small text).
 */
import { Alert, Center, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingSpinner } from './loading-spinner';

export function QueryContent<T>({
  query,
  loadingLabel,
  isEmpty,
  empty,
  compact = false,
  children,
}: {
  query: UseQueryResult<T, Error>;
  loadingLabel: string;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  compact?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <Center p={compact ? 'lg' : 'xl'}>
        <LoadingSpinner size={compact ? 'sm' : undefined} label={loadingLabel} />
      </Center>
    );
  }
  if (query.isError && query.data !== undefined) {
    // A background refresh failed: what was read stays on screen, with the reason.
    return (
      <>
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          m={compact ? 0 : 'md'}
          title="Não foi possível atualizar"
          data-testid="refresh-error"
        >
          {query.error.message} Os dados abaixo podem estar desatualizados.
        </Alert>
        {isEmpty(query.data) ? (
          <Text c="dimmed" size="sm" p={compact ? 0 : 'xl'} ta={compact ? undefined : 'center'}>
            {empty}
          </Text>
        ) : (
          children(query.data)
        )}
      </>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} m={compact ? 0 : 'md'} title="Erro">
        {query.error.message}
      </Alert>
    );
  }
  if (isEmpty(query.data)) {
    return compact ? (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    ) : (
      <Text p="xl" ta="center" c="dimmed">
        {empty}
      </Text>
    );
  }
  return <>{children(query.data)}</>;
}
