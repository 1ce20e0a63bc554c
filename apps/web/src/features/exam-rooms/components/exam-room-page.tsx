/**
 * `/exam-room/:examRoomId` (title 'Sala de prova'): the board of a room's
 * stations on a day — each station with its candidate (name, masked CPF), the
 * station-status icon of spec 3 and the check-in indicator; the counters on
 * top; and, for the examiners in the room (and ADMIN), the actions on each
 * exam with a confirmation: absence, occurrence (with an optional photo),
 * interrupt and resume, finish and send the result. Every change, from here,
 * from another examiner or from the exam-delivery system, comes in live.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import {
  IconAlertTriangle,
  IconCamera,
  IconInfoCircle,
  IconPhoto,
  IconPlayerPause,
  IconPlayerPlay,
  IconSend,
  IconUserOff,
} from '@tabler/icons-react';
import {
  BOARD_COUNTER_LABELS,
  BOARD_COUNTERS,
  dayInZone,
  ROOM_ACTION_LABELS,
  ROOM_OCCURRENCE_TYPES,
  roomActionProblem,
  roomOccurrenceSchema,
  STATION_STATUS_LABELS,
  type BoardExam,
  type RoomAction,
  type RoomBoard,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { QueryContent } from '../../../components/query-content';
import { CheckInIndicator, StationStatusIcon } from '../../../components/station-status';
import { toast } from '../../../components/toast';
import { appStore } from '../../../lib/app-store';
import { stripDataUrlPrefix } from '../../../lib/face-capture';
import { validateForm } from '../../../lib/forms';
import { actOnExam, boardQuery, recordOccurrence, roomKeys } from '../api/exam-rooms';
import { useRoomEvents } from '../use-room-events';

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

const LIVE_LABELS: Readonly<Record<ReturnType<typeof useRoomEvents>, string>> = {
  connecting: 'Conectando…',
  open: 'Ao vivo',
  reconnecting: 'Reconectando…',
  closed: 'Sem atualização ao vivo — recarregue a página',
};

/** Whether the candidate has checked in at the station (the exam began). */
const checkedIn = (exam: BoardExam) => exam.status === 'started' || exam.status === 'done';

export function ExamRoomPage() {
  const { examRoomId = '' } = useParams();
  const [day, setDay] = useState<string | null>(null);
  const board = useQuery(boardQuery(examRoomId, day));
  const live = useRoomEvents(board.data?.room.examLocal ?? null, examRoomId);
  const roomName = board.data?.room.name;
  useEffect(() => {
    if (roomName) appStore.setStateExamMenu({ examRoomId, name: roomName });
  }, [examRoomId, roomName]);
  return (
    <QueryContent
      query={board}
      loadingLabel="Carregando o quadro da sala"
      isEmpty={() => false}
      empty={null}
    >
      {(data) => <Board board={data} day={day} onDay={setDay} live={live} />}
    </QueryContent>
  );
}

