/**
 * `auditoria`: the unit's exams waiting for audit, oldest first (or the
 * lowest face similarity first), filtered by post, period, occurrences, who
 * holds them and stage (a decision, or a second auditor's confirmation).
 * "Auditar" opens the exam, which claims it; an exam another auditor holds
 * shows the auditor alert.
 */
import {
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ListPageBody, ListPageHeader, usePaging } from '../../../components/list-page';
import { UnitPostSelect } from '../../../components/unit-post-select';
import { PeriodPicker, type PeriodValue } from '../../../components/period-picker';
import { QueryContent } from '../../../components/query-content';
import { useAppState } from '../../../lib/app-store';
import { useWideTables } from '../../../lib/use-wide-tables';
import { auditQueueQuery, type AuditQueueParams } from '../api/audits';
import { QueueCards, QueueTable } from './audit-queue-list';

export function AuditQueuePage() {
  const role = useAppState((state) => state.user?.roleDescription);
  const navigate = useNavigate();
  const paging = usePaging(20);
  const [period, setPeriod] = useState<PeriodValue>([null, null]);
  const [post, setPost] = useState<string | null>(null);
  const [withOccurrences, setWithOccurrences] = useState(false);
  const [onlyFree, setOnlyFree] = useState(false);
  const [stage, setStage] = useState<AuditQueueParams['stage']>('all');
  const [sort, setSort] = useState<AuditQueueParams['sort']>('oldest');
  const params: AuditQueueParams = {
    page: paging.page,
    pageSize: paging.pageSize,
    schedulingLocal: post,
    startDate: period[0] ? dayjs(period[0]).format('YYYY-MM-DD') : null,
    endDate: period[1] ? dayjs(period[1]).format('YYYY-MM-DD') : null,
    withOccurrences,
    onlyFree,
    stage,
    sort,
  };
  const queue = useQuery(auditQueueQuery(params));
  const changed = paging.restarting;

  const wide = useWideTables();
  const list = (
    <QueryContent
      query={queue}
      loadingLabel="Carregando a fila de auditoria"
      isEmpty={(page) => page.items.length === 0}
      empty="Nenhum exame aguardando auditoria com esses filtros."
    >
      {(page) => {
        const props = {
          items: page.items,
          audits: role === 'auditor',
          busy: queue.isFetching,
          onOpen: (item: { id: string }) => void navigate(`/auditoria/${item.id}`),
        };
        return wide ? <QueueTable {...props} /> : <QueueCards {...props} />;
      }}
    </QueryContent>
  );

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Fila de auditoria"
        description="Exames finalizados aguardando auditoria na unidade, do mais antigo ao mais novo."
        action={
          role === 'auditor' && (
            <Group gap="xs">
              <Button component={Link} to="/minha-auditoria" variant="default">
                Minha auditoria
              </Button>
              <Button component={Link} to="/minha-auditoria-de-fotos" variant="default">
                Minha auditoria de fotos
              </Button>
            </Group>
          )
        }
      />
      <Paper withBorder p="md" radius="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <PeriodPicker value={period} onChange={changed(setPeriod)} maw={260} />
          <UnitPostSelect value={post} onChange={changed(setPost)} />
          <Select
            label="Ordem"
            data={[
              { value: 'oldest', label: 'Mais antigo primeiro' },
              { value: 'similarity', label: 'Menor semelhança facial primeiro' },
            ]}
            value={sort}
            onChange={(value) => changed(setSort)((value as AuditQueueParams['sort']) ?? 'oldest')}
            allowDeselect={false}
            w={270}
            maw="100%"
          />
          <div>
            <Text size="sm" fw={500} mb={4} id="audit-stage-label">
              Etapa
            </Text>
            <SegmentedControl
              aria-labelledby="audit-stage-label"
              data={[
                { value: 'all', label: 'Todas' },
                { value: 'decision', label: 'Decisão' },
                { value: 'confirmation', label: 'Confirmação' },
              ]}
              value={stage}
              onChange={(value) => changed(setStage)(value as AuditQueueParams['stage'])}
            />
          </div>
          <Checkbox
            label="Só com ocorrências"
            checked={withOccurrences}
            onChange={(event) => changed(setWithOccurrences)(event.currentTarget.checked)}
            mb={8}
          />
          <Checkbox
            label="Só os livres"
            checked={onlyFree}
            onChange={(event) => changed(setOnlyFree)(event.currentTarget.checked)}
            mb={8}
          />
        </Group>
      </Paper>
      <ListPageBody panel={wide} data={queue.data} paging={paging} noun={['exame', 'exames']}>
        {list}
      </ListPageBody>
    </Stack>
  );
}
