/** The line on top of an audit: who holds the exam, until when, and the actions on the claim. */
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { EXAM_RESULT_LABELS, type ExamResult } from '@exame/shared';
import type { ClaimState } from '../use-audit-claim';
import dayjs from 'dayjs';

export const format = (value: string | null) =>
  value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—';
export const resultLabel = (value: string | null) =>
  value ? (EXAM_RESULT_LABELS[value as ExamResult] ?? value) : null;

export function ClaimLine({
  state,
  onRelease,
  releasing,
}: {
  state: ClaimState;
  onRelease: () => void;
  releasing: boolean;
}) {
  switch (state.kind) {
    case 'claiming':
      return <Text size="sm">Abrindo o exame para auditoria…</Text>;
    case 'holding':
      return (
        <Group gap="sm">
          <Text size="sm" data-testid="claim-state">
            Você audita este exame até {dayjs(state.claim.expiresAt).format('HH:mm')}.
          </Text>
          <Button size="xs" variant="default" onClick={onRelease} loading={releasing}>
            Devolver à fila
          </Button>
        </Group>
      );
    case 'held-by-other':
      return (
        <Alert color="yellow" icon={<IconAlertCircle size={18} />} data-testid="claim-state">
          Em auditoria por {state.alert.auditor.auditorName}: você pode ler o exame, mas não
          decidir.
        </Alert>
      );
    case 'closed':
      return (
        <Text size="sm" c="dimmed" data-testid="claim-state">
          {state.message}
        </Text>
      );
    case 'failed':
      return (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Erro">
          {state.message}
        </Alert>
      );
    default:
      return null;
  }
}
