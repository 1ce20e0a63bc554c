/**
 * One service post on the dashboard: its name and its own identifier, its
 * counters (with how much of them came from the delivery system's metadata),
 * a chart of its results and its actions.
 */
import { DonutChart } from '@mantine/charts';
import {
  Badge,
  Button,
  Card,
  Flex,
  Group,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconFileAnalytics, IconListDetails } from '@tabler/icons-react';
import {
  fromMetadataText,
  METADATA_COUNTERS,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  type LocalReport,
  type ReportCounter,
} from '@exame/shared';
import { Link } from 'react-router';
import { COUNTER_COLORS, numberFormat } from './counter-style';

/** "Dos metadados: 5 em Pendentes de auditoria, 1 em Ausentes", or null when none came that way. */
export function metadataLine(local: Pick<LocalReport, 'fromMetadata'>): string | null {
  const parts = METADATA_COUNTERS.filter((counter) => local.fromMetadata[counter] > 0).map(
    (counter) =>
      `${numberFormat.format(local.fromMetadata[counter])} em ${REPORT_COUNTER_LABELS[counter]}`,
  );
  return parts.length === 0 ? null : `Dos metadados do sistema de provas: ${parts.join(', ')}.`;
}

const RESULT_COUNTERS = ['approved', 'reproved', 'disqualified'] as const;

export type LocalCardProps = {
  local: LocalReport;
  highlighted: ReportCounter;
  selected: boolean;
  onSelect: () => void;
  /** The report page of the post (ADMIN only); no link when absent. */
  reportHref?: string;
  /** Opens the exams behind a counter of this post (ADMIN and auditor). */
  onOpenCounter?: (counter: ReportCounter) => void;
};

