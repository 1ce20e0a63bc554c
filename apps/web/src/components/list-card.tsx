/**
 * A card of a list of cards (the narrow-screen form of a table): an `li` of
 * the `ul` it stands in, and the labelled facts (`dt`/`dd`) it shows.
 */
import { Paper, SimpleGrid, Text, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** The `ul` of a grid of cards: one column, two from `md` up; `label` names the list for screen readers. */
export function CardGrid({
  label,
  children,
  'data-testid': testId,
}: {
  label: string;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <SimpleGrid
      component="ul"
      cols={{ base: 1, md: 2 }}
      spacing="xs"
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
