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
  addDays,
  dayInZone,
  EXAM_RESULT_LABELS,
  EXAM_RESULTS,
  EXAM_STATUS_LABELS,
  EXAM_STATUSES,
  maskCpf,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ListPage, RefreshingNotice, usePagedSearch } from '../../../components/list-page';
import { useAppState } from '../../../lib/app-store';
import { unitPostsQuery } from '../../../api/unit-posts';
import { examListQuery, type ExamListParams } from '../api/exams';
import { ExamStatusBadge } from './exam-status';
import { ImportExamsButton } from './import-exams';
import { textField } from '../../../lib/forms';

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

type ChoiceFilters = Pick<ExamListParams, 'schedulingLocal' | 'status' | 'result'>;

/**
 * The period the list opens on: the last 30 days up to today (São Paulo),
 * newest first, so the first rows are today's exams; the days ahead are
 * one change of the period away.
 */
export function defaultExamPeriod(now: Date = new Date()): [string, string] {
  const today = dayInZone(now);
  return [addDays(today, -30), today];
}

const STATUS_OPTIONS = EXAM_STATUSES.map((value) => ({ value, label: EXAM_STATUS_LABELS[value] }));
const RESULT_OPTIONS = EXAM_RESULTS.map((value) => ({ value, label: EXAM_RESULT_LABELS[value] }));

export function ExamListPage() {
  const role = useAppState((state) => state.user?.roleDescription);
  const [range, setRange] = useState<[string | null, string | null]>(() => defaultExamPeriod());
  const periodId = useId();
  const [choices, setChoices] = useState<ChoiceFilters>({
    schedulingLocal: [],
    status: [],
    result: [],
  });
  const paging = usePagedSearch(20, 350);
  const { search, debouncedSearch, page, pageSize, setSearch, setPage } = paging;
  const [sort, setSort] = useState<SortKey>('schedulingDate');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');

  const localOptions = useQuery(unitPostsQuery);
  const params: ExamListParams = {
    // The API's period contract: the picked calendar days, read in São Paulo, both inclusive.
    startDate: range[0] ? dayjs(range[0]).format('YYYY-MM-DD') : null,
    endDate: range[1] ? dayjs(range[1]).format('YYYY-MM-DD') : null,
    ...choices,
    search: debouncedSearch,
    page,
    pageSize,
    sort,
    order,
  };
  const list = useQuery(examListQuery(params));
  const resetPage = () => setPage(1);

  // Multiple choice filters; empty means every option (`Todos`, `Todas`).
  const choiceFilters = [
    {
      key: 'schedulingLocal',
      label: 'Posto',
      every: 'Todos',
      options: (localOptions.data?.items ?? []).map((local) => ({
        value: local.identifier,
        label: local.description,
      })),
      searchable: true,
      width: 240,
    },
    { key: 'status', label: 'Situação', every: 'Todas', options: STATUS_OPTIONS, width: 220 },
    { key: 'result', label: 'Resultado', every: 'Todos', options: RESULT_OPTIONS, width: 220 },
  ] as const;
  // Any filter change starts again on the first page.
  const choose = (key: keyof ChoiceFilters, value: string[]) => {
    // The values come from the options of that filter.
    setChoices((previous) => ({ ...previous, [key]: value }) as ChoiceFilters);
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
  const sortable = (label: string, column: SortKey) => (
    <SortHeader label={label} column={column} sort={sort} order={order} onSort={onSort} />
  );

  return (
    <ListPage
      title="Exames"
      description="Consulte os exames da unidade por período, posto, situação e resultado."
      action={role === 'ADMIN' && <ImportExamsButton icon={<IconFileImport size={16} />} />}
      filters={
        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <DatePickerInput
              // One id for the field and its calendar: the calendar (a dialog) is named by the field.
              id={periodId}
              popoverProps={{ id: periodId }}
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
            {choiceFilters.map((filter) => (
              <MultiSelect
                key={filter.key}
                label={filter.label}
                placeholder={choices[filter.key].length ? undefined : filter.every}
                data={filter.options}
                value={choices[filter.key]}
                onChange={(value) => choose(filter.key, value)}
                searchable={'searchable' in filter}
                clearable
                w={filter.width}
              />
            ))}
            <TextInput
              label="Candidato"
              placeholder="Nome ou CPF"
              leftSection={<IconSearch size={16} />}
              {...textField(search, setSearch)}
              w={240}
            />
          </Group>
        </Paper>
      }
      query={list}
      loadingLabel="Carregando exames"
      empty="Nenhum exame encontrado com esses filtros."
      columns={[
        sortable('Data', 'schedulingDate'),
        sortable('Candidato', 'candidateName'),
        'CPF',
        sortable('Posto', 'schedulingLocal'),
        sortable('Situação', 'status'),
        'Nota',
      ]}
      minWidth={900}
      row={(exam) => (
        <>
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
          <Table.Td>{exam.score === null ? '—' : exam.score.toLocaleString('pt-BR')}</Table.Td>
        </>
      )}
      paging={paging}
      noun={['exame', 'exames']}
      below={<RefreshingNotice query={list} />}
    />
  );
}
