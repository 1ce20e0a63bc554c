/**
 * `/check-ins` (ADMIN and AUDITOR): who was in which room, when. The records
 * of the unit by post, examiner (name or CPF), state and period, newest
 * first; the detail shows the examiners with their entry and exit captures
 * (each view of a capture is written down by the server) and the history.
 * An ADMIN closes a record left open, with a written reason, and sets the
 * unit's rule of entry by face alone (unit-settings.tsx).
 */
import {
  Button,
  Drawer,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconDoorExit, IconEye, IconSearch } from '@tabler/icons-react';
import { FORCE_CLOSE_REASON_MIN, forceCloseRequestSchema } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { ACTIONS_COLUMN, ListPage, usePaging } from '../../../components/list-page';
import { PeriodPicker, type PeriodValue } from '../../../components/period-picker';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { activePostsQuery } from '../../../api/unit-posts';
import { textField, validateForm } from '../../../lib/forms';
import {
  checkInKeys,
  checkInRecordQuery,
  forceCloseRoom,
  searchCheckInsQuery,
} from '../api/check-ins';
import {
  CheckInHistory,
  CheckInStatusBadge,
  formatDateTime,
  formatDuration,
  ViewerCard,
} from './check-in-parts';
import { CheckInExams } from './check-in-exams';
import { UnitSettings } from './unit-settings';

type StatusFilter = 'all' | 'open' | 'closed';

export function CheckInsPage() {
  const user = useAppState((state) => state.user);
  const unit = user?.federativeUnit ?? '';
  const paging = usePaging(20);
  const [post, setPost] = useState<string | null>(null);
  const [examiner, setExaminer] = useState('');
  const [debouncedExaminer] = useDebouncedValue(examiner.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [period, setPeriod] = useState<PeriodValue>([null, null]);
  const [selected, setSelected] = useState<string | null>(null);
  const posts = useQuery(activePostsQuery(unit));
  const list = useQuery(
    searchCheckInsQuery({
      page: paging.page,
      pageSize: paging.pageSize,
      schedulingLocal: post,
      examiner: debouncedExaminer,
      status: status === 'all' ? null : status,
      // A half-picked period filters nothing yet.
      startDate: period[0] && period[1] ? period[0] : null,
      endDate: period[0] && period[1] ? period[1] : null,
    }),
  );
  const filtered = Boolean(post || debouncedExaminer || status !== 'all' || period[0]);
  const reset = paging.restarting;

  return (
    <Stack gap="lg">
      <ListPage
        title="Entradas nas salas"
        description={`Registros de entrada e saída dos examinadores da unidade ${unit}`}
        filters={
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <Select
              label="Posto"
              placeholder="Todos os postos"
              data={(posts.data ?? []).map((local) => ({
                value: local.identifier,
                label: local.description,
              }))}
              value={post}
              onChange={reset(setPost)}
              clearable
              searchable
            />
            <TextInput
              label="Examinador"
              placeholder="Nome ou CPF"
              leftSection={<IconSearch size={16} aria-hidden />}
              maxLength={120}
              {...textField(examiner, reset(setExaminer))}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="situacao-filtro">
                Situação
              </Text>
              <SegmentedControl
                aria-labelledby="situacao-filtro"
                value={status}
                onChange={(value) => reset(setStatus)(value as StatusFilter)}
                data={[
                  { value: 'all', label: 'Todas' },
                  { value: 'open', label: 'Abertas' },
                  { value: 'closed', label: 'Encerradas' },
                ]}
              />
            </Stack>
            <PeriodPicker value={period} onChange={reset(setPeriod)} label="Período da entrada" />
          </SimpleGrid>
        }
        query={list}
        loadingLabel="Carregando entradas"
        empty={
          filtered
            ? 'Nenhuma entrada encontrada com estes filtros.'
            : 'Nenhuma entrada registrada na unidade.'
        }
        paging={paging}
        noun={['entrada', 'entradas']}
        columns={['Entrada', 'Posto', 'Examinadores', 'Situação', 'Saída', ACTIONS_COLUMN]}
        minWidth={900}
        table={{ 'data-testid': 'check-ins-table' }}
        row={(item) => (
          <>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.checkInDate)}</Table.Td>
            <Table.Td>
              <Text size="sm">{item.schedulingLocalDescription}</Text>
              <Text size="xs" c="dimmed">
                {item.schedulingLocal}
              </Text>
            </Table.Td>
            <Table.Td>
              {item.viewers.map((viewer) => (
                <Text size="sm" key={`${viewer.cpf}-${viewer.name}`}>
                  {viewer.name}{' '}
                  <Text span size="xs" c="dimmed">
                    {viewer.cpf}
                  </Text>
                </Text>
              ))}
            </Table.Td>
            <Table.Td>
              <CheckInStatusBadge status={item.status} />
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {item.checkOutDate
                ? `${formatDateTime(item.checkOutDate)} (${formatDuration(item.checkInDate, item.checkOutDate)})`
                : '—'}
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconEye size={14} aria-hidden />}
                onClick={() => setSelected(item.id)}
              >
                Detalhes
                <Text span className="visually-hidden">
                  {` da entrada de ${formatDateTime(item.checkInDate)} em ${item.schedulingLocalDescription}`}
                </Text>
              </Button>
            </Table.Td>
          </>
        )}
      />
      <Drawer
        opened={selected !== null}
        onClose={() => setSelected(null)}
        position="right"
        size="xl"
        title="Registro de entrada"
      >
        {selected && <CheckInDetail id={selected} canClose={user?.roleDescription === 'ADMIN'} />}
      </Drawer>
      {user?.roleDescription === 'ADMIN' && <UnitSettings />}
    </Stack>
  );
}

