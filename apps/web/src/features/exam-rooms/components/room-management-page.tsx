/**
 * `/room-management` (ADMIN and ROOM_INSPECTOR): the exam rooms of the posts
 * with their stations, who holds each room now (the open check-in), the way
 * to each room's board, and the exams of a post that no room names (listed
 * apart, never lost).
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconEdit, IconLayoutGrid, IconListNumbers, IconPlus } from '@tabler/icons-react';
import {
  createRoomSchema,
  maskCpf,
  stationInputSchema,
  type ExamRoom,
  type Station,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { StationStatusIcon } from '../../../components/station-status';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { textField, validateForm } from '../../../lib/forms';
import { activePostsQuery } from '../../../lib/unit-posts';
import {
  addStation,
  createRoom,
  editRoom,
  editStation,
  roomKeys,
  roomsQuery,
  unplacedQuery,
} from '../api/exam-rooms';

export function RoomManagementPage() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const [post, setPost] = useState<string | null>(null);
  const [includeInactive, setIncludeInactive] = useState(false);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ExamRoom | null>(null);
  const [stationsOf, setStationsOf] = useState<ExamRoom | null>(null);
  const posts = useQuery(activePostsQuery(unit));
  const rooms = useQuery(roomsQuery(post, includeInactive));

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Salas de prova"
        description={`Salas e estações dos postos da unidade ${unit}`}
        action={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
          >
            Nova sala
          </Button>
        }
      />
      <Group align="flex-end">
        <Select
          label="Posto"
          placeholder="Todos os postos"
          data={(posts.data ?? []).map((local) => ({
            value: local.identifier,
            label: `${local.description} (${local.identifier})`,
          }))}
          value={post}
          onChange={setPost}
          clearable
          searchable
          w={360}
        />
        <Checkbox
          label="Mostrar salas desativadas"
          checked={includeInactive}
          onChange={(event) => setIncludeInactive(event.currentTarget.checked)}
          mb={8}
        />
      </Group>
      <QueryContent
        query={rooms}
        loadingLabel="Carregando salas"
        isEmpty={(list) => list.length === 0}
        empty={
          post
            ? 'Nenhuma sala cadastrada neste posto. Use "Nova sala" para criar a primeira.'
            : 'Nenhuma sala cadastrada na unidade. Use "Nova sala" para criar a primeira.'
        }
      >
        {(list) => (
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} data-testid="rooms">
            {list.map((room) => (
              <RoomCard
                key={room.id}
                room={room}
                onEdit={() => setEditing(room)}
                onStations={() => setStationsOf(room)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
      {post && <ExamsWithoutRoom post={post} />}
      <RoomForm
        opened={creating || editing !== null}
        room={editing}
        posts={(posts.data ?? []).map((local) => ({
          value: local.identifier,
          label: `${local.description} (${local.identifier})`,
        }))}
        defaultPost={post}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
      />
      {stationsOf && (
        <StationsModal
          room={(rooms.data ?? []).find((room) => room.id === stationsOf.id) ?? stationsOf}
          onClose={() => setStationsOf(null)}
        />
      )}
    </Stack>
  );
}

function RoomCard({
  room,
  onEdit,
  onStations,
}: {
  room: ExamRoom;
  onEdit: () => void;
  onStations: () => void;
}) {
  const active = room.stations.filter((station) => station.isActive);
  return (
    <Card withBorder radius="md" padding="md" data-testid="room-card">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={3} size="h5">
              {room.name}
            </Title>
            <Text size="sm" c="dimmed">
              {room.schedulingLocalDescription} · {room.examLocal}
            </Text>
          </div>
          <Badge color={room.isActive ? 'teal' : 'gray'} variant="light">
            {room.isActive ? 'Ativa' : 'Desativada'}
          </Badge>
        </Group>
        <Text size="sm">
          {active.length === 1 ? '1 estação' : `${active.length} estações`}
          {active.length > 6
            ? ` (${active[0]!.code} a ${active.at(-1)!.code})`
            : active.length > 0
              ? `: ${active.map((station) => station.code).join(', ')}`
              : ''}
        </Text>
        {room.heldBy.length > 0 ? (
          room.heldBy.map((holder) => (
            <Text size="sm" key={holder.checkInId}>
              <Badge color="blue" variant="light" mr={6}>
                Em uso
              </Badge>
              {holder.examiners.join(' e ')} desde {dayjs(holder.openedAt).format('HH:mm')}
            </Text>
          ))
        ) : (
          <Text size="sm" c="dimmed">
            Livre: nenhuma entrada aberta nesta sala.
          </Text>
        )}
        <Group gap="xs" mt="xs">
          <Button
            size="xs"
            component={Link}
            to={`/exam-room/${room.id}`}
            leftSection={<IconLayoutGrid size={14} aria-hidden />}
          >
            Abrir quadro
            <Text span className="visually-hidden">{` da ${room.name}`}</Text>
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={onStations}
            leftSection={<IconListNumbers size={14} aria-hidden />}
          >
            Estações
            <Text span className="visually-hidden">{` da ${room.name}`}</Text>
          </Button>
          <Button
            size="xs"
            variant="subtle"
            onClick={onEdit}
            leftSection={<IconEdit size={14} aria-hidden />}
          >
            Editar
            <Text span className="visually-hidden">{` a ${room.name}`}</Text>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** A new room (post, code, name and how many stations to start with), or a room's name, code and state. */
