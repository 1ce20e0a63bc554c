/**
 * The audit page's account of what happened to the exam: its timeline (each
 * change with who made it: the auditor by name, or the system that sent it)
 * and the summary of an audit decision, its badge coloured by the outcome.
 */
import { Badge, Group, Stack, Text, Timeline } from '@mantine/core';
import {
  AUDIT_DECISION_STATE_LABELS,
  EXAM_HISTORY_SOURCE_LABELS,
  EXAM_RESULT_LABELS,
  EXAM_STATUS_LABELS,
  type AuditDecision,
  type AuditDetail,
  type AuditOutcome,
  type ExamResult,
  type ExamStatus,
} from '@exame/shared';
import dayjs from 'dayjs';

const format = (value: string | null) => (value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—');
const statusLabel = (value: string | null) =>
  value ? (EXAM_STATUS_LABELS[value as ExamStatus] ?? value) : '—';
const resultLabel = (value: string | null) =>
  value ? (EXAM_RESULT_LABELS[value as ExamResult] ?? value) : null;

/** An approval reads green; a reproval and a disqualification, red (the text says which). */
export const OUTCOME_COLORS: Readonly<Record<AuditOutcome, string>> = {
  approved: 'teal',
  reproved: 'red',
  disqualified: 'red',
};

type HistoryEntry = AuditDetail['history'][number];

/** A status change, or (the status staying) the result's change: an audit decision, a reopening. */
function timelineTitle(entry: HistoryEntry): string {
  if (entry.fromStatus === entry.toStatus && entry.fromResult !== entry.toResult) {
    return `Resultado: ${resultLabel(entry.fromResult) ?? '—'} → ${resultLabel(entry.toResult) ?? '—'}`;
  }
  const from =
    entry.fromStatus && entry.fromStatus !== entry.toStatus
      ? `${statusLabel(entry.fromStatus)} → `
      : '';
  const result = resultLabel(entry.toResult);
  return `${from}${statusLabel(entry.toStatus)}${result ? ` (${result})` : ''}`;
}

/** Who made a change: the person by name, or the system it came from. */
export function actorOf(entry: HistoryEntry): string {
  if (entry.actorName) return entry.actorName;
  return EXAM_HISTORY_SOURCE_LABELS[entry.source] ?? entry.source;
}

export function ExamTimeline({ history }: { history: AuditDetail['history'] }) {
  if (history.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Sem mudanças registradas.
      </Text>
    );
  }
  return (
    <Timeline active={history.length - 1} bulletSize={16} lineWidth={2}>
      {history.map((entry, index) => (
        <Timeline.Item key={`${entry.at}-${index}`} title={timelineTitle(entry)}>
          <Text size="xs" c="dimmed">
            {format(entry.at)} · {entry.actorName ? `por ${entry.actorName}` : actorOf(entry)}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

export function DecisionSummary({ decision }: { decision: AuditDecision }) {
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Badge
          color={OUTCOME_COLORS[decision.outcome]}
          variant="light"
          data-outcome={decision.outcome}
        >
          {EXAM_RESULT_LABELS[decision.outcome]}
        </Badge>
        <Badge variant="outline" color="gray">
          {AUDIT_DECISION_STATE_LABELS[decision.state]}
        </Badge>
        {decision.confirmation === 'recheck' && (
          <Badge variant="outline" color="grape">
            Reverificação
          </Badge>
        )}
        {decision.confirmation === 'two_person' && (
          <Badge variant="outline" color="indigo">
            Duas pessoas
          </Badge>
        )}
      </Group>
      <Text size="sm">
        Por {decision.auditorName} em {format(decision.decidedAt)}
      </Text>
      {decision.reason && (
        <Text size="sm">
          Motivo: {decision.reason.code} — {decision.reason.text}
        </Text>
      )}
      {decision.note && <Text size="sm">Observação: {decision.note}</Text>}
      {decision.confirmedBy && (
        <Text size="sm">
          {decision.state === 'rejected' ? 'Não confirmada' : 'Confirmada'} por{' '}
          {decision.confirmedBy} em {format(decision.confirmedAt)}
          {decision.confirmationNote ? ` — ${decision.confirmationNote}` : ''}
        </Text>
      )}
      {decision.reopenedBy && (
        <Text size="sm">
          Reaberta por {decision.reopenedBy} em {format(decision.reopenedAt)} —{' '}
          {decision.reopenReason}
        </Text>
      )}
    </Stack>
  );
}
