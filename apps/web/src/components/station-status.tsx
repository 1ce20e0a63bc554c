/**
 * The station-status icons of spec 3 (absent, approved, audited, not
 * audited, disqualified, finished, interrupted, not approved, processing,
 * reproved, scheduled, started) with their pt-BR names, and the check-in
 * indicator (true/false: the candidate has checked in at the station).
 */
import { ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconBan,
  IconCalendarEvent,
  IconCircleCheck,
  IconCircleX,
  IconClipboardCheck,
  IconClipboardX,
  IconGavel,
  IconHourglass,
  IconPlayerPause,
  IconPlayerPlay,
  IconThumbDown,
  IconUserCheck,
  IconUserOff,
  IconUserQuestion,
} from '@tabler/icons-react';
import { STATION_STATUS_LABELS, type StationStatus } from '@exame/shared';
import type { ReactNode } from 'react';

export const STATION_STATUS_LOOK: Readonly<
  Record<StationStatus, { color: string; icon: ReactNode }>
> = {
  scheduled: { color: 'gray', icon: <IconCalendarEvent size={16} /> },
  started: { color: 'blue', icon: <IconPlayerPlay size={16} /> },
  interrupted: { color: 'orange', icon: <IconPlayerPause size={16} /> },
  absent: { color: 'orange', icon: <IconUserOff size={16} /> },
  processing: { color: 'yellow', icon: <IconHourglass size={16} /> },
  finished: { color: 'indigo', icon: <IconCircleCheck size={16} /> },
  approved: { color: 'teal', icon: <IconCircleCheck size={16} /> },
  reproved: { color: 'red', icon: <IconCircleX size={16} /> },
  not_approved: { color: 'red', icon: <IconThumbDown size={16} /> },
  disqualified: { color: 'grape', icon: <IconGavel size={16} /> },
  audited: { color: 'teal', icon: <IconClipboardCheck size={16} /> },
  not_audited: { color: 'yellow', icon: <IconClipboardX size={16} /> },
  cancelled: { color: 'dark', icon: <IconBan size={16} /> },
};

/** The icon of a station status, named for screen readers (hidden from them beside its label). */
export function StationStatusIcon({
  status,
  size = 26,
  decorative = false,
}: {
  status: StationStatus;
  size?: number;
  decorative?: boolean;
}) {
  const look = STATION_STATUS_LOOK[status];
  const naming = decorative
    ? { 'aria-hidden': true }
    : { role: 'img', 'aria-label': STATION_STATUS_LABELS[status] };
  return (
    <Tooltip label={STATION_STATUS_LABELS[status]}>
      <ThemeIcon
        color={look.color}
        variant="light"
        radius="xl"
        size={size}
        {...naming}
        data-station-status={status}
      >
        {look.icon}
      </ThemeIcon>
    </Tooltip>
  );
}

/** The check-in indicator of a station: whether its candidate has checked in. */
export function CheckInIndicator({ checkedIn }: { checkedIn: boolean }) {
  const label = checkedIn ? 'Candidato presente (check-in feito)' : 'Sem check-in do candidato';
  return (
    <Tooltip label={label}>
      <ThemeIcon
        color={checkedIn ? 'teal' : 'gray'}
        variant={checkedIn ? 'light' : 'outline'}
        radius="xl"
        size={22}
        role="img"
        aria-label={label}
        data-check-in={checkedIn}
      >
        {checkedIn ? <IconUserCheck size={14} /> : <IconUserQuestion size={14} />}
      </ThemeIcon>
    </Tooltip>
  );
}
