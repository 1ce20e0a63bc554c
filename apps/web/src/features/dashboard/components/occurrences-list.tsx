/** The occurrences of the period's exams, newest first, for every post or the selected one. */
import { Badge, Group, Pagination, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { QueryContent } from '../../../components/query-content';
import { occurrencesQuery, type Period } from '../api/dashboard';

const PAGE_SIZE = 10;

/** `rosto_ausente` -> `Rosto ausente`: types come from the delivery system as identifiers. */
export function occurrenceTypeLabel(type: string): string {
  const text = type.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type OccurrencesListProps = {
  period: Period | null;
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
            {data.total === 1 ? '1 ocorrência' : `${data.total} ocorrências`}
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
          {(page) => (
            <Table.ScrollContainer minWidth={720}>
              <Table striped verticalSpacing="xs" aria-busy={query.isFetching}>
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
                  {page.items.map((occurrence) => (
                    <Table.Tr key={occurrence.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {dayjs(occurrence.occurredAt).format('DD/MM/YYYY HH:mm')}
                      </Table.Td>
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
                      <Table.Td>{occurrence.description}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
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
