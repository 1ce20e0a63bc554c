/**
 * Shown while the code of a screen is still arriving (each screen is its own
 * script, fetched the first time it opens). A status region, so a screen
 * reader announces "Carregando…"; it fades in only after a short wait, so a
 * screen that arrives at once does not flash a spinner.
 */
import { Center, Group, Loader, Text } from '@mantine/core';

export function PageLoader() {
  return (
    <Center mih="40vh" p="lg" className="page-loader" data-testid="page-loader">
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text>Carregando…</Text>
      </Group>
    </Center>
  );
}
