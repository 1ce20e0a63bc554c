/**
 * What the guided capture draws: the face frame over the preview, with the
 * arrow of the movement asked, and the checklist of the challenge's steps.
 *
 * The preview is mirrored, as a mirror is: the person's own left is on the
 * screen's left. So the arrow of "left" points to the screen's left.
 */
import { Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowNarrowRight,
  IconCheck,
  IconCircleDashed,
} from '@tabler/icons-react';
import { FACE_MOVE_LABELS, type FaceMove } from '@exame/shared';
import type { GuideTarget } from './face-guide';
import type { PictureStatus } from './use-face-guide';

/** Arrow shafts in the overlay's viewBox (160x100), outside the ellipse (80,48; 22x30). */
const ARROWS: Record<FaceMove, { x1: number; y1: number; x2: number; y2: number }> = {
  left: { x1: 54, y1: 48, x2: 30, y2: 48 },
  right: { x1: 106, y1: 48, x2: 130, y2: 48 },
  up: { x1: 80, y1: 15, x2: 80, y2: 3 },
  down: { x1: 80, y1: 81, x2: 80, y2: 97 },
};

export function FaceFrameOverlay({
  move,
  placed,
  countdown,
}: {
  /** The movement asked now, if any: its arrow is drawn. */
  move: FaceMove | null;
  /** The face is found and placed: the frame turns green. */
  placed: boolean;
  countdown: number | null;
}) {
  const arrow = move ? ARROWS[move] : null;
  return (
    <svg
      viewBox="0 0 160 100"
      preserveAspectRatio="xMidYMid meet"
      aria-hidden
      data-testid="face-frame"
      data-arrow={move ?? undefined}
      style={{
        position: 'absolute',
        inset: 0,
        width: '100%',
        height: '100%',
        pointerEvents: 'none',
      }}
    >
      <defs>
        <marker
          id="face-arrow-head"
          viewBox="0 0 10 10"
          refX="5"
          refY="5"
          markerWidth="3"
          markerHeight="3"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" fill="#ffd43b" />
        </marker>
      </defs>
      <ellipse
        cx="80"
        cy="48"
        rx="22"
        ry="30"
        fill="none"
        stroke={placed ? '#51cf66' : 'white'}
        strokeWidth={placed ? 1.5 : 1}
        strokeDasharray={placed ? undefined : '3 2'}
        opacity="0.9"
      />
      {arrow && (
        <line
          {...arrow}
          stroke="#ffd43b"
          strokeWidth="3"
          strokeLinecap="round"
          markerEnd="url(#face-arrow-head)"
        />
      )}
      {countdown !== null && (
        <text
          x="80"
          y="58"
          textAnchor="middle"
          fontSize="28"
          fontWeight="700"
          fill="white"
          stroke="rgba(0,0,0,0.6)"
          strokeWidth="0.8"
        >
          {countdown}
        </text>
      )}
    </svg>
  );
}

type StepState = 'done' | 'missed' | 'current' | 'todo';

const STATE_TEXT: Record<StepState, string> = {
  done: 'feito',
  missed: 'não percebido',
  current: 'agora',
  todo: 'a fazer',
};

/**
 * The steps of the challenge in order: done (✓), not seen before its time
 * ran out (!), the current one, and those still to do.
 */
export function ChallengeChecklist({
  targets,
  index,
  statuses,
}: {
  targets: GuideTarget[];
  index: number;
  statuses: PictureStatus[];
}) {
  const steps = targets
    .map((target, position) => ({ target, position }))
    .filter(
      (item): item is { target: FaceMove; position: number } =>
        item.target !== 'neutral' && item.target !== 'return',
    );
  if (steps.length === 0) return null;
  return (
    <ol
      aria-label="Movimentos pedidos"
      data-testid="challenge-checklist"
      style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 6 }}
    >
      {steps.map(({ target, position }) => {
        const status = statuses[position];
        const state: StepState = status
          ? status === 'timed-out'
            ? 'missed'
            : 'done'
          : position === index
            ? 'current'
            : 'todo';
        return (
          <li key={position} aria-current={state === 'current' ? 'step' : undefined}>
            <Group gap="xs" wrap="nowrap">
              <ThemeIcon
                size="sm"
                radius="xl"
                variant={state === 'todo' ? 'default' : 'filled'}
                color={state === 'done' ? 'teal' : state === 'missed' ? 'orange' : 'blue'}
                aria-hidden
              >
                {state === 'done' ? (
                  <IconCheck size={14} />
                ) : state === 'missed' ? (
                  <IconAlertTriangle size={14} />
                ) : state === 'current' ? (
                  <IconArrowNarrowRight size={14} />
                ) : (
                  <IconCircleDashed size={14} />
                )}
              </ThemeIcon>
              <Text
                size="sm"
                fw={state === 'current' ? 700 : 400}
                c={state === 'todo' ? 'dimmed' : undefined}
              >
                {FACE_MOVE_LABELS[target]}
                <VisuallyHidden>{`: ${STATE_TEXT[state]}`}</VisuallyHidden>
              </Text>
            </Group>
          </li>
        );
      })}
    </ol>
  );
}
