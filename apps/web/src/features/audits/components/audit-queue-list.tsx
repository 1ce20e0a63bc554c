/**
 * The exams of the audit queue: a table where it fits without scrolling
 * sideways (wide screens), a list of cards elsewhere (tablets, phones). Both
 * say the same things with the same cells.
 */
import { Button, Group, Table, Text } from '@mantine/core';
import { maskCpf, type AuditQueueItem } from '@exame/shared';
import { CardEntry, CardFacts, CardList, ListCard } from '../../../components/list-card';
import { ACTIONS_COLUMN, ListTable } from '../../../components/list-page';
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

const COLUMNS = [
  'Data',
  'Candidato',
  'CPF',
  'Posto',
  'Ocorrências',
  'Capturas',
  'Menor semelhança',
  'Situação',
  ACTIONS_COLUMN,
];

export function QueueTable({ items, audits, busy, onOpen }: QueueListProps) {
  return (
    <ListTable columns={COLUMNS} horizontalSpacing="xs" aria-busy={busy} data-testid="audit-queue">
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
    </ListTable>
  );
}

/** One card per exam: who, when, where, then what the auditor weighs. */
export function QueueCards({ items, audits, busy, onOpen }: QueueListProps) {
  return (
    <CardList busy={busy} data-testid="audit-queue-cards">
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
          <CardFacts>
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
          </CardFacts>
        </ListCard>
      ))}
    </CardList>
  );
}
