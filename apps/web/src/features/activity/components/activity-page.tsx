/**
 * `atividades` (ADMIN): the unit's activity log. Filters by type (with the
 * preset "Acessos a dados biométricos": who saw a person's face images, exam
 * photos or full CPF — type the person's CPF as the target), actor, target
 * and period; a page of events newest first; each event's details and hash;
 * the CSV export of what the filters find; and the check of the hash chain.
 */
import {
  Badge,
  Button,
  Code,
  Group,
  MultiSelect,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconDownload,
  IconEye,
  IconFingerprint,
  IconSearch,
  IconShieldCheck,
} from '@tabler/icons-react';
import {
  ACTIVITY_TYPE_LABELS,
  ACTIVITY_TYPES,
  BIOMETRIC_VIEW_TYPES,
  WEB_ACTIVITY_TYPES,
  type ActivityItem,
  type ActivityType,
} from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import { AppModal } from '../../../components/app-modal';
import {
  ACTIONS_COLUMN,
  ListPage,
  RefreshingNotice,
  usePaging,
} from '../../../components/list-page';
import { PeriodPicker, type PeriodValue } from '../../../components/period-picker';
import { toast } from '../../../components/toast';
import { ActivityTarget, type ScreenOf } from './activity-target';
import { VerifyResult } from './verify-result';
import { textField } from '../../../lib/forms';
import {
  activityListQuery,
  downloadActivityCsv,
  verifyActivityChain,
  type ActivityFilters,
} from '../api/activity';

/** Who saw a person's biometric data: face images, exam photos and the full CPF. */
export const BIOMETRIC_ACCESS_TYPES: readonly ActivityType[] = [
  ...BIOMETRIC_VIEW_TYPES,
  'cpf_view',
];

const TYPE_OPTIONS = [...ACTIVITY_TYPES]
  .map((value) => ({ value, label: ACTIVITY_TYPE_LABELS[value] }))
  .sort((a, b) => a.label.localeCompare(b.label, 'pt-BR'));

export function typeLabel(type: string): string {
  return ACTIVITY_TYPE_LABELS[type as ActivityType] ?? type;
}

const TYPE_COLORS: Partial<Record<ActivityType, string>> = {
  page_view: 'gray',
  error: 'red',
  stream_log: 'indigo',
  face_image_view: 'orange',
  photo_view: 'orange',
  cpf_view: 'orange',
};

function formatMoment(value: string): string {
  return dayjs(value).format('DD/MM/YYYY HH:mm:ss');
}

function sameTypes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

