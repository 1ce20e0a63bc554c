/**
 * `/exam-room/:examRoomId` (title 'Sala de prova'): the board of a room's
 * stations on a day — each station with its candidate (name, masked CPF), the
 * station-status icon of spec 3 and the check-in indicator (station-card.tsx);
 * the counters on top; and, for the examiners in the room (and ADMIN), the
 * actions on each exam. Every change, from here, from another examiner or
 * from the exam-delivery system, comes in live.
 *
 * On a narrow screen (a phone, a tablet) the stations without an exam that
 * day collapse into one line, shown on request, and the lists of exams are
 * lists of cards: the page never scrolls sideways.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import {
  BOARD_COUNTER_LABELS,
  BOARD_COUNTERS,
  dayInZone,
  type BoardExam,
  type RoomBoard,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { appStore } from '../../../lib/app-store';
import { useNarrowScreen } from '../../../lib/use-narrow-screen';
import { boardQuery } from '../api/exam-rooms';
import { useRoomEvents } from '../use-room-events';
import { OccurrenceModal } from './occurrence-modal';
import { RoomExamList, type ExamColumn } from './room-exam-list';
import { StationCard } from './station-card';

const LIVE_LABELS: Readonly<Record<ReturnType<typeof useRoomEvents>, string>> = {
  connecting: 'Conectando…',
  open: 'Ao vivo',
  reconnecting: 'Reconectando…',
  closed: 'Sem atualização ao vivo — recarregue a página',
};

/** The board's list also says how many occurrences each exam has. */
const OCCURRENCES: readonly ExamColumn[] = [
  { header: 'Ocorrências', cell: (exam) => <Text size="sm">{exam.occurrences}</Text> },
];

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
      <SimpleGrid cols={{ base: 3, lg: 6 }} spacing="sm" component="dl" m={0}>
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
        <Stations board={board} onOccurrence={setOccurrenceFor} />
      )}
      {board.unplaced.length > 0 && (
        <Card withBorder radius="md" padding="md">
          <Title order={3} size="h5" mb="xs">
            Exames sem estação no quadro
          </Title>
          <RoomExamList
            exams={board.unplaced}
            testId="unplaced-exams"
            label="Exames sem estação no quadro"
            extra={OCCURRENCES}
          />
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
          <RoomExamList
            exams={board.exams}
            testId="room-exams"
            label="Exames da sala no dia"
            extra={OCCURRENCES}
          />
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

/**
 * The stations in board order. On a narrow screen the stations without an
 * exam that day collapse into one line (a phone would scroll past a page of
 * empty cards), and come back on request.
 */
function Stations({
  board,
  onOccurrence,
}: {
  board: RoomBoard;
  onOccurrence: (exam: BoardExam) => void;
}) {
  const narrow = useNarrowScreen();
  const [showEmpty, setShowEmpty] = useState(false);
  const empty = board.stations.filter((entry) => entry.exam === null);
  const collapsed = narrow && !showEmpty && empty.length > 0;
  const shown = collapsed ? board.stations.filter((entry) => entry.exam !== null) : board.stations;
  return (
    <>
      {shown.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} data-testid="stations">
          {shown.map(({ station, exam, others }) => (
            <StationCard
              key={station.id}
              code={station.code}
              exam={exam}
              others={others}
              board={board}
              onOccurrence={onOccurrence}
            />
          ))}
        </SimpleGrid>
      )}
      {collapsed && (
        <Paper withBorder radius="md" p="sm" data-testid="empty-stations">
          <Stack gap={6} align="flex-start">
            <Text size="sm">
              {empty.length === 1
                ? '1 estação sem exame no dia'
                : `${empty.length} estações sem exame no dia`}
              : {empty.map((entry) => entry.station.code).join(', ')}.
            </Text>
            <Button size="compact-sm" variant="light" onClick={() => setShowEmpty(true)}>
              Mostrar as estações sem exame
            </Button>
          </Stack>
        </Paper>
      )}
    </>
  );
}
