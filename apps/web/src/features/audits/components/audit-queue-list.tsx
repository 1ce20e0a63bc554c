/**
 * The exams of the audit queue: a table where it fits without scrolling
 * sideways (wide screens), a list of cards elsewhere (tablets, phones). Both
 * say the same things with the same cells.
 */
import { Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { maskCpf, type AuditQueueItem } from '@exame/shared';
import { CardEntry, ListCard } from '../../../components/list-card';
import {
  QueueDate,
  QueueFace,
  QueueOccurrences,
  QueuePost,
  QueueSituation,
} from './audit-queue-cells';

export type QueueListProps = {
  items: readonly AuditQueueItem[];
  /** Auditors audit ("Auditar"); ADMIN reads ("Ver"). */
  audits: boolean;
  busy: boolean;
  onOpen: (item: AuditQueueItem) => void;
};

function OpenButton({
  item,
  audits,
  onOpen,
}: Omit<QueueListProps, 'items' | 'busy'> & { item: AuditQueueItem }) {
  const verb = audits ? 'Auditar' : 'Ver';
  return (
    <Button
      size="xs"
      variant={audits ? 'filled' : 'default'}
      onClick={() => onOpen(item)}
      aria-label={`${verb} o exame de ${item.candidateName}`}
    >
      {verb}
    </Button>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;

export function QueueTable({ items, audits, busy, onOpen }: QueueListProps) {
  return (
    <Table
      striped
      highlightOnHover
      verticalSpacing="sm"
      horizontalSpacing="xs"
      aria-busy={busy}
      data-testid="audit-queue"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Data</Table.Th>
          <Table.Th>Candidato</Table.Th>
          <Table.Th>CPF</Table.Th>
          <Table.Th>Posto</Table.Th>
          <Table.Th>Ocorrências</Table.Th>
          <Table.Th>Capturas</Table.Th>
          <Table.Th>Menor semelhança</Table.Th>
          <Table.Th>Situação</Table.Th>
          <Table.Th aria-label="Ações" />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.id}>
            <Table.Td>
              <QueueDate item={item} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={500}>
                {item.candidateName}
              </Text>
              <Text size="xs" c="dimmed">
                {item.schedulingId}
              </Text>
            </Table.Td>
            <Table.Td style={nowrap}>{maskCpf(item.candidateCpf)}</Table.Td>
            <Table.Td>
              <QueuePost item={item} />
            </Table.Td>
            <Table.Td>
              <QueueOccurrences item={item} />
            </Table.Td>
            <Table.Td>{item.photos}</Table.Td>
            <Table.Td>
              <QueueFace item={item} />
            </Table.Td>
            <Table.Td>
              <QueueSituation item={item} />
            </Table.Td>
            <Table.Td>
              <OpenButton item={item} audits={audits} onOpen={onOpen} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One card per exam: who, when, where, then what the auditor weighs. */
export function QueueCards({ items, audits, busy, onOpen }: QueueListProps) {
  return (
    <Stack gap="sm" aria-busy={busy} data-testid="audit-queue-cards" component="ul" p={0} m={0}>
      {items.map((item) => (
        <ListCard key={item.id} radius="md" p="sm" data-testid="audit-queue-card">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text fw={600} size="sm">
                {item.candidateName}
              </Text>
              <Text size="xs" c="dimmed">
                {item.schedulingId} · <span style={nowrap}>{maskCpf(item.candidateCpf)}</span>
              </Text>
            </div>
            <OpenButton item={item} audits={audits} onOpen={onOpen} />
          </Group>
          <SimpleGrid
            component="dl"
            cols={{ base: 2, xs: 3 }}
            spacing="xs"
            verticalSpacing="xs"
            mt="xs"
            mb={0}
          >
            <CardEntry label="Data">
              <QueueDate item={item} />
            </CardEntry>
            <CardEntry label="Posto">
              <QueuePost item={item} />
            </CardEntry>
            <CardEntry label="Ocorrências">
              <QueueOccurrences item={item} />
            </CardEntry>
            <CardEntry label="Capturas">{item.photos}</CardEntry>
            <CardEntry label="Menor semelhança">
              <QueueFace item={item} />
            </CardEntry>
            <CardEntry label="Situação">
              <QueueSituation item={item} />
            </CardEntry>
          </SimpleGrid>
        </ListCard>
      ))}
    </Stack>
  );
}
