/**
 * The refresh timer (spec 3, 9): set in minutes here, kept in seconds by the
 * dashboard controller, with the countdown to the next reload. The field
 * keeps what is being typed and commits whole minutes only, so clearing it to
 * type a new number does not switch the timer off on the way.
 */
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { MAX_TIMER_MINUTES } from '../dashboard-state';

function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

export type RefreshTimerProps = {
  timerSeconds: number;
  secondsLeft: number;
  loading: boolean;
  canReload: boolean;
  onMinutesChange: (minutes: number) => void;
  onReload: () => void;
};

export function RefreshTimer(props: RefreshTimerProps) {
  const minutes = Math.round(props.timerSeconds / 60);
  const [draft, setDraft] = useState<string | number | null>(null);
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
            ? `Próxima atualização em ${formatCountdown(props.secondsLeft)}`
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