export function LocalCard({
  local,
  highlighted,
  selected,
  onSelect,
  reportHref,
  onOpenCounter,
}: LocalCardProps) {
  const decided = RESULT_COUNTERS.reduce((sum, counter) => sum + local.report[counter], 0);
  const approvalRate = decided > 0 ? Math.round((local.report.approved / decided) * 100) : null;
  const titleId = `posto-${local.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="article"
      aria-labelledby={titleId}
      data-testid="local-card"
      data-local-id={local.id}
      style={selected ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : {}}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="xs">
        <div style={{ minWidth: 0 }}>
          <Text id={titleId} fw={700} size="md" truncate="end">
            {local.name}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {local.identifier ?? 'Sem posto'}
          </Text>
        </div>
        <Badge size="lg" variant="light" color="brand">
          <VisuallyHidden>Total de exames: </VisuallyHidden>
          {numberFormat.format(local.report.total)}
        </Badge>
      </Group>
      {/* On a phone the counters go under the chart, so that their names are not cut. */}
      <Flex
        direction={{ base: 'column', xs: 'row' }}
        align={{ base: 'stretch', xs: 'center' }}
        gap="md"
      >
        <Stack gap={2} align="center" miw={110}>
          <DonutChart
            size={96}
            thickness={14}
            withTooltip={decided > 0}
            tooltipDataSource="segment"
            chartLabel={approvalRate === null ? '—' : `${approvalRate}%`}
            data={
              decided > 0
                ? RESULT_COUNTERS.map((counter) => ({
                    name: REPORT_COUNTER_LABELS[counter],
                    value: local.report[counter],
                    color: COUNTER_COLORS[counter],
                  }))
                : [{ name: 'Sem resultados', value: 1, color: 'gray.3' }]
            }
            aria-label={
              approvalRate === null
                ? 'Sem resultados no período'
                : `Aprovação de ${approvalRate}% entre ${decided} exames com resultado`
            }
            role="img"
          />
          <Text size="xs" c="dimmed">
            Aprovação
          </Text>
        </Stack>
        <SimpleGrid
          cols={2}
          spacing={4}
          verticalSpacing={2}
          style={{ flex: 1 }}
          component="dl"
          m={0}
        >
          {REPORT_COUNTERS.filter((counter) => counter !== 'total').map((counter) => (
            <Group
              key={counter}
              gap={4}
              wrap="nowrap"
              justify="space-between"
              px={4}
              style={{
                borderRadius: 4,
                background:
                  counter === highlighted ? 'var(--mantine-color-yellow-light)' : undefined,
              }}
              data-counter={counter}
            >
              <Text component="dt" size="xs" c="dimmed" truncate="end">
                <span
                  aria-hidden
                  style={{
                    display: 'inline-block',
                    width: 8,
                    height: 8,
                    borderRadius: 8,
                    marginRight: 4,
                    background: `var(--mantine-color-${COUNTER_COLORS[counter].replace('.', '-')})`,
                  }}
                />
                {REPORT_COUNTER_LABELS[counter]}
              </Text>
              <Text component="dd" size="sm" fw={600} m={0}>
                {onOpenCounter && local.report[counter] > 0 ? (
                  <UnstyledButton
                    onClick={() => onOpenCounter(counter)}
                    data-testid={`open-${counter}`}
                    fz="sm"
                    fw={600}
                    td="underline"
                  >
                    {/* The name is the visible number with its context (WCAG 2.5.3). */}
                    <VisuallyHidden>
                      {`Ver os exames de ${REPORT_COUNTER_LABELS[counter].toLowerCase()} em ${local.name}:`}
                    </VisuallyHidden>{' '}
                    {numberFormat.format(local.report[counter])}
                  </UnstyledButton>
                ) : (
                  numberFormat.format(local.report[counter])
                )}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Flex>
      {metadataLine(local) && (
        <Text size="xs" c="dimmed" mt={6} data-testid="card-metadata">
          {metadataLine(local)}
        </Text>
      )}
      <Group justify="space-between" mt="sm" gap="xs">
        <Button
          size="xs"
          variant={selected ? 'filled' : 'light'}
          leftSection={<IconListDetails size={14} aria-hidden />}
          onClick={onSelect}
          aria-pressed={selected}
        >
          {selected ? 'Selecionado' : 'Ocorrências'}
          <VisuallyHidden>{` de ${local.name}`}</VisuallyHidden>
        </Button>
        {reportHref && (
          <Button
            size="xs"
            variant="subtle"
            component={Link}
            to={reportHref}
            leftSection={<IconFileAnalytics size={14} aria-hidden />}
            aria-label={`Abrir o relatório de ${local.name}`}
          >
            Relatório
          </Button>
        )}
      </Group>
    </Card>
  );
}

export type CounterTileProps = {
  counter: ReportCounter;
  value: number;
  /** How much of the value came from the delivery system's metadata. */
  fromMetadata?: number;
  active: boolean;
  onClick: () => void;
};

/** A summary counter; pressing it filters the posts by that counter. */
export function CounterTile({
  counter,
  value,
  fromMetadata = 0,
  active,
  onClick,
}: CounterTileProps) {
  return (
    <UnstyledButton
      onClick={onClick}
      aria-pressed={active}
      data-testid={`resume-${counter}`}
      p="sm"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px solid ${active ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        borderLeft: `4px solid var(--mantine-color-${COUNTER_COLORS[counter].replace('.', '-')})`,
        background: active ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-body)',
      }}
    >
      {/* On the tinted background of the pressed tile, dimmed gray would read under 4.5:1. */}
      <Text size="xs" c={active ? undefined : 'dimmed'} lh={1.2}>
        {REPORT_COUNTER_LABELS[counter]}
      </Text>
      <Text size="xl" fw={700} lh={1.3}>
        {numberFormat.format(value)}
      </Text>
      {fromMetadata > 0 && (
        <Text size="xs" c={active ? undefined : 'dimmed'} lh={1.2} data-testid="tile-metadata">
          {fromMetadataText(fromMetadata)}
        </Text>
      )}
    </UnstyledButton>
  );
}
