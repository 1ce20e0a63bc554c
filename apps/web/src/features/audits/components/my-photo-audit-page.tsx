/**
 * My photo audit (spec 2; route `minha-auditoria-de-fotos`): the exams whose
 * captures the auditor marked, with how many and how many incompatible.
 */
import { Anchor, Badge, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { myPhotoAuditQuery } from '../api/audits';

export function MyPhotoAuditPage() {
  const mine = useQuery(myPhotoAuditQuery);
  return (
    <Stack gap="md">
      <ListPageHeader
        title="Minha auditoria de fotos"
        description="Os exames cujas capturas você marcou como compatíveis ou incompatíveis com a foto de referência."
      />
      <QueryContent
        query={mine}
        loadingLabel="Carregando a sua auditoria de fotos"
        isEmpty={(rows) => rows.length === 0}
        empty={
          <Text size="sm" c="dimmed">
            Você ainda não marcou capturas. Abra um exame da{' '}
            <Anchor component={Link} to="/auditoria">
              fila de auditoria
            </Anchor>{' '}
            e escolha “Auditoria de fotos”.
          </Text>
        }
      >
        {(rows) => (
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={700}>
              <Table striped data-testid="my-photo-audits">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Última marcação</Table.Th>
                    <Table.Th>Candidato</Table.Th>
                    <Table.Th>Marcadas</Table.Th>
                    <Table.Th>Incompatíveis</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.examId}>
                      <Table.Td>{dayjs(row.lastMarkedAt).format('DD/MM/YYYY HH:mm')}</Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={`/photo-audit/${row.examId}`}>
                          {row.candidateName}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {row.schedulingId}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {row.marked} de {row.captures}
                      </Table.Td>
                      <Table.Td>
                        {row.incompatible > 0 ? (
                          <Badge color="red" variant="light">
                            {row.incompatible}
                          </Badge>
                        ) : (
                          0
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </QueryContent>
    </Stack>
  );
}
