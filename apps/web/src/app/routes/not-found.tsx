import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center mih="70vh" p="lg">
      <Stack align="center" gap="sm" maw={420}>
        <IconMapOff size={48} aria-hidden />
        <Title order={2}>Página não encontrada</Title>
        <Text ta="center" c="dimmed">
          O endereço acessado não existe ou foi alterado.
        </Text>
        <Button component={Link} to="/">
          Ir para o início
        </Button>
      </Stack>
    </Center>
  );
}
