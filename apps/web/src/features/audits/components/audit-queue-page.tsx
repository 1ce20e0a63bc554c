/**
 * `auditoria`: the unit's exams waiting for audit, oldest first (or the
 * lowest face similarity first), filtered by post, period, occurrences, who
 * holds them and stage (a decision, or a second auditor's confirmation).
 * "Auditar" opens the exam, which claims it; an exam another auditor holds
 * shows the auditor alert.
 */
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Table,
  Text,
} from '@mantine/core';
import { maskCpf } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SimilarityBadge } from '../../../components/face/similarity-badge';
import { ACTIONS_COLUMN, ListPage, usePaging } from '../../../components/list-page';
import { PeriodPicker, type PeriodValue } from '../../../components/period-picker';
import { useAppState } from '../../../lib/app-store';
import { unitPostsQuery } from '../../../lib/unit-posts';
import { auditQueueQuery, type AuditQueueParams } from '../api/audits';
import { formatSimilarity } from './audit-photos';

const OUTCOME_LABELS = {
  approved: 'aprovação',
  reproved: 'reprovação',
  disqualified: 'desclassificação',
} as const;

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
  const posts = useQuery(unitPostsQuery);
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
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      paging.setPage(1);
    };

  return (
    <ListPage
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
      filters={
        <Paper withBorder p="md" radius="md">
          <Group align="flex-end" gap="sm" wrap="wrap">
            <PeriodPicker value={period} onChange={changed(setPeriod)} maw={260} />
            <Select
              label="Posto"
              placeholder="Todos"
              data={(posts.data?.items ?? []).map((local) => ({
                value: local.identifier,
                label: local.description,
              }))}
              value={post}
              onChange={changed(setPost)}
              searchable
              clearable
              w={240}
            />
            <Select
              label="Ordem"
              data={[
                { value: 'oldest', label: 'Mais antigo primeiro' },
                { value: 'similarity', label: 'Menor semelhança facial primeiro' },
              ]}
              value={sort}
              onChange={(value) =>
                changed(setSort)((value as AuditQueueParams['sort']) ?? 'oldest')
              }
              allowDeselect={false}
              w={270}
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
      }
      query={queue}
      loadingLabel="Carregando a fila de auditoria"
      empty="Nenhum exame aguardando auditoria com esses filtros."
      columns={[
        'Data',
        'Candidato',
        'CPF',
        'Posto',
        'Ocorrências',
        'Capturas',
        'Menor semelhança',
        'Situação',
        ACTIONS_COLUMN,
      ]}
      minWidth={1100}
      table={{ 'data-testid': 'audit-queue' }}
      noun={['exame', 'exames']}
      paging={paging}
      row={(item) => (
        <>
          <Table.Td>{dayjs(item.schedulingDate).format('DD/MM/YYYY HH:mm')}</Table.Td>
          <Table.Td>
            <Text size="sm" fw={500}>
              {item.candidateName}
            </Text>
            <Text size="xs" c="dimmed">
              {item.schedulingId}
            </Text>
          </Table.Td>
          <Table.Td>{maskCpf(item.candidateCpf)}</Table.Td>
          <Table.Td>{item.schedulingLocal ?? '—'}</Table.Td>
          <Table.Td>
            {item.occurrences > 0 ? (
              <Badge color="orange" variant="light">
                {item.occurrences}
              </Badge>
            ) : (
              '—'
            )}
          </Table.Td>
          <Table.Td>{item.photos}</Table.Td>
          <Table.Td>
            {item.faceMinLevel === null ? (
              '—'
            ) : (
              <Group gap={4} wrap="nowrap">
                <SimilarityBadge level={item.faceMinLevel} />
                {/* The number is sent to ADMIN only. */}
                {item.faceMinSimilarity !== null && (
                  <Text size="xs">{formatSimilarity(item.faceMinSimilarity)}</Text>
                )}
              </Group>
            )}
          </Table.Td>
          <Table.Td>
            {item.awaitingConfirmation ? (
              <Badge color="indigo" variant="light">
                Confirmar {OUTCOME_LABELS[item.awaitingConfirmation.outcome]} de{' '}
                {item.awaitingConfirmation.auditorName}
              </Badge>
            ) : null}
            {item.claim ? (
              <Badge color={item.claim.mine ? 'teal' : 'yellow'} variant="light">
                {item.claim.mine ? 'Com você' : `Com ${item.claim.auditorName}`}
              </Badge>
            ) : (
              !item.awaitingConfirmation && (
                <Badge color="gray" variant="light">
                  Livre
                </Badge>
              )
            )}
          </Table.Td>
          <Table.Td>
            <Button
              size="xs"
              variant={role === 'auditor' ? 'filled' : 'default'}
              onClick={() => void navigate(`/auditoria/${item.id}`)}
              aria-label={`${role === 'auditor' ? 'Auditar' : 'Ver'} o exame de ${item.candidateName}`}
            >
              {role === 'auditor' ? 'Auditar' : 'Ver'}
            </Button>
          </Table.Td>
        </>
      )}
    />
  );
}
