/**
 * An occurrence the examiner records on a board's exam, with an optional
 * photo (validated and re-encoded by the server).
 */
import { Button, FileInput, Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { ROOM_OCCURRENCE_TYPES, roomOccurrenceSchema, type BoardExam } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../components/toast';
import { stripDataUrlPrefix } from '../../../lib/face-capture';
import { validateForm } from '../../../lib/forms';
import { recordOccurrence, roomKeys } from '../api/exam-rooms';

export function OccurrenceModal({
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
