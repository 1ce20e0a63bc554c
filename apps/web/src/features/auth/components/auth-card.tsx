/**
 * The frame of the screens before sign-in (login, password links): the unit's
 * logo, a title with a line under it and the content; their forms.
 */
import { Alert, Center, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { useAppState } from '../../../lib/app-store';
import { logoUrl } from '../../../lib/themes';
import { identityErrorText, isAccountDisabled } from '../identity-errors';

export function AuthCard({
  title,
  subtitle,
  width,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  width: number;
  children: ReactNode;
}) {
  const theme = useAppState((state) => state.theme);
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" radius="lg" w="100%" maw={width}>
        <Stack gap="md">
          <Image src={logoUrl(theme)} h={56} w="auto" fit="contain" alt="Exame Teórico" />
          <div>
            <Title order={2} size="h3">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {subtitle}
            </Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/**
 * A form of these screens: its fields, with the failure of its last
 * submission above them in the pt-BR of the identity errors, announced to
 * screen readers.
 */
export function AuthForm({
  onSubmit,
  error,
  errorTestId,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  error: Error | null;
  errorTestId: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {error && <IdentityErrorAlert error={error} testId={errorTestId} />}
        {children}
      </Stack>
    </form>
  );
}

/** A failed identity call, in its pt-BR text; a disabled account is named as such. */
export function IdentityErrorAlert({ error, testId }: { error: Error; testId: string }) {
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={18} />}
      title={isAccountDisabled(error) ? 'Conta desativada' : undefined}
      role="alert"
      data-testid={testId}
    >
      {identityErrorText(error)}
    </Alert>
  );
}
