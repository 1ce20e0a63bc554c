/**
 * The cases of a page of the list: a table where it fits without scrolling
 * sideways (wide screens), a list of cards elsewhere (tablets, phones). Both
 * say the same things; the case number opens the case.
 */
import { Anchor, Group, Table, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { FraudCaseSummary } from '@exame/shared';
import { Link } from 'react-router';
import { CardEntry, CardFacts, CardList, ListCard } from '../../../components/list-card';
import { ListTable } from '../../../components/list-page';
import {
  formatDay,
  formatDaySpan,
  formatMoment,
  formatPercent,
  FraudCaseStatusBadge,
} from './fraud-case-parts';

export type FraudCaseListProps = { items: readonly FraudCaseSummary[]; busy: boolean };

export const caseAddress = (item: Pick<FraudCaseSummary, 'id'>) =>
  `/possiveis-fraudes/${encodeURIComponent(item.id)}`;

function CaseLink({ item }: { item: FraudCaseSummary }) {
  return (
    <Anchor component={Link} to={caseAddress(item)} fw={600} size="sm" style={nowrap}>
      Caso nº {item.number}
    </Anchor>
  );
}

/** Whether (and when) the case's exams went to the audit queue. */
function SentMark({ item }: { item: FraudCaseSummary }) {
  if (!item.sentToAuditAt) {
    return (
      <Text span size="sm" c="dimmed">
        Não
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="nowrap" component="span" title={formatMoment(item.sentToAuditAt)}>
      <IconCircleCheck size={16} aria-hidden color="var(--mantine-color-teal-8)" />
      <Text span size="sm" style={nowrap}>
        Sim, em {formatDay(item.sentToAuditAt)}
      </Text>
    </Group>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;
const posts = (item: FraudCaseSummary) => (item.posts.length ? item.posts.join(', ') : '—');

const COLUMNS = [
  'Caso nº',
  'Aberto em',
  'Exames',
  'Candidatos (CPFs)',
  'Postos',
  'Datas',
  'Maior semelhança',
  'Situação',
  'Enviado à auditoria',
] as const;

export function FraudCaseTable({ items, busy }: FraudCaseListProps) {
  return (
    <ListTable columns={COLUMNS} horizontalSpacing="xs" aria-busy={busy} data-testid="fraud-cases">
      {items.map((item) => (
        <Table.Tr key={item.id}>
          <Table.Td>
            <CaseLink item={item} />
          </Table.Td>
          <Table.Td>{formatMoment(item.createdAt)}</Table.Td>
          <Table.Td>{item.examCount}</Table.Td>
          <Table.Td>{item.candidateCount}</Table.Td>
          <Table.Td>{posts(item)}</Table.Td>
          <Table.Td>{formatDaySpan(item.firstDate, item.lastDate)}</Table.Td>
          <Table.Td style={nowrap}>{formatPercent(item.highestSimilarity)}</Table.Td>
          <Table.Td>
            <FraudCaseStatusBadge status={item.status} />
          </Table.Td>
          <Table.Td>
            <SentMark item={item} />
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}

/** One card per case: its number and status, then the same facts as the table's row. */
export function FraudCaseCards({ items, busy }: FraudCaseListProps) {
  return (
    <CardList busy={busy} data-testid="fraud-case-cards">
      {items.map((item) => (
        <ListCard key={item.id} radius="md" p="sm" data-testid="fraud-case-card">
          <Group justify="space-between" align="center" gap="xs">
            <CaseLink item={item} />
            <FraudCaseStatusBadge status={item.status} />
          </Group>
          <CardFacts>
            <CardEntry label="Aberto em">{formatMoment(item.createdAt)}</CardEntry>
            <CardEntry label="Exames">{item.examCount}</CardEntry>
            <CardEntry label="Candidatos (CPFs)">{item.candidateCount}</CardEntry>
            <CardEntry label="Postos">{posts(item)}</CardEntry>
            <CardEntry label="Datas">{formatDaySpan(item.firstDate, item.lastDate)}</CardEntry>
            <CardEntry label="Maior semelhança">{formatPercent(item.highestSimilarity)}</CardEntry>
            <CardEntry label="Enviado à auditoria">
              <SentMark item={item} />
            </CardEntry>
          </CardFacts>
        </ListCard>
      ))}
    </CardList>
  );
}
