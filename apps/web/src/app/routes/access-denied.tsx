/** The page a signed-in user sees on a screen of other profiles: which profiles may open it. */
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { ROLE_LABELS, type Role } from '@exame/shared';
import { Link } from 'react-router';

/** `Administrador`, `Administrador e Auditor`, `A, B e C`. */
export function listProfiles(roles: readonly Role[]): string {
  const labels = roles.map((role) => ROLE_LABELS[role]);
  if (labels.length <= 1) return labels[0] ?? '';
  return `${labels.slice(0, -1).join(', ')} e ${labels[labels.length - 1]}`;
}

export function AccessDeniedPage({ roles }: { roles: readonly Role[] }) {
  const plural = roles.length > 1;
  return (
    <Center mih="70vh" p="lg">
      <Stack align="center" gap="sm" maw={460}>
        <IconLock size={48} aria-hidden />
        <Title order={2}>Acesso restrito</Title>
        <Text ta="center" c="dimmed" data-testid="allowed-profiles">
          Esta página é para {plural ? 'os perfis' : 'o perfil'}{' '}
          <strong>{listProfiles(roles)}</strong>. Se você precisa de acesso, fale com o
          administrador da sua unidade.
        </Text>
        <Button component={Link} to="/home">
          Voltar ao início
        </Button>
      </Stack>
    </Center>
  );
}
