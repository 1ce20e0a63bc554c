/**
 * The counters of the report's posts: a table where it fits (wide screens),
 * a card per post elsewhere. A post reads by its name and its own identifier
 * (as on "Postos de atendimento", never the API's report id); each number
 * opens the exams behind it, and says how much of it came from the delivery
 * system's metadata.
 */
import {
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  ALL_LOCALS_ID,
  fromMetadataText,
  METADATA_COUNTERS,
  REPORT_COUNTER_LABELS,
  REPORT_COUNTERS,
  type LocalReport,
  type MetadataCounter,
  type ReportCounter,
} from '@exame/shared';

const numberFormat = new Intl.NumberFormat('pt-BR');

export type CounterSelection = { local: LocalReport; counter: ReportCounter };

export type ReportCountersProps = {
  rows: readonly LocalReport[];
  selection: CounterSelection | null;
  onSelect: (selection: CounterSelection) => void;
  busy: boolean;
};

const isTotal = (local: LocalReport) => local.id === ALL_LOCALS_ID;
/** How a counter's name refers to its post: by name, or "todos os postos" for the total. */
const nameOf = (local: LocalReport) => (isTotal(local) ? 'todos os postos' : local.name);

/** How much of a counter came from the metadata (0 for the counters it never feeds). */
export function metadataPart(local: LocalReport, counter: ReportCounter): number {
  return (METADATA_COUNTERS as readonly string[]).includes(counter)
    ? local.fromMetadata[counter as MetadataCounter]
    : 0;
}

function CounterButton({
  local,
  counter,
  selection,
  onSelect,
}: { local: LocalReport; counter: ReportCounter } & Pick<
  ReportCountersProps,
  'selection' | 'onSelect'
>) {
  const active = selection?.local.id === local.id && selection.counter === counter;
  const value = local.report[counter];
  const fromMetadata = metadataPart(local, counter);
  // The button is named by its own content (what is seen, plus the words
  // only a screen reader needs), so its name always holds its visible text.
  // The spaces between the pieces are text of their own: at the edge of a
  // line they take no room, and the name reads "…: 2 (1 dos metadados)".
  const seeExams = <VisuallyHidden component="span">. Ver os exames</VisuallyHidden>;
  return (
    <UnstyledButton
      onClick={() => onSelect({ local, counter })}
      aria-pressed={active}
      data-counter-value={value}
      px={4}
      style={{
        borderRadius: 4,
        // Right-aligned in the table's columns, as the cell; left in a card.
        textAlign: 'inherit',
        fontWeight: active ? 700 : undefined,
        background: active ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <VisuallyHidden component="span">{`${REPORT_COUNTER_LABELS[counter]} de ${nameOf(local)}: `}</VisuallyHidden>{' '}
      <span style={{ textDecoration: 'underline dotted' }}>{numberFormat.format(value)}</span>
      {fromMetadata > 0 ? (
        <>
          {' '}
          <Text component="span" display="block" size="xs" c="dimmed">
            <VisuallyHidden component="span">(</VisuallyHidden>
            <span data-testid="from-metadata">{fromMetadataText(fromMetadata)}</span>
            <VisuallyHidden component="span">)</VisuallyHidden>
            {seeExams}
          </Text>
        </>
      ) : (
        seeExams
      )}
    </UnstyledButton>
  );
}

function PostName({ local }: { local: LocalReport }) {
  return (
    <>
      <Text size="sm" fw={isTotal(local) ? 700 : 500}>
        {isTotal(local) ? 'Total' : local.name}
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
        {isTotal(local) ? 'Todos os postos' : (local.identifier ?? 'Sem posto')}
      </Text>
    </>
  );
}

export function ReportTable({ rows, selection, onSelect, busy }: ReportCountersProps) {
  return (
    <Table
      striped
      withTableBorder
      verticalSpacing="xs"
      horizontalSpacing={8}
      aria-busy={busy}
      data-testid="report-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th style={{ verticalAlign: 'bottom' }}>Posto</Table.Th>
          {REPORT_COUNTERS.map((counter) => (
            <Table.Th key={counter} ta="right" fz="xs" style={{ verticalAlign: 'bottom' }}>
              {REPORT_COUNTER_LABELS[counter]}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((local) => (
          <Table.Tr
            key={local.id}
            fw={isTotal(local) ? 700 : undefined}
            data-local-id={isTotal(local) ? 'total' : local.id}
          >
            <Table.Td>
              <PostName local={local} />
            </Table.Td>
            {REPORT_COUNTERS.map((counter) => (
              <Table.Td key={counter} ta="right" data-counter={counter}>
                <CounterButton
                  local={local}
                  counter={counter}
                  selection={selection}
                  onSelect={onSelect}
                />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One card per post (and the total), its counters two or three to a line. */
export function ReportCards({ rows, selection, onSelect, busy }: ReportCountersProps) {
  return (
    <Stack gap="sm" aria-busy={busy} data-testid="report-cards">
      {rows.map((local) => (
        <Paper
          key={local.id}
          withBorder
          radius="md"
          p="sm"
          component="section"
          aria-label={isTotal(local) ? 'Total de todos os postos' : local.name}
          data-testid="report-card"
          data-local-id={isTotal(local) ? 'total' : local.id}
        >
          <PostName local={local} />
          <SimpleGrid
            component="dl"
            cols={{ base: 2, xs: 3 }}
            spacing="xs"
            verticalSpacing={6}
            mt="xs"
            mb={0}
          >
            {REPORT_COUNTERS.map((counter) => (
              <div key={counter} data-counter={counter} style={{ minWidth: 0 }}>
                <Text component="dt" size="xs" c="dimmed">
                  {REPORT_COUNTER_LABELS[counter]}
                </Text>
                <Text component="dd" size="sm" fw={600} m={0}>
                  <CounterButton
                    local={local}
                    counter={counter}
                    selection={selection}
                    onSelect={onSelect}
                  />
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
