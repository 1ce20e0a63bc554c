/**
 * `/exam-report/:id` (admin-guarded; the server answers 403 to anyone else):
 * the report of one post, or of every post (`all`), for a period. Each number
 * opens the exams behind it; the CSV and XLSX downloads carry the same numbers.
 * The period lives in the address (`?startDate=&endDate=`), so the dashboard
 * links here with its own period. The address keeps the API's report id of a
 * post; the screen names it by its name and its own identifier.
 */
import { Alert, Anchor, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconInfoCircle,
} from '@tabler/icons-react';
import {
  ALL_LOCALS_ID,
  dayInZone,
  METADATA_COUNTERS,
  METADATA_COUNTERS_NOTE,
  parsePeriodDate,
  type LocalReport,
  type LocalReportDetail,
  type ReportExportFormat,
} from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { PeriodPicker } from '../../../components/period-picker';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useWideTables } from '../../../lib/use-wide-tables';
import { downloadReport, localReportQuery, type ReportPeriod } from '../api/exam-report';
import { CounterExams } from '../../../components/counter-exams';
import { ReportCards, ReportTable, type CounterSelection } from './report-counters';

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
  const total: LocalReport = {
    id: ALL_LOCALS_ID,
    identifier: null,
    name: 'Total',
    report: data.report,
    fromMetadata: data.fromMetadata,
  };
  return localId === ALL_LOCALS_ID ? [...data.locals, total] : data.locals;
}

/** Whether any number on screen took a part from the delivery system's metadata. */
function usesMetadata(data: LocalReportDetail): boolean {
  return METADATA_COUNTERS.some((counter) => data.fromMetadata[counter] > 0);
}

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
  const wide = useWideTables();

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
              {isAll || !data?.identifier ? '' : `${data.identifier} · `}Período de{' '}
              {formatDay(startDate)} a {formatDay(endDate)} (datas inclusivas, horário de Brasília)
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
            {(detail) => {
              const props = {
                rows: rowsOf(id, detail),
                selection,
                onSelect: setSelection,
                busy: report.isFetching,
              };
              return (
                <Stack gap="sm">
                  {usesMetadata(detail) && (
                    <Alert
                      color="blue"
                      variant="light"
                      icon={<IconInfoCircle size={18} />}
                      data-testid="metadata-note"
                    >
                      {METADATA_COUNTERS_NOTE}
                    </Alert>
                  )}
                  {wide ? <ReportTable {...props} /> : <ReportCards {...props} />}
                </Stack>
              );
            }}
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
