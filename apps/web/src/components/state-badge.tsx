/**
 * Whether a record is in force (a user enabled, a post active, a key not
 * revoked): teal when it is, gray when it is not.
 */
import { Badge } from '@mantine/core';

export function StateBadge({
  active,
  labels,
}: {
  active: boolean;
  /** The text when in force, then when not. */
  labels: readonly [string, string];
}) {
  return (
    <Badge color={active ? 'teal' : 'gray'} variant="light">
      {active ? labels[0] : labels[1]}
    </Badge>
  );
}
