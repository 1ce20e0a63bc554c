/** `exames`: the exam list with filters, server-side pagination and sorting, and the CSV import (ADMIN). */
import { Group, MultiSelect, Paper, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
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
import { ListPage, usePagedSearch } from '../../../components/list-page';
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

/** A multiple choice filter; empty means every option (`Todos`, `Todas`). */
function FilterSelect<T extends string>({
  label,
  everyLabel,
  options,
  value,
  onChange,
  searchable = false,
  width,
}: {
  label: string;
  everyLabel: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T[];
  onChange: (value: T[]) => void;
  searchable?: boolean;
  width: number;
}) {
  return (
    <MultiSelect
      label={label}
      placeholder={value.length ? undefined : everyLabel}
      data={options}
      value={value}
      onChange={(next) => onChange(next as T[])}
      searchable={searchable}
      clearable
      w={width}
    />
  );
}

function labelled<T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) {
  return values.map((value) => ({ value, label: labels[value] }));
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
  const paging = usePagedSearch(20, 350);
  const { search, debouncedSearch, page, pageSize, setSearch, setPage } = paging;
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
  // Any filter change starts again on the first page.
  const filterBy =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      resetPage();
    };

  const onSort = (column: SortKey) => {
    if (column === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setOrder(column === 'schedulingDate' ? 'desc' : 'asc');
    }
    resetPage();
  };

  return (
    <ListPage
      title="Exames"
      description="Consulte os exames da unidade por período, posto, situação e resultado."
      action={role === 'ADMIN' && <ImportExamsButton icon={<IconFileImport size={16} />} />}
      filters={
        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <DatePickerInput
              type="range"
              label="Período"
              placeholder="Escolha o período"
              valueFormat="DD/MM/YYYY"
              value={range}
              onChange={(value) => filterBy(setRange)(value as [string | null, string | null])}
              allowSingleDateInRange
              clearable
              w={260}
            />
            <FilterSelect
              label="Posto"
              everyLabel="Todos"
              options={(localOptions.data?.items ?? []).map((local) => ({
                value: local.identifier,
                label: local.description,
              }))}
              value={locals}
              onChange={filterBy(setLocals)}
              searchable
              width={240}
            />
            <FilterSelect
              label="Situação"
              everyLabel="Todas"
              options={labelled(EXAM_STATUSES, EXAM_STATUS_LABELS)}
              value={statuses}
              onChange={filterBy(setStatuses)}
              width={220}
            />
            <FilterSelect
              label="Resultado"
              everyLabel="Todos"
              options={labelled(EXAM_RESULTS, EXAM_RESULT_LABELS)}
              value={results}
              onChange={filterBy(setResults)}
              width={220}
            />
            <TextInput
              label="Candidato"
              placeholder="Nome ou CPF"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              w={240}
            />
          </Group>
        </Paper>
      }
      query={list}
      loadingLabel="Carregando exames"
      empty="Nenhum exame encontrado com esses filtros."
      paging={paging}
      noun={['exame', 'exames']}
      below={
        list.isFetching &&
        !list.isPending && (
          <Text size="xs" c="dimmed" aria-live="polite">
            Atualizando...
          </Text>
        )
      }
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
    </ListPage>
  );
}
