/**
 * The dashboard's chart of one counter per post: horizontal bars, one line
 * per post, so that every post is labelled by name however many there are
 * and however narrow the screen (side by side, the names skipped each other).
 */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Paper, Title } from '@mantine/core';
import { REPORT_COUNTER_LABELS, type LocalReport, type ReportCounter } from '@exame/shared';
import { COUNTER_COLORS, numberFormat } from './counter-style';

/** Average width of a character of the 12 px axis text, to size the names' column. */
const CHAR_PX = 6.6;
const MAX_LABEL_PX = 180;

/** Each post's label: its name, with its identifier where two posts share a name. */
export function chartLabels(locals: readonly LocalReport[]): string[] {
  const counts = new Map<string, number>();
  for (const local of locals) counts.set(local.name, (counts.get(local.name) ?? 0) + 1);
  return locals.map((local) =>
    (counts.get(local.name) ?? 0) > 1 && local.identifier
      ? `${local.name} (${local.identifier})`
      : local.name,
  );
}

function shorten(label: string, maxChars: number): string {
  return label.length <= maxChars ? label : `${label.slice(0, Math.max(1, maxChars - 1))}…`;
}

export function PostsChart({
  locals,
  counter,
}: {
  locals: readonly LocalReport[];
  counter: ReportCounter;
}) {
  const label = REPORT_COUNTER_LABELS[counter];
  const labels = chartLabels(locals);
  const data = locals.map((local, index) => ({
    posto: labels[index] ?? local.name,
    [label]: local.report[counter],
  }));
  const longest = Math.max(...labels.map((text) => text.length));
  const axisWidth = Math.min(MAX_LABEL_PX, Math.ceil(longest * CHAR_PX) + 8);
  const maxChars = Math.floor((axisWidth - 8) / CHAR_PX);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="grafico-titulo">
      <Title order={3} size="h5" mb="sm" id="grafico-titulo">
        {label} por posto
      </Title>
      <BarChart
        h={Math.max(120, locals.length * 32 + 40)}
        data={data}
        dataKey="posto"
        orientation="vertical"
        series={[{ name: label, color: COUNTER_COLORS[counter] }]}
        valueFormatter={(value) => numberFormat.format(value)}
        // Every post's name, whatever the height: recharts skips ticks that would touch.
        yAxisProps={{
          width: axisWidth,
          interval: 0,
          tickFormatter: (value: string) => shorten(value, maxChars),
        }}
        tickLine="none"
        gridAxis="x"
        withBarValueLabel
        // Room on the right for the value of the longest bar.
        barChartProps={{ margin: { right: 28 } }}
        maxBarWidth={22}
        // A chart is an image to assistive technology: role img carries its name.
        role="img"
        aria-label={`Gráfico de ${label.toLowerCase()} por posto: ${locals
          .map((local, index) => `${labels[index]}, ${numberFormat.format(local.report[counter])}`)
          .join('; ')}`}
        data-testid="posts-chart"
      />
    </Paper>
  );
}
