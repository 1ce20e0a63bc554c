/**
 * The home of ADMIN and AUDITOR: the service posts of the unit with their
 * counters for the period, a counter filter, a search, the occurrences and a
 * refresh timer. The screen state and the counters come from `useDashboard`;
 * this component only renders them.
 */
import {
  Alert,
  Button,
  Center,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconSearch, IconX } from '@tabler/icons-react';
import {
  ALL_EXAMS_FILTER,
  METADATA_COUNTERS,
  METADATA_COUNTERS_NOTE,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  type LocalReport,
  type MetadataCounter,
  type ReportCounter,
} from '@exame/shared';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { CounterExams } from '../../../components/counter-exams';
import { PeriodPicker } from '../../../components/period-picker';
import { useAppState } from '../../../lib/app-store';
import { counterOfFilter, FILTER_OPTIONS } from '../dashboard-state';
import { useDashboard } from '../use-dashboard';
import { numberFormat } from './counter-style';
import { CounterTile, LocalCard } from './local-card';
import { PostsChart } from './posts-chart';
import { OccurrencesList } from './occurrences-list';
import { RefreshTimer } from './refresh-timer';
import { textField } from '../../../lib/forms';
import { LoadingSpinner } from '../../../components/loading-spinner';

/** Spec 8: the dashboard load failure. */
export const DASHBOARD_LOAD_ERROR = {
  title: 'Erro',
  message: 'Falha ao carregar os dados dos Postos de Atendimento.',
} as const;

