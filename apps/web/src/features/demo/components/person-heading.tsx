/**
 * The top of a person's card on the demonstration screens: the name, a
 * dimmed line under it (the masked CPF and what the person is) and, on the
 * right, a badge with the state of their enrolment or consent.
 */
import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function PersonHeading({
  name,
  detail,
  badge,
}: {
  name: string;
  detail: ReactNode;
  badge?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start">
      <div>
        <Text fw={700} size="lg">
          {name}
        </Text>
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      </div>
      {badge}
    </Group>
  );
}
