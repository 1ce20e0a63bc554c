/** An exam's occurrences, oldest first as the server lists them: the exam page and the audit show the same card. */
import { Badge, Group, Image, Stack, Text } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import type { ExamOccurrence } from '@exame/shared';
import dayjs from 'dayjs';
import { SectionCard } from './section-card';

const when = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

export function OccurrencesCard({ occurrences }: { occurrences: readonly ExamOccurrence[] }) {
  return (
    <SectionCard title="Ocorrências">
      {occurrences.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nenhuma ocorrência registrada.
        </Text>
      ) : (
        <Stack gap="sm" data-testid="occurrences">
          {occurrences.map((occurrence) => (
            <Group key={occurrence.id} align="flex-start" wrap="nowrap" gap="md">
              <IconFlag size={18} aria-hidden />
              <div style={{ flex: 1 }}>
                <Group gap="xs">
                  <Badge variant="light" color="orange">
                    {occurrence.type}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {when(occurrence.occurredAt)}
                  </Text>
                </Group>
                <Text size="sm">{occurrence.description}</Text>
              </div>
              {occurrence.photoUrl && (
                <Image
                  src={occurrence.photoUrl}
                  w={120}
                  radius="sm"
                  alt={`Foto da ocorrência: ${occurrence.description}`}
                />
              )}
            </Group>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
