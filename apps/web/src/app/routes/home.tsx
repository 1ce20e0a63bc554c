/**
 * `home`: the service-post dashboard for ADMIN and AUDITOR; for the other
 * roles, the menu page (a greeting and a card for each screen the role can open).
 */
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ROLE_LABELS } from '@exame/shared';
import { Link } from 'react-router';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { MyRooms } from '../../features/exam-rooms/components/my-rooms';
import { useAppState } from '../../lib/app-store';
import { menuFor } from '../navigation';

export function HomePage() {
  const user = useAppState((state) => state.user);
  // ADMIN and AUDITOR land on the service-post dashboard; other roles keep the menu page.
  if (user?.roleDescription === 'ADMIN' || user?.roleDescription === 'auditor') {
    return <DashboardPage />;
  }
  return <MenuPage />;
}

function MenuPage() {
  const user = useAppState((state) => state.user);
  const entries = menuFor(user?.roleDescription).filter((entry) => entry.to !== '/home');
  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Olá, {user?.name.split(' ')[0]}</Title>
        <Text c="dimmed">
          {user ? `${ROLE_LABELS[user.roleDescription]} · ${user.federativeUnit}` : ''}
        </Text>
      </div>
      {(user?.roleDescription === 'VIEWER' || user?.roleDescription === 'ROOM_INSPECTOR') && (
        <MyRooms />
      )}
      {entries.length === 0 ? (
        <Text c="dimmed">Nenhuma funcionalidade disponível para o seu perfil no momento.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {entries.map((entry) => (
            <Card key={entry.to} component={Link} to={entry.to} withBorder padding="lg">
              <Text fw={600}>{entry.label}</Text>
              <Text size="sm" c="dimmed">
                {entry.description}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
