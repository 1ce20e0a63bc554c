/**
 * The exams behind one counter of the report, paginated on the server: opened
 * from the per-post report and from the dashboard.
 */
import { Alert, Badge, CloseButton, Group, Paper, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  ALL_LOCALS_ID,
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  REPORT_COUNTER_LABELS,
  type LocalReport,
  type ReportCounter,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useRef } from 'react';
import { counterExamsQuery, type ReportPeriod } from '../lib/report-queries';
import { ListPage, usePaging } from './list-page';

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

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="exames-titulo">
      <ListPage
        embedded
        header={
          <>
            <Group justify="space-between" align="flex-start">
              <div>
                <Title order={2} size="h4" id="exames-titulo" ref={heading} tabIndex={-1}>
                  {REPORT_COUNTER_LABELS[counter]} — {localName}
                </Title>
                {data && (
                  <Text size="sm" c="dimmed">
                    {data.total === 1 ? '1 exame' : `${numberFormat.format(data.total)} exames`} ·
                    valor do contador: {numberFormat.format(data.counterValue)}
                  </Text>
                )}
              </div>
              <CloseButton onClick={onClose} aria-label="Fechar a lista de exames" />
            </Group>
            {data && data.counterValue !== data.total && (
              <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
                Este contador soma a situação do exame e os indicadores registrados no exame
                (pendência de auditoria, ausência, interrupção); por isso um exame pode contar mais
                de uma vez — veja a coluna “Conta”.
              </Alert>
            )}
          </>
        }
        query={query}
        loadingLabel="Carregando exames"
        empty="Nenhum exame neste contador."
        paging={paging}
        noun={['exame', 'exames']}
        columns={[
          'Agendamento',
          'Data',
          'Candidato',
          'CPF',
          'Posto',
          'Sala / estação',
          'Situação',
          'Resultado',
          <Table.Th ta="right">Conta</Table.Th>,
        ]}
        minWidth={980}
        table={{ highlightOnHover: false, verticalSpacing: 'xs', 'data-testid': 'counter-exams' }}
        row={(exam) => (
          <>
            <Table.Td>{exam.schedulingId}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {dayjs(exam.schedulingDate).format('DD/MM/YYYY HH:mm')}
            </Table.Td>
            <Table.Td>{exam.candidateName}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{exam.candidateCpf}</Table.Td>
            <Table.Td>{exam.localName}</Table.Td>
            <Table.Td>{[exam.room, exam.station].filter(Boolean).join(' · ') || '—'}</Table.Td>
            <Table.Td>
              <Badge variant="light" color="gray">
                {EXAM_STATUS_LABELS[exam.status]}
              </Badge>
            </Table.Td>
            <Table.Td>{exam.result ? EXAM_RESULT_LABELS[exam.result] : '—'}</Table.Td>
            <Table.Td ta="right">{exam.contribution}</Table.Td>
          </>
        )}
      />
    </Paper>
  );
}