export function DashboardPage() {
  const user = useAppState((state) => state.user);
  const { showAlert } = useAlert();
  const dashboard = useDashboard({
    onError: (error) =>
      showAlert({
        icon: 'error',
        title: DASHBOARD_LOAD_ERROR.title,
        message: DASHBOARD_LOAD_ERROR.message,
        detail: error.message,
      }),
  });
  const { state, visibleLocals, selected } = dashboard;
  const isAdmin = user?.roleDescription === 'ADMIN';
  // The exams behind a counter of a post, served page by page (ADMIN and auditor).
  const [opened, setOpened] = useState<{ local: LocalReport; counter: ReportCounter } | null>(null);
  const highlighted = counterOfFilter(state.filterName);
  const period = state.period;
  const reportQuery = period ? `?startDate=${period.startDate}&endDate=${period.endDate}` : '';
  const isMetadataCounter = (counter: ReportCounter): counter is MetadataCounter =>
    (METADATA_COUNTERS as readonly string[]).includes(counter);
  const usesMetadata = METADATA_COUNTERS.some(
    (counter) => dashboard.resumeFromMetadata[counter] > 0,
  );

  const pickCounter = (counter: ReportCounter) =>
    dashboard.setFilter(
      counter === 'total' || state.filterName === REPORT_COUNTER_LABELS[counter]
        ? ALL_EXAMS_FILTER
        : REPORT_COUNTER_LABELS[counter],
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>Postos de atendimento</Title>
          <Text c="dimmed" size="sm">
            Exames da unidade {user?.federativeUnit} por posto
            {dashboard.loadedAt
              ? ` · atualizado às ${dayjs(dashboard.loadedAt).format('HH:mm:ss')}`
              : ''}
          </Text>
        </div>
        <RefreshTimer
          timerSeconds={state.timer}
          nextRefreshAt={dashboard.nextRefreshAt}
          loading={dashboard.loading}
          canReload={period !== null}
          onMinutesChange={dashboard.setTimerMinutes}
          onReload={dashboard.reload}
        />
      </Group>

      <Paper withBorder radius="md" p="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <PeriodPicker
            value={[state.startDate, state.endDate]}
            onChange={([start, end]) => dashboard.setDates(start, end)}
          />
          <Select
            label="Filtrar por"
            data={FILTER_OPTIONS.map((option) => ({ value: option, label: option }))}
            value={state.filterName}
            onChange={(value) => dashboard.setFilter(value ?? ALL_EXAMS_FILTER)}
            allowDeselect={false}
            w={230}
          />
          <TextInput
            label="Buscar posto"
            placeholder="Nome ou identificador"
            leftSection={<IconSearch size={16} aria-hidden />}
            {...textField(state.search, dashboard.setSearch)}
            rightSection={
              state.search ? (
                <IconX
                  size={16}
                  role="button"
                  tabIndex={0}
                  aria-label="Limpar busca"
                  style={{ cursor: 'pointer' }}
                  onClick={() => dashboard.setSearch('')}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') dashboard.setSearch('');
                  }}
                />
              ) : null
            }
            w={260}
          />
        </Group>
      </Paper>

      <section aria-labelledby="resumo-titulo">
        <Text size="sm" c="dimmed" mb={6} id="resumo-titulo">
          Resumo do período, todos os postos — selecione um contador para filtrar os postos
        </Text>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="xs">
          {REPORT_COUNTERS.map((counter) => (
            <CounterTile
              key={counter}
              counter={counter}
              value={dashboard.resume[counter]}
              fromMetadata={
                isMetadataCounter(counter) ? dashboard.resumeFromMetadata[counter] : undefined
              }
              active={
                counter === 'total'
                  ? state.filterName === ALL_EXAMS_FILTER
                  : state.filterName === REPORT_COUNTER_LABELS[counter]
              }
              onClick={() => pickCounter(counter)}
            />
          ))}
        </SimpleGrid>
        {usesMetadata && (
          <Text size="xs" c="dimmed" mt={6} data-testid="metadata-note">
            {METADATA_COUNTERS_NOTE}
          </Text>
        )}
      </section>

      <div aria-live="polite" className="visually-hidden">
        {dashboard.loading ? 'Carregando os dados dos postos…' : ''}
      </div>

      {!period ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            Selecione a data inicial e a data final para ver os postos.
          </Text>
        </Paper>
      ) : dashboard.loadedAt === null && dashboard.loading ? (
        <Center p="xl">
          <LoadingSpinner label="Carregando os postos" />
        </Center>
      ) : dashboard.failed ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title={DASHBOARD_LOAD_ERROR.title}>
          {DASHBOARD_LOAD_ERROR.message} Use “Atualizar agora” para tentar de novo.
        </Alert>
      ) : dashboard.locals.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            Nenhum exame no período selecionado.
          </Text>
        </Paper>
      ) : (
        <>
          {visibleLocals.length > 0 && <PostsChart locals={visibleLocals} counter={highlighted} />}
          {visibleLocals.length === 0 ? (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed">
                Nenhum posto corresponde à busca ou ao filtro.
              </Text>
            </Paper>
          ) : (
            <SimpleGrid
              cols={{ base: 1, md: 2, xl: 3 }}
              spacing="md"
              aria-busy={dashboard.loading}
              data-testid="local-cards"
            >
              {visibleLocals.map((local) => (
                <LocalCard
                  key={local.id}
                  local={local}
                  highlighted={highlighted}
                  selected={selected?.id === local.id}
                  onSelect={() => dashboard.select(selected?.id === local.id ? null : local)}
                  reportHref={
                    isAdmin
                      ? `/exam-report/${encodeURIComponent(local.id)}${reportQuery}`
                      : undefined
                  }
                  onOpenCounter={(counter) => setOpened({ local, counter })}
                />
              ))}
            </SimpleGrid>
          )}
        </>
      )}

      {selected && (
        <Paper withBorder radius="md" p="sm" data-testid="selected-local">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              Posto selecionado: <b>{selected.name}</b> ({selected.identifier ?? 'sem posto'}) ·{' '}
              {numberFormat.format(selected.report.total)} exames
              {selected.report.total === 0 ? ' no período' : ''}
            </Text>
            <Group gap="xs">
              {isAdmin && (
                <Button
                  size="xs"
                  variant="subtle"
                  component={Link}
                  to={`/exam-report/${encodeURIComponent(selected.id)}${reportQuery}`}
                >
                  Relatório do posto
                </Button>
              )}
              <Button size="xs" variant="default" onClick={() => dashboard.select(null)}>
                Todos os postos
              </Button>
            </Group>
          </Group>
        </Paper>
      )}

      {opened && period && (
        <CounterExams
          key={`${opened.local.id}|${opened.counter}|${period.startDate}|${period.endDate}`}
          period={period}
          local={opened.local}
          counter={opened.counter}
          onClose={() => setOpened(null)}
        />
      )}

      <OccurrencesList period={period} local={state.selected} version={dashboard.loadedAt ?? 0} />

      {isAdmin && period && (
        <Group justify="flex-end">
          <Button component={Link} to={`/exam-report/all${reportQuery}`} variant="outline">
            Relatório de todos os postos
          </Button>
        </Group>
      )}
    </Stack>
  );
}
