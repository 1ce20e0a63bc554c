/**
 * A station of a room's board: its candidate (name, masked CPF), the
 * station-status icon of spec 3 and the check-in indicator, and, for the
 * examiners in the room (and ADMIN), the actions on its exam, each with a
 * confirmation: absence, interrupt and resume, finish and send the result,
 * and the occurrence.
 */
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import {
  IconCamera,
  IconPlayerPause,
  IconPlayerPlay,
  IconSend,
  IconUserOff,
} from '@tabler/icons-react';
import {
  ROOM_ACTION_LABELS,
  roomActionProblem,
  STATION_STATUS_LABELS,
  type BoardExam,
  type RoomAction,
  type RoomBoard,
} from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { CheckInIndicator, StationStatusIcon } from '../../../components/station-status';
import { toast } from '../../../components/toast';
import { actOnExam, roomKeys } from '../api/exam-rooms';

const ACTION_ICONS: Readonly<Record<RoomAction, ReactNode>> = {
  absence: <IconUserOff size={14} aria-hidden />,
  interrupt: <IconPlayerPause size={14} aria-hidden />,
  resume: <IconPlayerPlay size={14} aria-hidden />,
  finish: <IconSend size={14} aria-hidden />,
};

const ACTION_CONFIRMATIONS: Readonly<Record<RoomAction, (exam: BoardExam) => string>> = {
  absence: (exam) => `Registrar a ausência de ${exam.candidateName}? O exame não poderá começar.`,
  interrupt: (exam) => `Interromper o exame de ${exam.candidateName}?`,
  resume: (exam) => `Retomar o exame de ${exam.candidateName}?`,
  finish: (exam) =>
    `Finalizar o exame de ${exam.candidateName} e enviar o resultado? Sem resultado do sistema de provas, ele segue para a auditoria.`,
};

/** Whether the candidate has checked in at the station (the exam began). */
const checkedIn = (exam: BoardExam) => exam.status === 'started' || exam.status === 'done';

export function StationCard({
  code,
  exam,
  others,
  board,
  onOccurrence,
}: {
  code: string;
  exam: BoardExam | null;
  others: number;
  board: RoomBoard;
  onOccurrence: (exam: BoardExam) => void;
}) {
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const act = useMutation({
    mutationFn: (input: { exam: BoardExam; action: RoomAction }) =>
      actOnExam(board.room.id, input.exam.id, input.action),
    onSuccess: async (_exam, input) => {
      toast.success(`${ROOM_ACTION_LABELS[input.action]}: ${input.exam.candidateName}.`);
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });
  const confirm = (target: BoardExam, action: RoomAction) =>
    showAlert({
      icon: 'warning',
      title: ROOM_ACTION_LABELS[action],
      message: ACTION_CONFIRMATIONS[action](target),
      actions: [
        { label: 'Cancelar', variant: 'default' },
        { label: 'Confirmar', onClick: () => act.mutate({ exam: target, action }) },
      ],
    });
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="station"
      data-station={code}
      data-station-status={exam?.stationStatus ?? 'empty'}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{code}</Text>
          {exam && (
            <Group gap={6} wrap="nowrap">
              <CheckInIndicator checkedIn={checkedIn(exam)} />
              <StationStatusIcon status={exam.stationStatus} />
            </Group>
          )}
        </Group>
        {exam ? (
          <>
            <Text size="sm" fw={600}>
              {exam.candidateName}
            </Text>
            <Text size="xs" c="dimmed">
              CPF {exam.candidateCpf} · {dayjs(exam.schedulingDate).format('HH:mm')} ·{' '}
              <Text span inherit style={{ whiteSpace: 'nowrap' }}>
                {exam.schedulingId}
              </Text>
            </Text>
            <Text size="xs">
              {STATION_STATUS_LABELS[exam.stationStatus]}
              {exam.occurrences > 0
                ? ` · ${exam.occurrences} ocorrência${exam.occurrences > 1 ? 's' : ''}`
                : ''}
              {exam.photos > 0 ? ` · ${exam.photos} foto${exam.photos > 1 ? 's' : ''}` : ''}
              {others > 0 ? ` · +${others} no dia` : ''}
            </Text>
            {board.canAct && (
              <Group gap={6} mt={4}>
                {(['absence', 'interrupt', 'resume', 'finish'] as const)
                  .filter((action) => roomActionProblem(action, exam) === null)
                  .map((action) => (
                    <Button
                      key={action}
                      size="compact-xs"
                      variant={action === 'finish' ? 'filled' : 'light'}
                      leftSection={ACTION_ICONS[action]}
                      onClick={() => confirm(exam, action)}
                      loading={act.isPending && act.variables?.exam.id === exam.id}
                    >
                      {ROOM_ACTION_LABELS[action]}
                      <Text span className="visually-hidden">{` — ${code}`}</Text>
                    </Button>
                  ))}
                {exam.status !== 'cancelled' && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconCamera size={14} aria-hidden />}
                    onClick={() => onOccurrence(exam)}
                  >
                    Ocorrência
                    <Text span className="visually-hidden">{` — ${code}`}</Text>
                  </Button>
                )}
              </Group>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Sem exame no dia.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