function Board({
  board,
  day,
  onDay,
  live,
}: {
  board: RoomBoard;
  day: string | null;
  onDay: (day: string | null) => void;
  live: ReturnType<typeof useRoomEvents>;
}) {
  const [occurrenceFor, setOccurrenceFor] = useState<BoardExam | null>(null);
  const { room } = board;
  const today = dayInZone(new Date());
  return (
    <Stack gap="md" data-testid="room-board">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{room.name}</Title>
          <Text c="dimmed" size="sm">
            {room.schedulingLocalDescription} · {room.examLocal}
            {room.heldBy.length > 0
              ? ` · em uso por ${room.heldBy.flatMap((holder) => holder.examiners).join(' e ')}`
              : ' · sem entrada aberta'}
          </Text>
        </div>
        <Group align="flex-end">
          <Badge
            color={live === 'open' ? 'teal' : live === 'closed' ? 'red' : 'gray'}
            variant="light"
            data-testid="live-status"
          >
            {LIVE_LABELS[live]}
          </Badge>
          <DatePickerInput
            label="Dia"
            value={day ?? today}
            onChange={(value) => onDay(value && value !== today ? value : null)}
            valueFormat="DD/MM/YYYY"
            locale="pt-br"
            maw={180}
          />
          <Button
            component={Link}
            to={`/finished-exam-view?room=${encodeURIComponent(room.id)}`}
            variant="light"
          >
            Exames finalizados
          </Button>
        </Group>
      </Group>
      {!board.canAct && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          Você acompanha o quadro. As ações nos exames são dos examinadores com entrada aberta nesta
          sala.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" component="dl" m={0}>
        {BOARD_COUNTERS.map((counter) => (
          <Paper key={counter} withBorder radius="md" p="sm" data-testid={`board-${counter}`}>
            <Text component="dt" size="xs" c="dimmed">
              {BOARD_COUNTER_LABELS[counter]}
            </Text>
            <Text component="dd" m={0} fw={700} size="xl">
              {board.counters[counter] ?? 0}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {board.stations.length === 0 ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
          Esta sala não tem estações ativas. Cadastre-as em Salas de prova.
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} data-testid="stations">
          {board.stations.map(({ station, exam, others }) => (
            <StationCard
              key={station.id}
              code={station.code}
              exam={exam}
              others={others}
              board={board}
              onOccurrence={setOccurrenceFor}
            />
          ))}
        </SimpleGrid>
      )}
      {board.unplaced.length > 0 && (
        <Card withBorder radius="md" padding="md">
          <Title order={3} size="h5" mb="xs">
            Exames sem estação no quadro
          </Title>
          <ExamTable exams={board.unplaced} testId="unplaced-exams" />
        </Card>
      )}
      <Card withBorder radius="md" padding="md">
        <Title order={3} size="h5" mb="xs">
          Exames da sala no dia
        </Title>
        {board.exams.length === 0 ? (
          <Text c="dimmed" size="sm">
            Nenhum exame desta sala no dia.
          </Text>
        ) : (
          <ExamTable exams={board.exams} testId="room-exams" />
        )}
      </Card>
      {occurrenceFor && (
        <OccurrenceModal
          roomId={room.id}
          exam={occurrenceFor}
          onClose={() => setOccurrenceFor(null)}
        />
      )}
    </Stack>
  );
}

function StationCard({
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
            <Text size="sm" fw={600} lineClamp={1}>
              {exam.candidateName}
            </Text>
            <Text size="xs" c="dimmed">
              CPF {exam.candidateCpf} · {dayjs(exam.schedulingDate).format('HH:mm')} ·{' '}
              {exam.schedulingId}
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

function ExamTable({ exams, testId }: { exams: BoardExam[]; testId: string }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Horário</Table.Th>
            <Table.Th>Estação</Table.Th>
            <Table.Th>Candidato</Table.Th>
            <Table.Th>Agendamento</Table.Th>
            <Table.Th>Situação</Table.Th>
            <Table.Th>Ocorrências</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {exams.map((exam) => (
            <Table.Tr key={exam.id}>
              <Table.Td>{dayjs(exam.schedulingDate).format('HH:mm')}</Table.Td>
              <Table.Td>{exam.station ?? '—'}</Table.Td>
              <Table.Td>
                {exam.candidateName}{' '}
                <Text span size="xs" c="dimmed">
                  {exam.candidateCpf}
                </Text>
              </Table.Td>
              <Table.Td>
                <Link to={`/exames/${encodeURIComponent(exam.schedulingId)}`}>
                  {exam.schedulingId}
                </Link>
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <StationStatusIcon status={exam.stationStatus} size={22} decorative />
                  <Text size="sm">{STATION_STATUS_LABELS[exam.stationStatus]}</Text>
                </Group>
              </Table.Td>
              <Table.Td>{exam.occurrences}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** An occurrence of the exam, with an optional photo (validated and re-encoded by the server). */
function OccurrenceModal({
  roomId,
  exam,
  onClose,
}: {
  roomId: string;
  exam: BoardExam;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<string | null>('terceiro');
  const [description, setDescription] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useMutation({
    mutationFn: async () => {
      const encoded = photo ? stripDataUrlPrefix(await readAsDataUrl(photo)) : undefined;
      return recordOccurrence(roomId, exam.id, {
        type: type ?? '',
        description,
        photo: encoded,
      });
    },
    onSuccess: async () => {
      toast.success(`Ocorrência registrada: ${exam.candidateName}.`);
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      onClose();
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Modal opened onClose={onClose} title={`Ocorrência — ${exam.candidateName}`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const checked = validateForm(roomOccurrenceSchema, { type: type ?? '', description });
          setErrors(checked.errors ?? {});
          if (checked.data) save.mutate();
        }}
        noValidate
      >
        <Stack gap="sm">
          <Select
            label="Tipo"
            data={ROOM_OCCURRENCE_TYPES.map((item) => ({ value: item.value, label: item.label }))}
            value={type}
            onChange={setType}
            error={errors.type}
            required
            comboboxProps={{ withinPortal: false }}
          />
          <Textarea
            label="Descrição"
            required
            autosize
            minRows={3}
            maxLength={1000}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
          />
          <FileInput
            label="Foto (opcional)"
            placeholder="Escolher imagem"
            accept="image/jpeg,image/png,image/webp"
            leftSection={<IconPhoto size={16} aria-hidden />}
            value={photo}
            onChange={setPhoto}
            clearable
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={save.isPending}>
              Registrar ocorrência
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('Não foi possível ler a imagem escolhida.'));
    reader.readAsDataURL(file);
  });
}
