/**
 * The exams behind one counter of the report, paginated on the server: opened
 * from the per-post report and from the dashboard. A table where it fits, a
 * card per exam where it would scroll sideways.
 */
import {
  Alert,
  Badge,
  CloseButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  ALL_LOCALS_ID,
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  REPORT_COUNTER_LABELS,
  type LocalReport,
  type ReportCounter,
  type ReportExam,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useRef } from 'react';
import { counterExamsQuery, type ReportPeriod } from '../api/report-queries';
import { useWideTables } from '../lib/use-wide-tables';
import { CardEntry, ListCard } from './list-card';
import { usePaging } from './list-page';
import { PaginationFooter } from './pagination-footer';
import { QueryContent } from './query-content';

const numberFormat = new Intl.NumberFormat('pt-BR');

export type CounterExamsProps = {
  period: ReportPeriod;
  local: LocalReport;
  counter: ReportCounter;
  onClose: () => void;
};

export function CounterExams({ period, local, counter, onClose }: CounterExamsProps) {
  const paging = usePaging(20);
  const heading = useRef<HTMLHeadingElement>(null);
  const query = useQuery(
    counterExamsQuery({
      ...period,
      localId: local.id,
      counter,
      page: paging.page,
      pageSize: paging.pageSize,
    }),
  );
  useEffect(() => {
    // Keyboard and screen-reader users land on the list they just opened.
    heading.current?.focus();
  }, []);
  const data = query.data;
  const localName = local.id === ALL_LOCALS_ID ? 'todos os postos' : local.name;
  const wide = useWideTables();

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="exames-titulo">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id="exames-titulo" ref={heading} tabIndex={-1}>
              {REPORT_COUNTER_LABELS[counter]} — {localName}
            </Title>
            {data && (
              <Text size="sm" c="dimmed">
                {data.total === 1 ? '1 exame' : `${numberFormat.format(data.total)} exames`} · valor
                do contador: {numberFormat.format(data.counterValue)}
              </Text>
            )}
          </div>
          <CloseButton onClick={onClose} aria-label="Fechar a lista de exames" />
        </Group>
        {data && data.counterValue !== data.total && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
            Este contador soma a situação do exame e os indicadores que o sistema de provas informa
            nos metadados do exame (pendência de auditoria, ausência, interrupção); por isso um
            exame pode contar mais de uma vez — veja “Conta”.
          </Alert>
        )}
        <QueryContent
          query={query}
          loadingLabel="Carregando exames"
          isEmpty={(page) => page.items.length === 0}
          empty="Nenhum exame neste contador."
          compact
        >
          {(page) => (wide ? <ExamsTable items={page.items} /> : <ExamCards items={page.items} />)}
        </QueryContent>
        {data && (
          <PaginationFooter
            total={data.total}
            page={paging.page}
            pageSize={paging.pageSize}
            noun={['exame', 'exames']}
            onPage={paging.setPage}
            onPageSize={paging.setPageSize}
          />
        )}
      </Stack>
    </Paper>
  );
}

const when = (exam: ReportExam) => dayjs(exam.schedulingDate).format('DD/MM/YYYY HH:mm');
const place = (exam: ReportExam) => [exam.room, exam.station].filter(Boolean).join(' · ') || '—';
const result = (exam: ReportExam) => (exam.result ? EXAM_RESULT_LABELS[exam.result] : '—');

function ExamsTable({ items }: { items: readonly ReportExam[] }) {
  return (
    <Table striped verticalSpacing="xs" horizontalSpacing="xs" data-testid="counter-exams">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Agendamento</Table.Th>
          <Table.Th>Data</Table.Th>
          <Table.Th>Candidato</Table.Th>
          <Table.Th>CPF</Table.Th>
          <Table.Th>Posto</Table.Th>
          <Table.Th>Sala / estação</Table.Th>
          <Table.Th>Situação</Table.Th>
          <Table.Th>Resultado</Table.Th>
          <Table.Th ta="right">Conta</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((exam) => (
          <Table.Tr key={exam.id}>
            <Table.Td>{exam.schedulingId}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(exam)}</Table.Td>
            <Table.Td>{exam.candidateName}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{exam.candidateCpf}</Table.Td>
            <Table.Td>{exam.localName}</Table.Td>
            <Table.Td>{place(exam)}</Table.Td>
            <Table.Td>
              <Badge variant="light" color="gray">
                {EXAM_STATUS_LABELS[exam.status]}
              </Badge>
            </Table.Td>
            <Table.Td>{result(exam)}</Table.Td>
            <Table.Td ta="right">{exam.contribution}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Where the table would scroll sideways: one card per exam, with the same facts. */
function ExamCards({ items }: { items: readonly ReportExam[] }) {
  return (
    <Stack gap="xs" component="ul" p={0} m={0} data-testid="counter-exams-cards">
      {items.map((exam) => (
        <ListCard key={exam.id} radius="sm" p="xs">
          <Text size="sm" fw={600}>
            {exam.candidateName}
          </Text>
          <Text size="xs" c="dimmed">
            {exam.schedulingId} · <span style={{ whiteSpace: 'nowrap' }}>{exam.candidateCpf}</span>
          </Text>
          <SimpleGrid component="dl" cols={2} spacing="xs" verticalSpacing={4} mt={6} mb={0}>
            {(
              [
                ['Data', when(exam)],
                ['Posto', exam.localName],
                ['Sala / estação', place(exam)],
                ['Situação', EXAM_STATUS_LABELS[exam.status]],
                ['Resultado', result(exam)],
                ['Conta', String(exam.contribution)],
              ] as const
            ).map(([label, value]) => (
              <CardEntry key={label} label={label}>
                {value}
              </CardEntry>
            ))}
          </SimpleGrid>
        </ListCard>
      ))}
    </Stack>
  );
}
