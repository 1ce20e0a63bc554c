/**
 * The examiner's rooms on the home page: the rooms of their open check-in,
 * each with its board, and the way to check out (the room screen).
 */
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { QueryContent } from '../../../components/query-content';
import { roomsQuery } from '../api/exam-rooms';
import { OpenBoardButton } from './open-board-button';

export function MyRooms() {
  const rooms = useQuery(roomsQuery(null, false, true));
  return (
    <Stack gap="xs" component="section" aria-labelledby="minhas-salas">
      <Title order={3} size="h4" id="minhas-salas">
        Minhas salas
      </Title>
      <QueryContent
        query={rooms}
        loadingLabel="Carregando as suas salas"
        isEmpty={(list) => list.length === 0}
        empty="Você não tem uma entrada aberta numa sala. Registre a entrada em Sala de prova."
        compact
      >
        {(list) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="my-rooms">
            {list.map((room) => (
              <Card key={room.id} withBorder radius="md" padding="md">
                <Text fw={600}>{room.name}</Text>
                <Text size="sm" c="dimmed">
                  {room.schedulingLocalDescription} · {room.examLocal}
                </Text>
                {room.heldBy[0] && (
                  <Text size="sm">
                    Entrada às {dayjs(room.heldBy[0].openedAt).format('HH:mm')} com{' '}
                    {room.heldBy[0].examiners.join(' e ')}
                  </Text>
                )}
                <Group gap="xs" mt="sm">
                  <OpenBoardButton room={room} />
                  <Button
                    size="xs"
                    variant="light"
                    component={Link}
                    to="/viewer-checkin"
                    leftSection={<IconDoorExit size={14} aria-hidden />}
                  >
                    Registrar saída
                    <Text span className="visually-hidden">{` da ${room.name}`}</Text>
                  </Button>
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
    </Stack>
  );
}
