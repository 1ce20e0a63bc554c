/** The occurrences of the period's exams, newest first, for every post or the selected one. */
import { Badge, Group, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReportOccurrencePage } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { QueryContent } from '../../../components/query-content';
import { useWideTables } from '../../../lib/use-wide-tables';
import type { ReportPeriod } from '../../../api/report-queries';
import { occurrencesQuery } from '../api/dashboard';

const PAGE_SIZE = 10;

/** `rosto_ausente` -> `Rosto ausente`: types come from the delivery system as identifiers. */
export function occurrenceTypeLabel(type: string): string {
  const text = type.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type OccurrencesListProps = {
  period: ReportPeriod | null;
  local: { id: string; name: string } | null;
  version: number;
};

export function OccurrencesList(props: OccurrencesListProps) {
  // A new period or post starts again on the first page.
  const key = `${props.period?.startDate}|${props.period?.endDate}|${props.local?.id ?? ''}`;
  return <OccurrencesPage key={key} {...props} />;
}

function OccurrencesPage({ period, local, version }: OccurrencesListProps) {
  const [page, setPage] = useState(1);
  const wide = useWideTables();
  const query = useQuery({
    ...occurrencesQuery({
      startDate: period?.startDate ?? '',
      endDate: period?.endDate ?? '',
      localId: local?.id ?? null,
      page,
      pageSize: PAGE_SIZE,
      version,
    }),
    enabled: period !== null,
  });
  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ocorrencias-titulo">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="ocorrencias-titulo">
          Ocorrências do período{local ? ` — ${local.name}` : ''}
        </Title>
        {data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {data.totalCapped
              ? `mais de ${data.total.toLocaleString('pt-BR')} ocorrências`
              : data.total === 1
                ? '1 ocorrência'
                : `${data.total.toLocaleString('pt-BR')} ocorrências`}
          </Text>
        )}
      </Group>
      {period === null ? (
        <Text c="dimmed" size="sm">
          Selecione o período para ver as ocorrências.
        </Text>
      ) : (
        <QueryContent
          query={query}
          loadingLabel="Carregando ocorrências"
          isEmpty={(page) => page.items.length === 0}
          empty={`Nenhuma ocorrência registrada no período${local ? ' para este posto' : ''}.`}
          compact
        >
          {(page) =>
            wide ? (
              <OccurrenceTable items={page.items} busy={query.isFetching} />
            ) : (
              <OccurrenceCards items={page.items} />
            )
          }
        </QueryContent>
      )}
      {data && data.total > PAGE_SIZE && (
        <Group justify="flex-end" mt="sm">
          <Pagination
            total={totalPages}
            value={page}
            onChange={setPage}
            size="sm"
            aria-label="Páginas de ocorrências"
          />
        </Group>
      )}
    </Paper>
  );
}

type Occurrence = ReportOccurrencePage['items'][number];

function when(occurrence: Occurrence): string {
  return dayjs(occurrence.occurredAt).format('DD/MM/YYYY HH:mm');
}

function OccurrenceTable({ items, busy }: { items: readonly Occurrence[]; busy: boolean }) {
  return (
    <Table striped verticalSpacing="xs" aria-busy={busy} data-testid="occurrences-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Data e hora</Table.Th>
          <Table.Th>Posto</Table.Th>
          <Table.Th>Candidato</Table.Th>
          <Table.Th>Tipo</Table.Th>
          <Table.Th>Descrição</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((occurrence) => (
          <Table.Tr key={occurrence.id}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(occurrence)}</Table.Td>
            <Table.Td>{occurrence.localName}</Table.Td>
            <Table.Td>
              {occurrence.candidateName}
              <Text size="xs" c="dimmed">
                {occurrence.schedulingId}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color="orange">
                {occurrenceTypeLabel(occurrence.type)}
              </Badge>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{occurrence.description}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Where the table would scroll sideways (tablets, phones): one card per occurrence. */
function OccurrenceCards({ items }: { items: readonly Occurrence[] }) {
  return (
    <Stack gap="xs" component="ul" p={0} m={0} data-testid="occurrences-cards">
      {items.map((occurrence) => (
        <Paper
          key={occurrence.id}
          component="li"
          withBorder
          radius="sm"
          p="xs"
          style={{ listStyle: 'none', minWidth: 0 }}
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {when(occurrence)}
            </Text>
            <Badge variant="light" color="orange" maw="100%">
              {occurrenceTypeLabel(occurrence.type)}
            </Badge>
          </Group>
          <Text size="sm">
            {occurrence.candidateName}{' '}
            <Text span size="xs" c="dimmed">
              {occurrence.schedulingId}
            </Text>
          </Text>
          <Text size="xs" c="dimmed">
            {occurrence.localName}
          </Text>
          <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
            {occurrence.description}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}
