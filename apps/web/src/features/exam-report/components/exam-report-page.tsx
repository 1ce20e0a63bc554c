/**
 * `/exam-report/:id` (admin-guarded; the server answers 403 to anyone else):
 * the report of one post, or of every post (`all`), for a period. Each number
 * opens the exams behind it; the CSV and XLSX downloads carry the same numbers.
 * The period lives in the address (`?startDate=&endDate=`), so the dashboard
 * links here with its own period.
 */
import {
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowLeft, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import {
  ALL_LOCALS_ID,
  dayInZone,
  parsePeriodDate,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  type LocalReport,
  type LocalReportDetail,
  type ReportCounter,
  type ReportExportFormat,
} from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { PeriodPicker } from '../../../components/period-picker';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { downloadReport, localReportQuery, type ReportPeriod } from '../api/exam-report';
import { CounterExams } from '../../../components/counter-exams';

const numberFormat = new Intl.NumberFormat('pt-BR');

function dayParam(value: string | null): string | null {
  if (!value) return null;
  const parsed = parsePeriodDate(value);
  return parsed ? parsed.day : null;
}

function formatDay(day: string): string {
  return dayjs(day).format('DD/MM/YYYY');
}

/** The rows of the table: each post, and for every post together a last `Total` row. */
function rowsOf(localId: string, data: LocalReportDetail): LocalReport[] {
  return localId === ALL_LOCALS_ID
    ? [...data.locals, { id: ALL_LOCALS_ID, name: 'Total', report: data.report }]
    : data.locals;
}

export type CounterSelection = { local: LocalReport; counter: ReportCounter };

export function ExamReportPage() {
  const { id = ALL_LOCALS_ID } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const today = dayInZone(new Date());
  const startDate = dayParam(searchParams.get('startDate')) ?? today;
  const endDate = dayParam(searchParams.get('endDate')) ?? today;
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  const period: ReportPeriod = { startDate, endDate };
  const report = useQuery(localReportQuery(id, period));
  const [selection, setSelection] = useState<CounterSelection | null>(null);

  const changePeriod = ([start, end]: [string | null, string | null]) => {
    // Only a full range becomes the period; half a range stays in the picker.
    if (!start || !end) {
      setDraft([start, end]);
      return;
    }
    setDraft(null);
    setSelection(null);
    setSearchParams({ startDate: start, endDate: end }, { replace: true });
  };

  const download = useMutation({
    mutationFn: (format: ReportExportFormat) => downloadReport(id, period, format),
    onSuccess: (filename) => toast.success(`Arquivo ${filename} gerado.`, 'Exportação concluída'),
    onError: (error) => toast.error(error.message),
  });
  const exporting = download.isPending ? download.variables : null;

  const data = report.data;
  const isAll = id === ALL_LOCALS_ID;

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Anchor component={Link} to="/home" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={16} aria-hidden />
            Voltar ao painel
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Text size="sm" fw={600} c="dimmed" tt="uppercase">
              Relatório de exames por posto
            </Text>
            <Title order={1} size="h2">
              {isAll ? 'Todos os postos' : (data?.name ?? id)}
            </Title>
            <Text c="dimmed" size="sm">
              {isAll ? '' : `${id} · `}Período de {formatDay(startDate)} a {formatDay(endDate)}{' '}
              (datas inclusivas, horário de Brasília)
            </Text>
          </div>
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconFileTypeCsv size={16} aria-hidden />}
              onClick={() => download.mutate('csv')}
              loading={exporting === 'csv'}
              disabled={!data}
            >
              Baixar CSV
            </Button>
            <Button
              leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
              onClick={() => download.mutate('xlsx')}
              loading={exporting === 'xlsx'}
              disabled={!data}
            >
              Baixar XLSX
            </Button>
          </Group>
        </Group>

        <Paper withBorder radius="md" p="md">
          <PeriodPicker value={draft ?? [startDate, endDate]} onChange={changePeriod} />
        </Paper>

        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="tabela-titulo">
          <Title order={2} size="h4" mb="xs" id="tabela-titulo">
            Contadores
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Selecione um número para ver os exames por trás dele.
          </Text>
          <QueryContent
            query={report}
            loadingLabel="Carregando o relatório"
            isEmpty={(detail) => rowsOf(id, detail).length === 0}
            empty="Nenhum exame no período selecionado."
          >
            {(detail) => (
              <Table.ScrollContainer minWidth={1100}>
                <Table
                  striped
                  withTableBorder
                  verticalSpacing="xs"
                  aria-busy={report.isFetching}
                  data-testid="report-table"
                >
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Posto</Table.Th>
                      <Table.Th>Nome</Table.Th>
                      {REPORT_COUNTERS.map((counter) => (
                        <Table.Th key={counter} ta="right">
                          {REPORT_COUNTER_LABELS[counter]}
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rowsOf(id, detail).map((local) => {
                      const isTotal = isAll && local.id === ALL_LOCALS_ID;
                      return (
                        <Table.Tr
                          key={local.id}
                          fw={isTotal ? 700 : undefined}
                          data-local-id={isTotal ? 'total' : local.id}
                        >
                          <Table.Td>{isTotal ? 'Total' : local.id}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            {isTotal ? 'Todos os postos' : local.name}
                          </Table.Td>
                          {REPORT_COUNTERS.map((counter) => {
                            const active =
                              selection?.local.id === local.id && selection.counter === counter;
                            return (
                              <Table.Td key={counter} ta="right" data-counter={counter}>
                                <UnstyledButton
                                  onClick={() => setSelection({ local, counter })}
                                  aria-pressed={active}
                                  aria-label={`${REPORT_COUNTER_LABELS[counter]} de ${isTotal ? 'todos os postos' : local.name}: ${local.report[counter]}. Ver os exames`}
                                  px={6}
                                  style={{
                                    borderRadius: 4,
                                    fontWeight: active ? 700 : undefined,
                                    textDecoration: 'underline dotted',
                                    background: active
                                      ? 'var(--mantine-primary-color-light)'
                                      : undefined,
                                  }}
                                >
                                  {numberFormat.format(local.report[counter])}
                                </UnstyledButton>
                              </Table.Td>
                            );
                          })}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </QueryContent>
        </Paper>

        {selection && (
          <CounterExams
            key={`${selection.local.id}|${selection.counter}|${startDate}|${endDate}`}
            period={period}
            local={selection.local}
            counter={selection.counter}
            onClose={() => setSelection(null)}
          />
        )}
      </Stack>
    </Container>
  );
}
