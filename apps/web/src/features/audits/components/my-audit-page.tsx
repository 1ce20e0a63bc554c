/**
 * My audit (spec 2; route `minha-auditoria`): the exams the auditor holds
 * now, with until when, and the decisions they made, newest first.
 */
import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { AUDIT_DECISION_STATE_LABELS, EXAM_RESULT_LABELS } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { myAuditQuery } from '../api/audits';
import { SectionCard } from '../../../components/section-card';

const format = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

export function MyAuditPage() {
  const mine = useQuery(myAuditQuery);
  return (
    <Stack gap="md">
      <ListPageHeader
        title="Minha auditoria"
        description="Os exames que você audita agora e as decisões que tomou."
      />
      <QueryContent
        query={mine}
        loadingLabel="Carregando a sua auditoria"
        isEmpty={() => false}
        empty={null}
      >
        {(data) => (
          <Stack gap="md">
            <SectionCard title="Em auditoria com você">
              {data.holding.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Nenhum exame com você agora. Escolha um na{' '}
                  <Anchor component={Link} to="/auditoria">
                    fila de auditoria
                  </Anchor>
                  .
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={600}>
                  <Table striped data-testid="my-holding">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Agendamento</Table.Th>
                        <Table.Th>Desde</Table.Th>
                        <Table.Th>Até</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.holding.map((claim) => (
                        <Table.Tr key={claim.examId}>
                          <Table.Td>
                            <Anchor component={Link} to={`/auditoria/${claim.examId}`}>
                              {claim.schedulingId}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{format(claim.claimedAt)}</Table.Td>
                          <Table.Td>{format(claim.expiresAt)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </SectionCard>
            <SectionCard title="Minhas decisões">
              {data.decided.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Você ainda não decidiu nenhum exame.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={700}>
                  <Table striped data-testid="my-decisions">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Quando</Table.Th>
                        <Table.Th>Candidato</Table.Th>
                        <Table.Th>Decisão</Table.Th>
                        <Table.Th>Situação</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.decided.map((decision) => (
                        <Table.Tr key={`${decision.examId}-${decision.decidedAt}`}>
                          <Table.Td>{format(decision.decidedAt)}</Table.Td>
                          <Table.Td>
                            <Anchor component={Link} to={`/auditoria/${decision.examId}`}>
                              {decision.candidateName}
                            </Anchor>
                            <Text size="xs" c="dimmed">
                              {decision.schedulingId}
                            </Text>
                          </Table.Td>
                          <Table.Td>{EXAM_RESULT_LABELS[decision.outcome]}</Table.Td>
                          <Table.Td>
                            <Badge variant="light" color="gray">
                              {AUDIT_DECISION_STATE_LABELS[decision.state]}
                            </Badge>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </SectionCard>
          </Stack>
        )}
      </QueryContent>
    </Stack>
  );
}
