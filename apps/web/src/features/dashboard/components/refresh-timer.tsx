/**
 * The refresh timer (spec 3, 9): set in minutes here, kept in seconds by the
 * dashboard, with the countdown to the next reload, ticking every second. The
 * field keeps what is being typed and commits whole minutes only, so clearing
 * it to type a new number does not switch the timer off on the way.
 */
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { MAX_TIMER_MINUTES } from '../dashboard-state';

export const TIMER_TICK_MS = 1000;

function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whole seconds left before `at`, never more than the interval nor less than 0. */
export function secondsUntil(at: number | null, now: number, timerSeconds: number): number {
  if (at === null) return 0;
  return Math.min(timerSeconds, Math.max(0, Math.ceil((at - now) / 1000)));
}

export type RefreshTimerProps = {
  timerSeconds: number;
  /** When the next automatic reload is due (epoch ms); null when none is. */
  nextRefreshAt: number | null;
  loading: boolean;
  canReload: boolean;
  onMinutesChange: (minutes: number) => void;
  onReload: () => void;
};

export function RefreshTimer(props: RefreshTimerProps) {
  const minutes = Math.round(props.timerSeconds / 60);
  const [draft, setDraft] = useState<string | number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const ticking = props.timerSeconds > 0 && props.nextRefreshAt !== null;
  useEffect(() => {
    if (!ticking) return;
    const interval = setInterval(() => setNow(Date.now()), TIMER_TICK_MS);
    return () => clearInterval(interval);
  }, [ticking]);
  const commit = (value: string | number) => {
    const parsed = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : null;
    if (parsed !== null && parsed <= MAX_TIMER_MINUTES) props.onMinutesChange(parsed);
  };
  return (
    <Group gap="xs" align="flex-end">
      <NumberInput
        label="Atualizar a cada (min)"
        description="0 desliga a atualização automática"
        min={0}
        max={MAX_TIMER_MINUTES}
        allowDecimal={false}
        allowNegative={false}
        value={draft ?? minutes}
        onChange={(value) => {
          setDraft(value);
          commit(value);
        }}
        onBlur={() => setDraft(null)}
        w={190}
      />
      <Stack gap={4} align="flex-end">
        <Text size="xs" c="dimmed" data-testid="timer-countdown">
          {props.timerSeconds > 0
            ? `Próxima atualização em ${formatCountdown(secondsUntil(props.nextRefreshAt, now, props.timerSeconds))}`
            : 'Atualização automática desligada'}
        </Text>
        <Button
          variant="light"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={props.onReload}
          loading={props.loading}
          disabled={!props.canReload}
        >
          Atualizar agora
        </Button>
      </Stack>
    </Group>
  );
}
