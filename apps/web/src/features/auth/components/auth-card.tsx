/**
 * The frame of the screens before sign-in (login, password links): the unit's
 * logo, a title with a line under it, the content, and the form's error.
 */
import { Alert, Center, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useAppState } from '../../../lib/app-store';
import { logoUrl } from '../../../lib/themes';

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

/** The failure of the form's last submission, announced to screen readers. */
export function AuthError({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid={testId}>
      {message}
    </Alert>
  );
}
