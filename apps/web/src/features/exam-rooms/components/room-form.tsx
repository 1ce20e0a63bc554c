/**
 * A new room of a post (post, code, name and how many stations to start
 * with), or a room's name, code and state, on the room-management screen.
 */
import { Button, Group, Modal, NumberInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { createRoomSchema, type ExamRoom } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../components/toast';
import { textField, validateForm } from '../../../lib/forms';
import { createRoom, editRoom, roomKeys } from '../api/exam-rooms';

export function RoomForm({
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
