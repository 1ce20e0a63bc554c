/**
 * The small pieces the case list and the case page share: the status badge,
 * the similarity in percent, the span of exam days, and a photo (or, when
 * there is none, a box that says so).
 */
import { Badge, Box, Image, Text } from '@mantine/core';
import { FRAUD_CASE_STATUS_LABELS, type ExamPhotoLink, type FraudCaseStatus } from '@exame/shared';
import dayjs from 'dayjs';

const STATUS_COLORS: Readonly<Record<FraudCaseStatus, string>> = {
  open: 'blue',
  confirmed: 'red',
  dismissed: 'gray',
};

export function FraudCaseStatusBadge({ status }: { status: FraudCaseStatus }) {
  return (
    // Never cut short in a narrow table column ("Fraude con…").
    <Badge color={STATUS_COLORS[status]} variant="light" tt="none" miw="max-content">
      {FRAUD_CASE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 0.934 → "93,4%". */
export function formatPercent(value: number): string {
  return value.toLocaleString('pt-BR', { style: 'percent', maximumFractionDigits: 1 });
}

export const formatMoment = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

/** A `YYYY-MM-DD` day (or an instant, in the browser's zone) as `DD/MM/YYYY`. */
export const formatDay = (day: string) => dayjs(day).format('DD/MM/YYYY');

/** The first and last days of the exams, or the one day when they are the same. */
export function formatDaySpan(first: string, last: string): string {
  return first === last ? formatDay(first) : `${formatDay(first)} a ${formatDay(last)}`;
}

/** A photo by its signed address, or a box saying that there is none. */
export function CasePhoto({
  photo,
  alt,
  missing,
}: {
  photo: ExamPhotoLink | null;
  /** The pt-BR description of the picture. */
  alt: string;
  /** What the box says when there is no picture. */
  missing: string;
}) {
  if (!photo) {
    return (
      <Box
        data-testid="missing-photo"
        style={{
          aspectRatio: '4 / 3',
          border: '1px dashed var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          padding: 'var(--mantine-spacing-xs)',
        }}
      >
        <Text size="xs" c="dimmed" ta="center">
          {missing}
        </Text>
      </Box>
    );
  }
  return (
    <Image
      src={photo.url}
      alt={alt}
      radius="sm"
      fit="contain"
      bg="var(--mantine-color-default-hover)"
      style={{ aspectRatio: '4 / 3' }}
    />
  );
}
