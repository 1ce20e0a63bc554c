/** The head of an exam's card in the examiner's lists: the candidate, the CPF and the time. */
import { Group, Stack, Text } from '@mantine/core';

export function ExamCardHead({ name, cpf, time }: { name: string; cpf: string; time: string }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text fw={600} size="sm">
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          CPF {cpf}
        </Text>
      </Stack>
      <Text fw={600} size="sm" style={{ flexShrink: 0 }}>
        {time}
      </Text>
    </Group>
  );
}
