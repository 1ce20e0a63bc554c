/**
 * The station-status icons of spec 3 (absent, approved, disqualified,
 * interrupted, processing, reproved, scheduled, started, ...) with their pt-BR
 * names, derived from an exam's status, result and metadata.
 */
import { Badge, Group, Tooltip } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import { STATION_STATUS_LABELS, stationStatusOf, type Exam } from '@exame/shared';
import { STATION_STATUS_LOOK, StationStatusIcon } from '../../../components/station-status';

export { stationStatusOf };

export function ExamStatusBadge({
  exam,
}: {
  exam: Pick<Exam, 'status' | 'result' | 'interrupted'>;
}) {
  const status = stationStatusOf({ status: exam.status, result: exam.result });
  return (
    <Group gap={6} wrap="nowrap">
      <StationStatusIcon status={status} decorative />
      <Badge color={STATION_STATUS_LOOK[status].color} variant="light">
        {STATION_STATUS_LABELS[status]}
      </Badge>
      {exam.interrupted > 0 && (
        <Tooltip label="O exame foi interrompido">
          <Badge color="orange" variant="outline" leftSection={<IconBolt size={12} />}>
            Interrompido
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
