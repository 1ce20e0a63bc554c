/** "Abrir quadro" of a room, named with the room for screen readers: the examiner's rooms and the rooms screen. */
import { Button, Text } from '@mantine/core';
import { IconLayoutGrid } from '@tabler/icons-react';
import { Link } from 'react-router';

export function OpenBoardButton({ room }: { room: { id: string; name: string } }) {
  return (
    <Button
      size="xs"
      component={Link}
      to={`/exam-room/${room.id}`}
      leftSection={<IconLayoutGrid size={14} aria-hidden />}
    >
      Abrir quadro
      <Text span className="visually-hidden">{` da ${room.name}`}</Text>
    </Button>
  );
}
