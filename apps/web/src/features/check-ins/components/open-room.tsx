/**
 * The open check-in record on the examiner's room screen (spec 4): the post,
 * the time open, the examiners sorted by check-in date with their captures,
 * the exams of the day and the history. Closing: where the unit requires it
 * each examiner leaves with a face check of their own (a failed one keeps the
 * record open and tells why); elsewhere the examiner closes the room after a
 * confirmation. The room closes when the last examiner has left.
 */
import {
  Alert,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconDoorExit, IconInfoCircle, IconLayoutGrid, IconUserMinus } from '@tabler/icons-react';
import { type CheckInRecord, type CheckInViewer } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { useFacialValidation } from '../../../components/face/use-facial-validation';
import { toast } from '../../../components/toast';
import {
  checkInKeys,
  leaveRoom,
  requestFaceChallenge,
  updateRoom,
  validateExaminerFace,
} from '../api/check-ins';
import {
  CheckInHistory,
  CheckInStatusBadge,
  formatDuration,
  formatTime,
  roomOf,
  ViewerCard,
} from './check-in-parts';
import { CheckInExams } from './check-in-exams';

/** The time open, refreshed every 30 s. */
function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function OpenRoom({
  record,
  onClosed,
}: {
  record: CheckInRecord;
  /** The last examiner left: the room is closed. */
  onClosed: (record: CheckInRecord) => void;
}) {
  const now = useNow();
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const inRoom = record.viewers.filter((viewer) => !viewer.checkOutDate && !viewer.removedAt);

  const settled = async (next: CheckInRecord) => {
    queryClient.setQueryData(checkInKeys.record(next.id), next);
    // The closing is told before the reload that takes the room off the screen.
    if (next.status !== 'open') onClosed(next);
    await queryClient.invalidateQueries({ queryKey: checkInKeys.all });
  };

  const leave = useMutation({
    mutationFn: (input: { viewerId?: string; verificationId?: string }) =>
      leaveRoom({ checkInId: record.id, ...input }),
    onSuccess: async (next, input) => {
      const who = next.viewers.find((viewer) => viewer.id === input.viewerId)?.name;
      toast.success(
        next.status === 'open'
          ? `Saída de ${who ?? 'examinador'} registrada.`
          : 'Saída registrada e sala encerrada.',
      );
      await settled(next);
    },
    onError: (error) => toast.error(error.message),
  });

  const remove = useMutation({
    mutationFn: (viewer: CheckInViewer) => updateRoom(record.id, { removeViewerId: viewer.id }),
    onSuccess: async (next, viewer) => {
      toast.success(`${viewer.name} foi removido da sala.`);
      await settled(next);
    },
    onError: (error) => toast.error(error.message),
  });

  // Where the unit requires it, each examiner leaves with a face check of their own.
  const face = useFacialValidation({
    requestChallenge: (viewerId) =>
      requestFaceChallenge({ purpose: 'check-out', checkInViewerId: viewerId }),
    verify: (viewerId, capture, context) =>
      validateExaminerFace({
        checkInViewerId: viewerId,
        capture,
        uf: context.unit,
        local: record.schedulingLocal,
      }),
    onVerified: (result, viewerId) =>
      leave.mutate({ viewerId, verificationId: result.verificationId }),
  });

  const closeAll = () =>
    showAlert({
      icon: 'warning',
      title: 'Encerrar a sala',
      message: `Registrar a saída de ${inRoom.map((viewer) => viewer.name).join(' e ')} e encerrar a sala do posto ${record.schedulingLocalDescription}?`,
      actions: [
        { label: 'Cancelar', variant: 'default' },
        { label: 'Encerrar a sala', color: 'red', onClick: () => leave.mutate({}) },
      ],
    });

  const confirmRemove = (viewer: CheckInViewer) =>
    showAlert({
      icon: 'warning',
      title: 'Remover da sala',
      message: `Remover ${viewer.name} da sala? A saída não será validada pelo rosto e ficará registrada no histórico.`,
      actions: [
        { label: 'Cancelar', variant: 'default' },
        { label: 'Remover', color: 'red', onClick: () => remove.mutate(viewer) },
      ],
    });

  return (
    <Stack gap="md" data-testid="open-room">
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Group gap="xs">
              <Title order={2} size="h3">
                {roomOf(record)}
              </Title>
              <CheckInStatusBadge status={record.status} />
            </Group>
            <Text c="dimmed" size="sm">
              {record.schedulingLocal} · aberta às {formatTime(record.checkInDate)} por{' '}
              {record.openedBy.name}
            </Text>
            <Text size="sm" data-testid="time-open">
              Tempo de sala: {formatDuration(record.checkInDate, record.checkOutDate, now)}
            </Text>
          </Stack>
          <Group gap="xs">
            {record.examRoom && record.status === 'open' && (
              <Button
                component={Link}
                to={`/exam-room/${record.examRoom.id}`}
                variant="light"
                leftSection={<IconLayoutGrid size={16} aria-hidden />}
              >
                Abrir o quadro da sala
              </Button>
            )}
            {!record.faceValidationRequired && record.status === 'open' && (
              <Button
                color="red"
                leftSection={<IconDoorExit size={16} aria-hidden />}
                onClick={closeAll}
                loading={leave.isPending}
              >
                Encerrar a sala
              </Button>
            )}
          </Group>
        </Group>
        {record.faceValidationRequired && record.status === 'open' && (
          <Alert color="blue" variant="light" mt="md" icon={<IconInfoCircle size={18} />}>
            Para encerrar a sala, cada examinador registra a sua saída com a validação facial. A
            sala se encerra com a saída do último.
          </Alert>
        )}
      </Card>

      <Stack gap="xs" component="section" aria-labelledby="examinadores-titulo">
        <Text fw={600} component="h3" m={0} id="examinadores-titulo">
          Examinadores
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {record.viewers.map((viewer) => {
            const here = !viewer.checkOutDate && !viewer.removedAt && record.status === 'open';
            return (
              <ViewerCard
                key={viewer.id}
                viewer={viewer}
                actions={
                  here && (
                    <Group gap="xs" justify="flex-end">
                      {record.faceValidationRequired && (
                        <Button
                          size="xs"
                          leftSection={<IconDoorExit size={14} aria-hidden />}
                          onClick={() => face.start(viewer.id, `Saída de ${viewer.name}`)}
                          loading={leave.isPending && leave.variables?.viewerId === viewer.id}
                        >
                          Registrar saída
                          <VisuallyHidden>{` de ${viewer.name}`}</VisuallyHidden>
                        </Button>
                      )}
                      {inRoom.length > 1 && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          leftSection={<IconUserMinus size={14} aria-hidden />}
                          onClick={() => confirmRemove(viewer)}
                        >
                          Remover da sala
                          <VisuallyHidden>{` ${viewer.name}`}</VisuallyHidden>
                        </Button>
                      )}
                    </Group>
                  )
                }
              />
            );
          })}
        </SimpleGrid>
      </Stack>

      <Card withBorder radius="md" padding="md">
        <CheckInExams record={record} />
      </Card>
      <Card withBorder radius="md" padding="md">
        <CheckInHistory record={record} />
      </Card>
      {face.modal}
    </Stack>
  );
}
