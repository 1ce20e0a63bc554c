import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';

export function AccessDeniedPage() {
  return (
    <Center mih="70vh" p="lg">
      <Stack align="center" gap="sm" maw={420}>
        <IconLock size={48} aria-hidden />
        <Title order={2}>Acesso restrito</Title>
        <Text ta="center" c="dimmed">
          Esta área é exclusiva para administradores. Se você precisa de acesso, fale com o
          administrador da sua unidade.
        </Text>
        <Button component={Link} to="/home">
          Voltar ao início
        </Button>
      </Stack>
    </Center>
  );
}