/** `screenOf` names the app's pages in the targets (the app hands in its route table's titles). */
export function ActivityPage({ screenOf }: { screenOf?: ScreenOf } = {}) {
  const paging = usePaging(50);
  const [types, setTypes] = useState<ActivityType[]>([]);
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState('');
  const [period, setPeriod] = useState<PeriodValue>([null, null]);
  const [debouncedActor] = useDebouncedValue(actor.trim(), 350);
  const [debouncedTarget] = useDebouncedValue(target.trim(), 350);
  const [selected, setSelected] = useState<ActivityItem | null>(null);

  const filters: ActivityFilters = {
    types,
    actor: debouncedActor,
    target: debouncedTarget,
    from: period[0] ? dayjs(period[0]).format('YYYY-MM-DD') : null,
    to: period[1] ? dayjs(period[1]).format('YYYY-MM-DD') : null,
  };
  const list = useQuery(
    activityListQuery({ ...filters, page: paging.page, pageSize: paging.pageSize }),
  );

  const exportCsv = useMutation({
    mutationFn: () => downloadActivityCsv(filters),
    onSuccess: (filename) => toast.success(`Arquivo ${filename} gerado.`),
    onError: (error) => toast.error(error.message),
  });
  const verify = useMutation({ mutationFn: verifyActivityChain });

  const biometricPreset = sameTypes(types, BIOMETRIC_ACCESS_TYPES);
  const change = paging.restarting;

  return (
    <>
      <ListPage
        title="Atividades"
        description="Quem fez o quê na unidade, quando e de qual dispositivo. Cada evento é encadeado ao anterior por um hash."
        action={
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconShieldCheck size={16} aria-hidden />}
              onClick={() => verify.mutate()}
              loading={verify.isPending}
            >
              Verificar integridade
            </Button>
            <Button
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => exportCsv.mutate()}
              loading={exportCsv.isPending}
            >
              Exportar CSV
            </Button>
          </Group>
        }
        filters={
          <Stack gap="sm">
            <VerifyResult
              result={verify.data}
              error={verify.error}
              onClose={() => verify.reset()}
            />
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <Group align="flex-end" gap="sm" wrap="wrap">
                  <MultiSelect
                    label="Tipos"
                    placeholder={types.length ? undefined : 'Todos'}
                    data={TYPE_OPTIONS}
                    value={types}
                    onChange={(value) => change(setTypes)(value as ActivityType[])}
                    searchable
                    clearable
                    nothingFoundMessage="Nenhum tipo com esse nome"
                    // The long list scrolls in the listbox itself, which takes focus, so it
                    // scrolls by keyboard too (axe: scrollable-region-focusable).
                    withScrollArea={false}
                    styles={{ options: { maxHeight: 300, overflowY: 'auto' } }}
                    attributes={{ options: { tabIndex: 0 } }}
                    w={340}
                    maw="100%"
                  />
                  <TextInput
                    label="Quem"
                    placeholder="Nome ou e-mail"
                    leftSection={<IconSearch size={16} aria-hidden />}
                    {...textField(actor, change(setActor))}
                    w={200}
                  />
                  <TextInput
                    label="Alvo"
                    placeholder="CPF, página, exame..."
                    leftSection={<IconSearch size={16} aria-hidden />}
                    {...textField(target, change(setTarget))}
                    w={200}
                  />
                  <PeriodPicker value={period} onChange={change(setPeriod)} maw={250} />
                </Group>
                <Group gap="sm">
                  <Button
                    size="xs"
                    variant={biometricPreset ? 'filled' : 'light'}
                    color="orange"
                    leftSection={<IconFingerprint size={14} aria-hidden />}
                    aria-pressed={biometricPreset}
                    onClick={() =>
                      change(setTypes)(biometricPreset ? [] : [...BIOMETRIC_ACCESS_TYPES])
                    }
                  >
                    Acessos a dados biométricos
                  </Button>
                  <Text size="xs" c="dimmed">
                    Com o CPF da pessoa em “Alvo”, mostra quem viu as imagens faciais, as fotos de
                    exame e o CPF completo dela.
                  </Text>
                </Group>
              </Stack>
            </Paper>
          </Stack>
        }
        query={list}
        loadingLabel="Carregando atividades"
        empty="Nenhuma atividade encontrada com esses filtros."
        columns={['Quando', 'Tipo', 'Quem', 'Alvo', ACTIONS_COLUMN]}
        minWidth={860}
        table={{ 'data-testid': 'activity-table' }}
        row={(item) => (
          <>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {formatMoment(item.createdAt)}
              {clientTimeDiffers(item) && (
                <Text size="xs" c="dimmed">
                  no navegador: {formatMoment(item.occurredAt)}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Badge
                variant="light"
                color={TYPE_COLORS[item.type as ActivityType] ?? 'blue'}
                tt="none"
              >
                {typeLabel(item.type)}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{item.actorName ?? 'Sistema'}</Text>
              {item.actorEmail && (
                <Text size="xs" c="dimmed">
                  {item.actorEmail}
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <ActivityTarget target={item.target} screenOf={screenOf} />
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconEye size={14} aria-hidden />}
                onClick={() => setSelected(item)}
                aria-label={`Detalhes do evento ${item.seq}`}
              >
                Detalhes
              </Button>
            </Table.Td>
          </>
        )}
        paging={paging}
        noun={['evento', 'eventos']}
        below={<RefreshingNotice query={list} />}
      />
      <AppModal
        opened={selected !== null}
        onClose={() => setSelected(null)}
        title={selected ? `Evento ${selected.seq}: ${typeLabel(selected.type)}` : 'Evento'}
        width="640px"
        allowBackdropClose
      >
        {selected && <EventDetails item={selected} screenOf={screenOf} />}
      </AppModal>
    </>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** Page views, errors and stream logs: sent by the browser, with the browser's clock. */
function isBrowserEvent(item: ActivityItem): boolean {
  return (WEB_ACTIVITY_TYPES as readonly string[]).includes(item.type);
}

/** The browser's clock said something else than the server's (more than a minute apart). */
function clientTimeDiffers(item: ActivityItem): boolean {
  return (
    isBrowserEvent(item) &&
    Math.abs(Date.parse(item.occurredAt) - Date.parse(item.createdAt)) > 60_000
  );
}

function EventDetails({ item, screenOf }: { item: ActivityItem; screenOf?: ScreenOf }) {
  return (
    <Stack gap="sm" data-testid="activity-details">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label="Registrado em (servidor)">{formatMoment(item.createdAt)}</Field>
        <Field label="Ocorreu em (relógio do navegador)">
          {isBrowserEvent(item) ? formatMoment(item.occurredAt) : '—'}
        </Field>
        <Field label="Quem">
          {item.actorName ?? 'Sistema'}
          {item.actorEmail ? ` (${item.actorEmail})` : ''}
        </Field>
        <Field label="Unidade">{item.federativeUnit ?? '—'}</Field>
        <Field label="Alvo">
          <ActivityTarget target={item.target} screenOf={screenOf} />
        </Field>
        <Field label="Alvo registrado">{item.target ?? '—'}</Field>
        <Field label="Sequência">{item.seq}</Field>
        <Field label="Dispositivo">{item.deviceId ?? '—'}</Field>
        <Field label="Versão do aplicativo">{item.appVersion ?? '—'}</Field>
      </SimpleGrid>
      <div>
        <Text size="xs" c="dimmed" fw={600}>
          Detalhes
        </Text>
        <ScrollArea.Autosize mah={260} type="auto">
          <Code block data-testid="activity-details-json">
            {JSON.stringify(item.details ?? {}, null, 2)}
          </Code>
        </ScrollArea.Autosize>
      </div>
      <div>
        <Text size="xs" c="dimmed" fw={600}>
          Hash (SHA-256, encadeado ao evento anterior)
        </Text>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {item.hash}
        </Code>
      </div>
    </Stack>
  );
}
