/** The stations of a room, on the room-management screen: move, rename, switch off, add. */
import {
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { stationInputSchema, type ExamRoom, type Station } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../components/toast';
import { textField, validateForm } from '../../../lib/forms';
import { addStation, editStation, roomKeys } from '../api/exam-rooms';

export function StationsModal({ room, onClose }: { room: ExamRoom; onClose: () => void }) {
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
