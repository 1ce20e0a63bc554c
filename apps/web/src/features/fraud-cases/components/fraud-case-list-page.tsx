/**
 * `possiveis-fraudes`: the unit's cases of possible proxy test-takers (the
 * same face in exams of different CPFs), newest first, filtered by status
 * (open ones by default), post and period. ADMIN and auditors only.
 */
import { Group, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ListPageBody, ListPageHeader, usePaging } from '../../../components/list-page';
import { UnitPostSelect } from '../../../components/unit-post-select';
import { PeriodPicker, type PeriodValue } from '../../../components/period-picker';
import { QueryContent } from '../../../components/query-content';
import { useWideTables } from '../../../lib/use-wide-tables';
import { fraudCaseListQuery, type FraudCaseListParams } from '../api/fraud-cases';
import { FraudCaseCards, FraudCaseTable } from './fraud-case-list';

const STATUS_OPTIONS: Array<{ value: FraudCaseListParams['status']; label: string }> = [
  { value: 'open', label: 'Abertos' },
  { value: 'confirmed', label: 'Confirmados' },
  { value: 'dismissed', label: 'Descartados' },
  { value: 'all', label: 'Todos' },
];

/** Narrower than a small tablet (36em, 576 px): the status choice is a select. */
export const PHONE_QUERY = '(max-width: 35.99em)';

const EMPTY = (
  <>
    <Text span fw={600} display="block">
      Nenhum caso encontrado
    </Text>
    <Text span size="sm" display="block" mt={4}>
      Um caso se abre quando o motor facial encontra o mesmo rosto em exames de CPFs diferentes.
      Experimente a situação “Todos” ou outro período.
    </Text>
  </>
);

export function FraudCaseListPage() {
  const paging = usePaging(20);
  const [status, setStatus] = useState<FraudCaseListParams['status']>('open');
  const [post, setPost] = useState<string | null>(null);
  const [period, setPeriod] = useState<PeriodValue>([null, null]);
  const params: FraudCaseListParams = {
    status,
    schedulingLocal: post,
    // The API's period contract: the picked calendar days, read in São Paulo, both inclusive.
    startDate: period[0] ? dayjs(period[0]).format('YYYY-MM-DD') : null,
    endDate: period[1] ? dayjs(period[1]).format('YYYY-MM-DD') : null,
    page: paging.page,
    pageSize: paging.pageSize,
  };
  const cases = useQuery(fraudCaseListQuery(params));
  // Any filter change starts again on the first page.
  const changed = paging.restarting;

  const wide = useWideTables();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const list = (
    <QueryContent
      query={cases}
      loadingLabel="Carregando os casos"
      isEmpty={(page) => page.items.length === 0}
      empty={EMPTY}
    >
      {(page) =>
        wide ? (
          <FraudCaseTable items={page.items} busy={cases.isFetching} />
        ) : (
          <FraudCaseCards items={page.items} busy={cases.isFetching} />
        )
      }
    </QueryContent>
  );

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Possíveis fraudes"
        description="Cada caso reúne exames de CPFs diferentes em que o motor facial encontrou o mesmo rosto. Um caso nunca muda um resultado sozinho: quem decide é o auditor."
      />
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          {phone ? (
            // The four choices do not fit side by side on a phone.
            <Select
              label="Situação"
              data={STATUS_OPTIONS}
              value={status}
              onChange={(value) =>
                changed(setStatus)((value as FraudCaseListParams['status'] | null) ?? 'open')
              }
              allowDeselect={false}
              w={240}
              maw="100%"
            />
          ) : (
            <div>
              <Text size="sm" fw={500} mb={4} id="fraud-case-status-label">
                Situação
              </Text>
              <SegmentedControl
                aria-labelledby="fraud-case-status-label"
                data={STATUS_OPTIONS}
                value={status}
                onChange={(value) => changed(setStatus)(value as FraudCaseListParams['status'])}
              />
            </div>
          )}
          <UnitPostSelect value={post} onChange={changed(setPost)} />
          <PeriodPicker value={period} onChange={changed(setPeriod)} maw={260} />
        </Group>
      </Paper>
      <ListPageBody panel={wide} data={cases.data} paging={paging} noun={['caso', 'casos']}>
        {list}
      </ListPageBody>
    </Stack>
  );
}
