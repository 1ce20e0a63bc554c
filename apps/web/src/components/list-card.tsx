/**
 * A card of a list of cards (the narrow-screen form of a table): an `li` of
 * the `ul` it stands in, and the labelled facts (`dt`/`dd`) it shows.
 */
import { Paper, Text, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';

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
