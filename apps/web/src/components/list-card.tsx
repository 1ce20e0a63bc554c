/**
 * A card of a list of cards (the narrow-screen form of a table): an `li` of
 * the `ul` it stands in, and the labelled facts (`dt`/`dd`) it shows.
 */
import {
  Paper,
  SimpleGrid,
  Stack,
  Text,
  type MantineSpacing,
  type PaperProps,
  type SimpleGridProps,
} from '@mantine/core';
import type { ReactNode } from 'react';

/** The `ul` of a grid of cards: one column, two from `md` up; `label` names the list for screen readers. */
export function CardGrid({
  label,
  spacing = 'xs',
  children,
  'data-testid': testId,
}: {
  label: string;
  /** The gap between the cards. */
  spacing?: MantineSpacing;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <SimpleGrid
      component="ul"
      cols={{ base: 1, md: 2 }}
      spacing={spacing}
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={label}
      data-testid={testId}
    >
      {children}
    </SimpleGrid>
  );
}

/** The `ul` of a column of cards, the narrow-screen form of a list's table; `busy` while its page is read again. */
export function CardList({
  busy,
  children,
  'data-testid': testId,
}: {
  busy: boolean;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Stack gap="sm" aria-busy={busy} data-testid={testId} component="ul" p={0} m={0}>
      {children}
    </Stack>
  );
}

export function ListCard({
  children,
  ...props
}: Omit<PaperProps, 'component' | 'style'> & { children: ReactNode; 'data-testid'?: string }) {
  return (
    <Paper component="li" withBorder style={{ listStyle: 'none' }} {...props}>
      {children}
    </Paper>
  );
}

/** One fact of a card, inside a `dl`: its small label over its value. */
export function CardEntry({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The facts of a card: a `dl` grid of `CardEntry`s under the card's head, two
 * columns (three from `xs`) unless `cols` says otherwise.
 */
export function CardFacts({
  children,
  ...props
}: Omit<SimpleGridProps, 'component' | 'children'> & { children: ReactNode }) {
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 2, xs: 3 }}
      spacing="xs"
      verticalSpacing="xs"
      mt="xs"
      mb={0}
      {...props}
    >
      {children}
    </SimpleGrid>
  );
}
