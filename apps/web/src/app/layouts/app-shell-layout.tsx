/** The authenticated shell at /: header with logo, page title and user; side menu per role. */
import {
  AppShell,
  Avatar,
  Burger,
  Button,
  Group,
  Image,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { ROLE_LABELS } from '@exame/shared';
import { NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { logout, sessionQuery } from '../../features/auth/api/auth';
import { PageLoader } from '../../components/page-loader';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link';
import { useAppState } from '../../lib/app-store';
import { logoUrl } from '../../lib/themes';
import { menuFor } from '../navigation';
import { RequireUser } from './require-user';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return `${parts[0]?.[0] ?? ''}${parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : ''}`.toUpperCase();
}

export function AppShellLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const user = useAppState((state) => state.user);
  const theme = useAppState((state) => state.theme);
  const pageTitle = useAppState((state) => state.pageTitle);
  const entries = menuFor(user?.roleDescription);
  // Start: the stored user restores the session; the server confirms it is still valid
  // (a 401 clears it through the API client and RequireUser sends the visitor to login).
  useQuery({ ...sessionQuery, enabled: user !== null });

  return (
    <RequireUser>
      <SkipLink />
      <AppShell
        header={{ height: 64 }}
        navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Abrir menu"
              />
              <Image src={logoUrl(theme)} h={40} w="auto" alt="Exame Teórico" />
              {pageTitle && (
                <Title order={1} size="h4" visibleFrom="sm" ml="md">
                  {pageTitle}
                </Title>
              )}
            </Group>
            {user && (
              <Group gap="sm" wrap="nowrap">
                <Avatar color="brand" radius="xl" aria-hidden>
                  {initials(user.name)}
                </Avatar>
                <Stack gap={0} visibleFrom="sm">
                  <Text size="sm" fw={600}>
                    {user.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {ROLE_LABELS[user.roleDescription]} · {user.federativeUnit}
                  </Text>
                </Stack>
                <Button
                  variant="subtle"
                  leftSection={<IconLogout size={16} />}
                  onClick={() => void logout()}
                >
                  Sair
                </Button>
              </Group>
            )}
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Menu principal">
          <ScrollArea>
            {entries.map((entry) => (
              <NavLink
                key={entry.to}
                component={RouterNavLink}
                to={entry.to}
                label={entry.label}
                description={entry.description}
                onClick={close}
              />
            ))}
          </ScrollArea>
        </AppShell.Navbar>
        {/* Focusable by script only: where the skip link sends the keyboard. */}
        <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
          {/* Inside the shell: the header and the menu stay while a screen's code arrives. */}
          <Suspense fallback={<PageLoader />}>
            <div key={location.pathname} className="page-fade">
              <Outlet />
            </div>
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </RequireUser>
  );
}
