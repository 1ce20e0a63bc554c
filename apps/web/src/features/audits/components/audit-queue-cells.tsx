/**
 * What the audit queue shows of an exam, the same in its table and in its
 * cards: the post by its name, the lowest face similarity or why there is
 * none (in the audit page's words), and who holds the exam. Badges here wrap
 * instead of cutting a name short.
 */
import { Badge, Stack, Text, type BadgeProps } from '@mantine/core';
import { QUEUE_FACE_LABELS, type AuditQueueItem } from '@exame/shared';
import dayjs from 'dayjs';
import { SimilarityBadge } from '../../../components/face/similarity-badge';
import { formatSimilarity } from './audit-photos';

const OUTCOME_LABELS = {
  approved: 'aprovação',
  reproved: 'reprovação',
  disqualified: 'desclassificação',
} as const;

/** A badge whose text wraps onto more lines rather than end in "…". */
const WRAPPING: BadgeProps['styles'] = {
  root: { height: 'auto', maxWidth: '100%', paddingBlock: 2 },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.35 },
};

/** A short text ("Livre", "Com você") stays on one line; a name may wrap, never be cut. */
const fitting = (text: string): BadgeProps['styles'] =>
  text.length <= 12 ? { root: { maxWidth: 'none' }, label: { overflow: 'visible' } } : WRAPPING;

const holder = (claim: NonNullable<AuditQueueItem['claim']>) =>
  claim.mine ? 'Com você' : `Com ${claim.auditorName}`;

export function QueueDate({ item }: { item: AuditQueueItem }) {
  return (
    <>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {dayjs(item.schedulingDate).format('DD/MM/YYYY')}
      </Text>
      <Text size="xs" c="dimmed">
        {dayjs(item.schedulingDate).format('HH:mm')}
      </Text>
    </>
  );
}

/** The post by its name, as the other lists show it; its local only when no post names it. */
export function QueuePost({ item }: { item: AuditQueueItem }) {
  if (item.localName) {
    return (
      <Text size="sm" title={item.schedulingLocal ?? undefined}>
        {item.localName}
      </Text>
    );
  }
  return <Text size="sm">{item.schedulingLocal ?? '—'}</Text>;
}

/** The lowest face similarity (its number for ADMIN), or why there is none. */
export function QueueFace({ item }: { item: AuditQueueItem }) {
  if (item.faceMinLevel === null || item.faceState !== 'compared') {
    const label = QUEUE_FACE_LABELS[item.faceState === 'compared' ? 'pending' : item.faceState];
    return (
      <Badge
        variant="light"
        color="gray"
        tt="none"
        styles={WRAPPING}
        data-face-state={item.faceState}
      >
        {label}
      </Badge>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <SimilarityBadge level={item.faceMinLevel} />
      {/* The number is sent to ADMIN only. */}
      {item.faceMinSimilarity !== null && (
        <Text size="xs">{formatSimilarity(item.faceMinSimilarity)}</Text>
      )}
    </Stack>
  );
}

/** Who holds the exam, or the decision waiting for a second auditor, or "Livre". */
export function QueueSituation({ item }: { item: AuditQueueItem }) {
  return (
    <Stack gap={4} align="flex-start">
      {item.awaitingConfirmation && (
        <Badge color="indigo" variant="light" tt="none" styles={WRAPPING}>
          Confirmar {OUTCOME_LABELS[item.awaitingConfirmation.outcome]} de{' '}
          {item.awaitingConfirmation.auditorName}
        </Badge>
      )}
      {item.claim ? (
        <Badge
          color={item.claim.mine ? 'teal' : 'yellow'}
          variant="light"
          tt="none"
          styles={fitting(holder(item.claim))}
        >
          {holder(item.claim)}
        </Badge>
      ) : (
        !item.awaitingConfirmation && (
          <Badge color="gray" variant="light" tt="none" styles={fitting('Livre')}>
            Livre
          </Badge>
        )
      )}
    </Stack>
  );
}

export function QueueOccurrences({ item }: { item: AuditQueueItem }) {
  return item.occurrences > 0 ? (
    <Badge color="orange" variant="light">
      {item.occurrences}
    </Badge>
  ) : (
    '—'
  );
}