function RoomForm({
  opened,
  room,
  posts,
  defaultPost,
  onClose,
}: {
  opened: boolean;
  room: ExamRoom | null;
  posts: Array<{ value: string; label: string }>;
  defaultPost: string | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [post, setPost] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [stations, setStations] = useState<number | string>(4);
  const [active, setActive] = useState(true);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [shownFor, setShownFor] = useState<string | null | undefined>(undefined);
  const key = opened ? (room?.id ?? 'new') : undefined;
  if (key !== shownFor) {
    // Each opening starts from the room (or blank, with the filtered post).
    setShownFor(key);
    setPost(room?.schedulingLocal ?? defaultPost);
    setCode(room?.code ?? '');
    setName(room?.name ?? '');
    setStations(4);
    setActive(room?.isActive ?? true);
    setErrors({});
  }

  const save = useMutation({
    mutationFn: async () => {
      if (room) return editRoom(room.id, { code, name, isActive: active });
      const count = Number(stations) || 0;
      return createRoom({
        schedulingLocal: post ?? '',
        code,
        name,
        stations: Array.from({ length: count }, (_, index) => ({
          code: `Estação ${String(index + 1).padStart(2, '0')}`,
          position: index + 1,
        })),
      });
    },
    onSuccess: async (saved) => {
      toast.success(room ? `A ${saved.name} foi atualizada.` : `A ${saved.name} foi criada.`);
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      onClose();
    },
    onError: (error) => toast.error(error.message),
  });

  const submit = () => {
    const checked = validateForm(createRoomSchema, {
      schedulingLocal: room?.schedulingLocal ?? post ?? '',
      code,
      name,
    });
    const count = Number(stations);
    const stationError =
      room || (Number.isInteger(count) && count >= 0 && count <= 200)
        ? undefined
        : 'Informe de 0 a 200 estações.';
    setErrors({ ...(checked.errors ?? {}), stations: stationError });
    if (checked.data && !stationError) save.mutate();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={room ? `Editar ${room.name}` : 'Nova sala de prova'}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="sm">
          {!room && (
            <Select
              label="Posto"
              data={posts}
              value={post}
              onChange={setPost}
              searchable
              required
              error={errors.schedulingLocal}
              comboboxProps={{ withinPortal: false }}
            />
          )}
          <TextInput
            label="Código da sala"
            description="Como os exames a nomeiam depois do posto e do hífen (DEMO.POSTO01-S2 → S2)."
            required
            maxLength={20}
            error={errors.code}
            {...textField(code, setCode)}
          />
          <TextInput
            label="Nome"
            required
            maxLength={80}
            error={errors.name}
            {...textField(name, setName)}
          />
          {room ? (
            <Switch
              label="Sala ativa"
              checked={active}
              onChange={(event) => setActive(event.currentTarget.checked)}
            />
          ) : (
            <NumberInput
              label="Estações"
              description="Criadas como Estação 01, Estação 02… (ajuste depois em Estações)."
              min={0}
              max={200}
              value={stations}
              onChange={setStations}
              error={errors.stations}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={save.isPending}>
              {room ? 'Salvar' : 'Criar sala'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The stations of a room: move, rename, switch off, add. */
function StationsModal({ room, onClose }: { room: ExamRoom; onClose: () => void }) {
  const queryClient = useQueryClient();
  const next = Math.max(0, ...room.stations.map((station) => station.position)) + 1;
  const [code, setCode] = useState(`Estação ${String(next).padStart(2, '0')}`);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: roomKeys.all });
  const add = useMutation({
    mutationFn: () => addStation(room.id, { code, position: next }),
    onSuccess: async () => {
      setCode(`Estação ${String(next + 1).padStart(2, '0')}`);
      await refresh();
    },
    onError: (failure) => setError(failure.message),
  });
  const change = useMutation({
    mutationFn: (input: { station: Station; patch: { position?: number; isActive?: boolean } }) =>
      editStation(room.id, input.station.id, input.patch),
    onSuccess: refresh,
    onError: (failure) => toast.error(failure.message),
  });

  return (
    <Modal opened onClose={onClose} title={`Estações da ${room.name}`} size="lg" centered>
      <Stack gap="md">
        {room.stations.length === 0 ? (
          <Text c="dimmed">Nenhuma estação nesta sala ainda.</Text>
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Posição</Table.Th>
                <Table.Th>Estação</Table.Th>
                <Table.Th>No quadro</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {room.stations.map((station) => (
                <Table.Tr key={station.id}>
                  <Table.Td>
                    <NumberInput
                      aria-label={`Posição da ${station.code}`}
                      value={station.position}
                      min={1}
                      max={500}
                      w={90}
                      onBlur={(event) => {
                        const position = Number(event.currentTarget.value);
                        if (
                          Number.isInteger(position) &&
                          position >= 1 &&
                          position !== station.position
                        )
                          change.mutate({ station, patch: { position } });
                      }}
                    />
                  </Table.Td>
                  <Table.Td>{station.code}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${station.code} no quadro`}
                      checked={station.isActive}
                      onChange={(event) =>
                        change.mutate({ station, patch: { isActive: event.currentTarget.checked } })
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const checked = validateForm(stationInputSchema, { code, position: next });
            setError(checked.errors?.code ?? null);
            if (checked.data) add.mutate();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label="Nova estação"
              maxLength={40}
              error={error}
              {...textField(code, setCode)}
            />
            <Button
              type="submit"
              loading={add.isPending}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              Acrescentar
            </Button>
          </Group>
        </form>
      </Stack>
    </Modal>
  );
}

/** Exams of the post today whose room no room names: listed apart, never lost. */
function ExamsWithoutRoom({ post }: { post: string }) {
  const exams = useQuery(unplacedQuery(post, null));
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Exames de hoje sem sala cadastrada
        </Title>
        <QueryContent
          query={exams}
          loadingLabel="Carregando exames sem sala"
          isEmpty={(list) => list.length === 0}
          empty="Todos os exames de hoje deste posto estão numa sala cadastrada."
          compact
        >
          {(list) => (
            <>
              <Alert color="orange" variant="light">
                Estes exames nomeiam uma sala que não existe no posto. Crie a sala com o código que
                eles usam para vê-los no quadro.
              </Alert>
              <Table striped data-testid="exams-without-room">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Horário</Table.Th>
                    <Table.Th>Agendamento</Table.Th>
                    <Table.Th>Candidato</Table.Th>
                    <Table.Th>Estação</Table.Th>
                    <Table.Th>Situação</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((exam) => (
                    <Table.Tr key={exam.id}>
                      <Table.Td>{dayjs(exam.schedulingDate).format('HH:mm')}</Table.Td>
                      <Table.Td>{exam.schedulingId}</Table.Td>
                      <Table.Td>
                        {exam.candidateName}{' '}
                        <Text span size="xs" c="dimmed">
                          {maskCpf(exam.candidateCpf)}
                        </Text>
                      </Table.Td>
                      <Table.Td>{exam.station ?? '—'}</Table.Td>
                      <Table.Td>
                        <StationStatusIcon status={exam.stationStatus} size={22} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </>
          )}
        </QueryContent>
      </Stack>
    </Card>
  );
}
