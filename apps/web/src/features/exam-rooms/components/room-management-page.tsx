/**
 * `/room-management` (ADMIN and ROOM_INSPECTOR): the exam rooms of the posts
 * with their stations, who holds each room now (the open check-in), the way
 * to each room's board, and the exams of a post that no room names (listed
 * apart, never lost).
 */
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconEdit, IconListNumbers, IconPlus } from '@tabler/icons-react';
import type { ExamRoom } from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { useAppState } from '../../../lib/app-store';
import { activePostsQuery } from '../../../api/unit-posts';
import { roomsQuery } from '../api/exam-rooms';
import { ExamsWithoutRoom } from './exams-without-room';
import { RoomForm } from './room-form';
import { StationsModal } from './stations-modal';
import { OpenBoardButton } from './open-board-button';

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
          w={{ base: '100%', xs: 360 }}
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
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h5">
              {room.name}
            </Title>
            <Text size="sm" c="dimmed">
              {room.schedulingLocalDescription} · {room.examLocal}
            </Text>
          </div>
          <Badge color={room.isActive ? 'teal' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
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
          <OpenBoardButton room={room} />
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
