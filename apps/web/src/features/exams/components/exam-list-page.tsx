/** `exames`: the exam list with filters, server-side pagination and sorting, and the CSV import (ADMIN). */
import {
  Group,
  MultiSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconChevronDown,
  IconChevronUp,
  IconFileImport,
  IconSearch,
  IconSelector,
} from '@tabler/icons-react';
import {
  EXAM_RESULT_LABELS,
  EXAM_RESULTS,
  EXAM_STATUS_LABELS,
  EXAM_STATUSES,
  maskCpf,
  type ExamResult,
  type ExamStatus,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListPageHeader } from '../../../components/list-page';
import { PaginationFooter } from '../../../components/pagination-footer';
import { QueryContent } from '../../../components/query-content';
import { useAppState } from '../../../lib/app-store';
import { unitPostsQuery } from '../../../lib/unit-posts';
import { examListQuery, type ExamListParams } from '../api/exams';
import { ExamStatusBadge } from './exam-status';
import { ImportExamsButton } from './import-exams';

type SortKey = ExamListParams['sort'];

function SortHeader({
  label,
  column,
  sort,
  order,
  onSort,
}: {
  label: string;
  column: SortKey;
  sort: SortKey;
  order: 'asc' | 'desc';
  onSort: (column: SortKey) => void;
}) {
  const active = sort === column;
  const Icon = !active ? IconSelector : order === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} aria-label={`Ordenar por ${label}`}>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

export function ExamListPage() {
  const role = useAppState((state) => state.user?.roleDescription);
  const [range, setRange] = useState<[string | null, string | null]>([
    dayjs().subtract(30, 'day').format('YYYY-MM-DD'),
    dayjs().add(7, 'day').format('YYYY-MM-DD'),
  ]);
  const [locals, setLocals] = useState<string[]>([]);
  const [statuses, setStatuses] = useState<ExamStatus[]>([]);
  const [results, setResults] = useState<ExamResult[]>([]);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 350);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [sort, setSort] = useState<SortKey>('schedulingDate');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');

  const localOptions = useQuery(unitPostsQuery);
  const params: ExamListParams = {
    // The API's period contract: the picked calendar days, read in São Paulo, both inclusive.
    startDate: range[0] ? dayjs(range[0]).format('YYYY-MM-DD') : null,
    endDate: range[1] ? dayjs(range[1]).format('YYYY-MM-DD') : null,
    schedulingLocal: locals,
    status: statuses,
    result: results,
    search: debouncedSearch,
    page,
    pageSize,
    sort,
    order,
  };
  const list = useQuery(examListQuery(params));
  const resetPage = () => setPage(1);

  const onSort = (column: SortKey) => {
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder(column === 'schedulingDate' ? 'desc' : 'asc');
    }
    resetPage();
  };

  const data = list.data;

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Exames"
        description="Consulte os exames da unidade por período, posto, situação e resultado."
        action={role === 'ADMIN' && <ImportExamsButton icon={<IconFileImport size={16} />} />}
      />
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <DatePickerInput
            type="range"
            label="Período"
            placeholder="Escolha o período"
            valueFormat="DD/MM/YYYY"
            value={range}
            onChange={(value) => {
              setRange(value as [string | null, string | null]);
              resetPage();
            }}
            allowSingleDateInRange
            clearable
            w={260}
          />
          <MultiSelect
            label="Posto"
            placeholder={locals.length ? undefined : 'Todos'}
            data={(localOptions.data?.items ?? []).map((local) => ({
              value: local.identifier,
              label: local.description,
            }))}
            value={locals}
            onChange={(value) => {
              setLocals(value);
              resetPage();
            }}
            searchable
            clearable
            w={240}
          />
          <MultiSelect
            label="Situação"
            placeholder={statuses.length ? undefined : 'Todas'}
            data={EXAM_STATUSES.map((status) => ({
              value: status,
              label: EXAM_STATUS_LABELS[status],
            }))}
            value={statuses}
            onChange={(value) => {
              setStatuses(value as ExamStatus[]);
              resetPage();
            }}
            clearable
            w={220}
          />
          <MultiSelect
            label="Resultado"
            placeholder={results.length ? undefined : 'Todos'}
            data={EXAM_RESULTS.map((result) => ({
              value: result,
              label: EXAM_RESULT_LABELS[result],
            }))}
            value={results}
            onChange={(value) => {
              setResults(value as ExamResult[]);
              resetPage();
            }}
            clearable
            w={220}
          />
          <TextInput
            label="Candidato"
            placeholder="Nome ou CPF"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              resetPage();
            }}
            w={240}
          />
        </Group>
      </Paper>
      <Paper withBorder radius="md">
        <QueryContent
          query={list}
          loadingLabel="Carregando exames"
          isEmpty={(page) => page.items.length === 0}
          empty={'Nenhum exame encontrado com esses filtros.'}
        >
          {(page) => (
            <Table.ScrollContainer minWidth={900}>
              <Table striped highlightOnHover verticalSpacing="sm" aria-busy={list.isFetching}>
                <Table.Thead>
                  <Table.Tr>
                    <SortHeader
                      label="Data"
                      column="schedulingDate"
                      sort={sort}
                      order={order}
                      onSort={onSort}
                    />
                    <SortHeader
                      label="Candidato"
                      column="candidateName"
                      sort={sort}
                      order={order}
                      onSort={onSort}
                    />
                    <Table.Th>CPF</Table.Th>
                    <SortHeader
                      label="Posto"
                      column="schedulingLocal"
                      sort={sort}
                      order={order}
                      onSort={onSort}
                    />
                    <SortHeader
                      label="Situação"
                      column="status"
                      sort={sort}
                      order={order}
                      onSort={onSort}
                    />
                    <Table.Th>Nota</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((exam) => (
                    <Table.Tr key={exam.id}>
                      <Table.Td>{dayjs(exam.schedulingDate).format('DD/MM/YYYY HH:mm')}</Table.Td>
                      <Table.Td>
                        <Link to={`/exames/${encodeURIComponent(exam.schedulingId)}`}>
                          {exam.candidateName}
                        </Link>
                      </Table.Td>
                      <Table.Td>{maskCpf(exam.candidateCpf)}</Table.Td>
                      <Table.Td>{exam.schedulingLocalName ?? exam.schedulingLocal ?? '—'}</Table.Td>
                      <Table.Td>
                        <ExamStatusBadge exam={exam} />
                      </Table.Td>
                      <Table.Td>
                        {exam.score === null ? '—' : exam.score.toLocaleString('pt-BR')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryContent>
      </Paper>
      {data && (
        <PaginationFooter
          total={data.total}
          page={page}
          pageSize={pageSize}
          noun={['exame', 'exames']}
          onPage={setPage}
          onPageSize={(size) => {
            setPageSize(size);
            resetPage();
          }}
        />
      )}
      {list.isFetching && !list.isPending && (
        <Text size="xs" c="dimmed" aria-live="polite">
          Atualizando...
        </Text>
      )}
    </Stack>
  );
}
