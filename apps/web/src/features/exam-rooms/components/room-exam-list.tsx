/**
 * The exams of a room (the board's list of the day, the finished exams, the
 * exams without a station or a room): a table on a wide screen, a list of
 * cards on a narrow one (a phone, a tablet), so that nothing scrolls
 * sideways, no scheduling id breaks and nothing is cut.
 */
import { Group, Stack, Table, Text } from '@mantine/core';
import { STATION_STATUS_LABELS, type BoardExam } from '@exame/shared';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { StationStatusIcon } from '../../../components/station-status';
import { useNarrowScreen } from '../../../lib/use-narrow-screen';
import { SchedulingId } from './scheduling-id';
import { ExamCardHead } from '../../../components/exam-card-head';
import { CardGrid, ListCard } from '../../../components/list-card';

/** A column beyond the common ones (time, station, candidate, scheduling, status). */
export type ExamColumn = { header: string; cell: (exam: BoardExam) => ReactNode };

const time = (exam: BoardExam) => dayjs(exam.schedulingDate).format('HH:mm');

function Status({ exam }: { exam: BoardExam }) {
  return (
    <Group gap={6} wrap="nowrap">
      <StationStatusIcon status={exam.stationStatus} size={22} decorative />
      <Text size="sm">{STATION_STATUS_LABELS[exam.stationStatus]}</Text>
    </Group>
  );
}

export function RoomExamList({
  exams,
  testId,
  label,
  extra = [],
}: {
  exams: readonly BoardExam[];
  testId: string;
  /** What the list is, for screen readers ("Exames da sala no dia"). */
  label: string;
  extra?: readonly ExamColumn[];
}) {
  const narrow = useNarrowScreen();
  if (narrow) {
    return (
      <CardGrid label={label} data-testid={testId}>
        {exams.map((exam) => (
          <ListCard key={exam.id} radius="md" p="sm">
            <Stack gap={4}>
              <ExamCardHead name={exam.candidateName} cpf={exam.candidateCpf} time={time(exam)} />
              <Status exam={exam} />
              <Text size="sm">
                <Text span c="dimmed" inherit>
                  Estação:{' '}
                </Text>
                {exam.station ?? '—'}
              </Text>
              <Text size="sm">
                <Text span c="dimmed" inherit>
                  Agendamento:{' '}
                </Text>
                <SchedulingId schedulingId={exam.schedulingId} inList />
              </Text>
              {extra.map((column) => (
                <Group key={column.header} gap={6} wrap="wrap">
                  <Text size="sm" c="dimmed">
                    {column.header}:
                  </Text>
                  {column.cell(exam)}
                </Group>
              ))}
            </Stack>
          </ListCard>
        ))}
      </CardGrid>
    );
  }
  return (
    // A window just wide enough for the table (1 200 px with the menu) scrolls it, never the page.
    <Table.ScrollContainer minWidth={640}>
      <Table striped data-testid={testId} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Horário</Table.Th>
            <Table.Th>Estação</Table.Th>
            <Table.Th>Candidato</Table.Th>
            <Table.Th>Agendamento</Table.Th>
            <Table.Th>Situação</Table.Th>
            {extra.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {exams.map((exam) => (
            <Table.Tr key={exam.id}>
              <Table.Td>{time(exam)}</Table.Td>
              <Table.Td>{exam.station ?? '—'}</Table.Td>
              <Table.Td>
                {exam.candidateName}{' '}
                <Text span size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {exam.candidateCpf}
                </Text>
              </Table.Td>
              <Table.Td>
                <SchedulingId schedulingId={exam.schedulingId} />
              </Table.Td>
              <Table.Td>
                <Status exam={exam} />
              </Table.Td>
              {extra.map((column) => (
                <Table.Td key={column.header}>{column.cell(exam)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
