/** A way back to the app from the screens that stand outside the shell (admin-guarded pages). */
import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

export function BackHome({
  to = '/home',
  label = 'Voltar ao início',
}: {
  to?: string;
  label?: string;
}) {
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={16} aria-hidden /> {label}
      </Group>
    </Anchor>
  );
}