function CheckInDetail({ id, canClose }: { id: string; canClose: boolean }) {
  const record = useQuery(checkInRecordQuery(id));
  return (
    <QueryContent
      query={record}
      loadingLabel="Carregando o registro"
      isEmpty={() => false}
      empty={null}
    >
      {(data) => (
        <Stack gap="md">
          <Group gap="xs">
            <Text fw={700} size="lg">
              {data.schedulingLocalDescription}
            </Text>
            <CheckInStatusBadge status={data.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {data.schedulingLocal} · aberta em {formatDateTime(data.checkInDate)} por{' '}
            {data.openedBy.name}
            {data.checkOutDate ? ` · encerrada em ${formatDateTime(data.checkOutDate)}` : ''}
            {data.faceValidationRequired ? ' · com validação facial' : ''}
          </Text>
          {data.closeReason && <Text size="sm">Motivo do encerramento: {data.closeReason}</Text>}
          <Stack gap="xs">
            {data.viewers.map((viewer) => (
              <ViewerCard key={viewer.id} viewer={viewer} />
            ))}
          </Stack>
          {canClose && data.status === 'open' && <ForceClose id={data.id} />}
          <CheckInHistory record={data} />
          <CheckInExams record={data} />
        </Stack>
      )}
    </QueryContent>
  );
}

function ForceClose({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = useMutation({
    mutationFn: (text: string) => forceCloseRoom({ checkInId: id, reason: text }),
    onSuccess: async () => {
      toast.success('A sala foi encerrada e o motivo ficou registrado.');
      await queryClient.invalidateQueries({ queryKey: checkInKeys.all });
    },
    onError: (failure) => toast.error(failure.message),
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const checked = validateForm(forceCloseRequestSchema, { checkInId: id, reason });
        setError(checked.errors?.reason ?? null);
        if (checked.data) close.mutate(checked.data.reason);
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Encerrar a sala deixada aberta"
          description={`Descreva o motivo (mínimo de ${FORCE_CLOSE_REASON_MIN} caracteres); ele fica no histórico do registro.`}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={error}
          maxLength={500}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            color="red"
            leftSection={<IconDoorExit size={16} aria-hidden />}
            loading={close.isPending}
          >
            Encerrar a sala
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
