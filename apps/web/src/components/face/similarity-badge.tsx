/**
 * How alike two faces are, in plain words, for the people who decide (audit
 * and check-in screens): "Similaridade alta / média / baixa", each with its
 * colour AND its own text and icon, so the colour is never the only cue.
 * The raw numbers (fused distance and the unit's threshold) appear only when
 * the server sent them, which it does for ADMIN alone.
 */
import { Badge, Group, Text } from '@mantine/core';
import { SIMILARITY_LEVEL_LABELS, type SimilarityLevel } from '@exame/shared';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';

// Shades dark enough (or light enough, with dark text) for WCAG AA contrast.
const LOOK: Readonly<
  Record<SimilarityLevel, { color: string; Icon: typeof IconCircleCheck; hint: string }>
> = {
  // Mantine's darkest green (#2b8a3e) gives white text only 4.36:1 (axe, e2e): a darker green.
  alta: { color: '#237032', Icon: IconCircleCheck, hint: 'bem abaixo do limite do motor facial' },
  média: {
    color: 'yellow.4',
    Icon: IconAlertTriangle,
    hint: 'aceita pelo motor facial, mas perto do limite',
  },
  baixa: { color: 'red.9', Icon: IconCircleX, hint: 'não aceita pelo motor facial' },
};

export const formatScore = (value: number) =>
  value.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function SimilarityBadge({
  level,
  distance = null,
  threshold = null,
}: {
  level: SimilarityLevel;
  /** ADMIN only: the fused distance and the unit's threshold it was read against. */
  distance?: number | null;
  threshold?: number | null;
}) {
  const { color, Icon, hint } = LOOK[level];
  return (
    <Group gap={6} wrap="wrap" data-testid="similarity-badge" data-level={level}>
      <Badge
        variant="filled"
        color={color}
        autoContrast
        tt="none"
        title={`${SIMILARITY_LEVEL_LABELS[level]}: ${hint}`}
        leftSection={<Icon size={14} aria-hidden />}
      >
        {SIMILARITY_LEVEL_LABELS[level]}
      </Badge>
      {distance !== null && threshold !== null && (
        <Text size="xs" data-testid="similarity-scores">
          Distância {formatScore(distance)} (limite {formatScore(threshold)})
        </Text>
      )}
    </Group>
  );
}
