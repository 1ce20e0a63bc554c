/**
 * Pieces of a check-in record shown on the examiner's room screen and in the
 * ADMIN and AUDITOR detail: its state, its examiners with their captures,
 * and its history (the exams of the post and day: check-in-exams.tsx).
 */
import { Badge, Group, Image, Paper, Stack, Text, ThemeIcon, Timeline } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCamera,
  IconClockHour4,
  IconKey,
  IconLogin2,
  IconLogout2,
} from '@tabler/icons-react';
import {
  ADMITTED_BY_LABELS,
  CHECK_IN_EVENT_LABELS,
  CHECK_IN_STATUS_LABELS,
  type CheckInRecord,
  type CheckInStatus,
  type AdmittedBy,
  type CheckInViewer,
} from '@exame/shared';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';

export const formatTime = (iso: string) => dayjs(iso).format('HH:mm');
export const formatDateTime = (iso: string) => dayjs(iso).format('DD/MM/YYYY HH:mm');

/** A record's room and post, as a person names them ("Sala 1 — Posto Centro"). */
export const roomOf = (record: Pick<CheckInRecord, 'examRoom' | 'schedulingLocalDescription'>) =>
  record.examRoom
    ? `${record.examRoom.name} — ${record.schedulingLocalDescription}`
    : record.schedulingLocalDescription;

/** How long from `from` to `to` (or now), in hours and minutes. */
export function formatDuration(from: string, to: string | null, now: Date = new Date()): string {
  const minutes = Math.max(
    0,
    Math.floor(((to ? Date.parse(to) : now.getTime()) - Date.parse(from)) / 60_000),
  );
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

const STATUS_COLORS: Readonly<Record<CheckInStatus, string>> = {
  open: 'teal',
  closed: 'gray',
  force_closed: 'orange',
};

export function CheckInStatusBadge({ status }: { status: CheckInStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {CHECK_IN_STATUS_LABELS[status]}
    </Badge>
  );
}

function Capture({ url, label }: { url: string | null; label: string }) {
  if (!url) {
    return (
      <ThemeIcon
        size={64}
        variant="light"
        color="gray"
        radius="sm"
        role="img"
        aria-label={`${label}: sem captura`}
      >
        <IconCamera size={24} aria-hidden />
      </ThemeIcon>
    );
  }
  return <Image src={url} alt={label} w={64} h={64} radius="sm" fit="cover" />;
}

/**
 * How the examiner proved who they are, where it is worth saying: an entry
 * by face alone (the unit allows it) stands out; a password typed with the
 * face is told quietly. The session and examiner 2's password say nothing.
 */
export function AdmittedByNote({ admittedBy }: { admittedBy: AdmittedBy | null }) {
  if (admittedBy === 'face_only') {
    return (
      <Badge
        color="orange"
        variant="light"
        leftSection={<IconAlertTriangle size={12} aria-hidden />}
        data-testid="admitted-face-only"
      >
        {ADMITTED_BY_LABELS.face_only}
      </Badge>
    );
  }
  if (admittedBy === 'password') {
    return (
      <Group gap={6} data-testid="admitted-password">
        <IconKey size={14} aria-hidden />
        <Text size="sm" c="dimmed">
          {ADMITTED_BY_LABELS.password}
        </Text>
      </Group>
    );
  }
  return null;
}

/** An examiner of the record: entry and exit, each with its capture where there is one. */
export function ViewerCard({ viewer, actions }: { viewer: CheckInViewer; actions?: ReactNode }) {
  const inRoom = viewer.checkOutDate === null && viewer.removedAt === null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="check-in-viewer">
      {/* On a narrow screen the state and the actions go below the examiner, never cut. */}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group align="flex-start" wrap="nowrap" style={{ minWidth: 0 }}>
          <Capture url={viewer.faceUrl} label={`Captura de entrada de ${viewer.name}`} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600}>{viewer.name}</Text>
            <Text size="sm" c="dimmed">
              CPF {viewer.cpf}
            </Text>
            <Group gap={6}>
              <IconLogin2 size={14} aria-hidden />
              <Text size="sm">Entrada às {formatTime(viewer.checkInDate)}</Text>
            </Group>
            <AdmittedByNote admittedBy={viewer.admittedBy} />
            {viewer.removedAt && (
              <Text size="sm">Removido da sala às {formatTime(viewer.removedAt)}</Text>
            )}
            {viewer.checkOutDate && !viewer.removedAt && (
              <Group gap={6}>
                <IconLogout2 size={14} aria-hidden />
                <Text size="sm">
                  Saída às {formatTime(viewer.checkOutDate)}
                  {viewer.checkOutValidated ? ' (validada pelo rosto)' : ''}
                </Text>
              </Group>
            )}
          </Stack>
        </Group>
        <Stack gap="xs" align="flex-end">
          {inRoom ? (
            <Badge color="teal" variant="light">
              Na sala
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              Fora da sala
            </Badge>
          )}
          {viewer.checkOutFaceUrl && (
            <Capture url={viewer.checkOutFaceUrl} label={`Captura de saída de ${viewer.name}`} />
          )}
          {actions}
        </Stack>
      </Group>
    </Paper>
  );
}

/** What happened to the record, in order. */
export function CheckInHistory({ record }: { record: CheckInRecord }) {
  return (
    <Stack gap="xs">
      <Text fw={600} component="h3" m={0}>
        Histórico
      </Text>
      <Timeline bulletSize={18} lineWidth={2} active={record.history.length}>
        {record.history.map((event, index) => (
          <Timeline.Item
            key={`${event.type}-${index}`}
            bullet={<IconClockHour4 size={12} aria-hidden />}
            title={`${CHECK_IN_EVENT_LABELS[event.type]}${event.subject ? `: ${event.subject}` : ''}`}
          >
            <Text size="sm" c="dimmed">
              {formatDateTime(event.at)}
              {event.actorName ? ` · por ${event.actorName}` : ''}
            </Text>
            {event.transferredFrom && <Text size="sm">Recebida de {event.transferredFrom}</Text>}
            {(event.admittedBy === 'face_only' || event.admittedBy === 'password') && (
              <Text size="sm" c={event.admittedBy === 'face_only' ? 'orange.9' : 'dimmed'}>
                {ADMITTED_BY_LABELS[event.admittedBy]}
              </Text>
            )}
            {event.reason && <Text size="sm">Motivo: {event.reason}</Text>}
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
