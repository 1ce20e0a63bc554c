/**
 * An exam's scheduling id on the room screens (the board, the finished
 * exams, the exams without a room). Whoever may open the exam's detail
 * (ADMIN, auditor) gets a link to it; an examiner gets the id alone: they see
 * the exam of their room on the board and in its lists, and nothing more (the
 * detail, with the candidate's timeline and photos, is not theirs to open).
 */
import { Anchor, Text } from '@mantine/core';
import { EXAM_DETAIL_ROLES } from '@exame/shared';
import { Link } from 'react-router';
import { useAppState } from '../../../lib/app-store';

/**
 * In a card the id goes to the next line whole (an atomic inline box) rather
 * than break at a dash, and breaks only if it is wider than the card itself.
 */
export const WHOLE_OR_WRAPPED = {
  display: 'inline-block',
  maxWidth: '100%',
  overflowWrap: 'anywhere',
} as const;

export function SchedulingId({
  schedulingId,
  inList = false,
}: {
  schedulingId: string;
  /** In a card the id wraps only as a last resort; in a table it never breaks. */
  inList?: boolean;
}) {
  const role = useAppState((state) => state.user?.roleDescription);
  const style = inList ? WHOLE_OR_WRAPPED : { whiteSpace: 'nowrap' as const };
  if (role && EXAM_DETAIL_ROLES.includes(role)) {
    return (
      <Anchor component={Link} to={`/exames/${encodeURIComponent(schedulingId)}`} style={style}>
        {schedulingId}
      </Anchor>
    );
  }
  return (
    <Text span inherit style={style} data-testid="scheduling-id">
      {schedulingId}
    </Text>
  );
}
