/**
 * The station-status icons of spec 3 (absent, approved, disqualified,
 * interrupted, processing, reproved, scheduled, started, ...) with their pt-BR
 * names, derived from an exam's status, result and metadata.
 */
import { Badge, Group, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconBolt,
  IconCalendarEvent,
  IconCircleCheck,
  IconCircleX,
  IconGavel,
  IconHourglass,
  IconPlayerPlay,
  IconUserOff,
  IconBan,
} from '@tabler/icons-react';
import type { Exam } from '@exame/shared';
import type { ReactNode } from 'react';

export type StationStatus =
  | 'scheduled'
  | 'started'
  | 'absent'
  | 'cancelled'
  | 'processing'
  | 'approved'
  | 'reproved'
  | 'disqualified'
  | 'finished';

export const STATION_STATUS: Record<
  StationStatus,
  { label: string; color: string; icon: ReactNode }
> = {
  scheduled: { label: 'Agendado', color: 'gray', icon: <IconCalendarEvent size={16} /> },
  started: { label: 'Em andamento', color: 'blue', icon: <IconPlayerPlay size={16} /> },
  absent: { label: 'Ausente', color: 'orange', icon: <IconUserOff size={16} /> },
  cancelled: { label: 'Cancelado', color: 'dark', icon: <IconBan size={16} /> },
  processing: { label: 'Em análise', color: 'yellow', icon: <IconHourglass size={16} /> },
  approved: { label: 'Aprovado', color: 'teal', icon: <IconCircleCheck size={16} /> },
  reproved: { label: 'Reprovado', color: 'red', icon: <IconCircleX size={16} /> },
  disqualified: { label: 'Desclassificado', color: 'grape', icon: <IconGavel size={16} /> },
  finished: { label: 'Finalizado', color: 'indigo', icon: <IconCircleCheck size={16} /> },
};

export function stationStatusOf(exam: Pick<Exam, 'status' | 'result'>): StationStatus {
  switch (exam.status) {
    case 'scheduled':
      return 'scheduled';
    case 'started':
      return 'started';
    case 'absence':
      return 'absent';
    case 'cancelled':
      return 'cancelled';
    case 'done':
      if (exam.result === 'in_analysis') return 'processing';
      if (exam.result === 'approved') return 'approved';
      if (exam.result === 'reproved') return 'reproved';
      if (exam.result === 'disqualified') return 'disqualified';
      return 'finished';
  }
}

export function ExamStatusBadge({
  exam,
}: {
  exam: Pick<Exam, 'status' | 'result' | 'interrupted'>;
}) {
  const status = STATION_STATUS[stationStatusOf(exam)];
  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label={status.label}>
        <ThemeIcon color={status.color} variant="light" radius="xl" size={26} aria-hidden>
          {status.icon}
        </ThemeIcon>
      </Tooltip>
      <Badge color={status.color} variant="light">
        {status.label}
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
