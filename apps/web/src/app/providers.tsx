/** Providers of the whole app: theme, dates in pt-BR, server state, toasts and the alert modal. */
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import { useMemo, useState, type ReactNode } from 'react';
import { AlertModalProvider } from '../components/alert-modal/alert-modal';
import { ReauthDialog } from '../components/reauth-dialog';
import { ApiError } from '../lib/api-client';
import { useAppState } from '../lib/app-store';
import { cssVariablesResolver, mantineThemeFor } from '../lib/themes';

dayjs.locale('pt-br');

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by trying again.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status !== null && error.status < 500) &&
          failureCount < 2,
      },
    },
  });
}

export function AppProviders({
  children,
  queryClient,
  env = 'default',
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off transitions and portals (Mantine's test mode). */
  env?: 'default' | 'test';
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const themeName = useAppState((state) => state.theme);
  const theme = useMemo(() => mantineThemeFor(themeName), [themeName]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      env={env}
    >
      <DatesProvider settings={{ locale: 'pt-br', firstDayOfWeek: 0, weekendDays: [0, 6] }}>
        <QueryClientProvider client={client}>
          {/*
           * Bottom right: a toast covers neither the header (the user's name, "Sair")
           * nor the actions at the top of a screen.
           */}
          <Notifications position="bottom-right" zIndex={1000} />
          <AlertModalProvider>
            {children}
            <ReauthDialog />
          </AlertModalProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
