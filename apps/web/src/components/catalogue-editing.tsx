/**
 * The editing of a unit's catalogue (disqualification reasons, service
 * posts): a list whose items are created and edited in a modal form and
 * never deleted, only deactivated and reactivated after a confirmation.
 * One hook holds the open form, the save and the confirmed toggle; the
 * row's two buttons and the form's two buttons are drawn here once.
 */
import { Button, Group, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useAlert } from './alert-modal/alert-modal';
import { StateBadge } from './state-badge';
import { toast } from './toast';

type Item = { id: string; isActive: boolean };

export type CatalogueEditingOptions<T extends Item, I> = {
  /** The lists to refetch after a change. */
  queryKey: QueryKey;
  create: (input: I) => Promise<T>;
  update: (id: string, input: I | { isActive: boolean }) => Promise<T>;
  /** The confirmation before a toggle: title, message and the confirming button. */
  toggleQuestion: (item: T) => { title: string; message: string; confirm: string };
  /** The toast after a toggle, read from the item the server answered. */
  toggled: (item: T) => string;
  /** The toast after a save. */
  saved: (item: T, created: boolean) => string;
  /** A save's failure that the form shows under a field (no toast then). */
  fieldErrorOf: (error: Error | null) => string | undefined;
};

export function useCatalogueEditing<T extends Item, I>(options: CatalogueEditingOptions<T, I>) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });

  const toggle = useMutation({
    mutationFn: (item: T) => options.update(item.id, { isActive: !item.isActive }),
    onSuccess: async (item) => {
      toast.success(options.toggled(item));
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const confirmToggle = (item: T) => {
    const question = options.toggleQuestion(item);
    showAlert({
      icon: 'warning',
      title: question.title,
      message: question.message,
      actions: [
        { label: 'Cancelar' },
        {
          label: question.confirm,
          color: item.isActive ? 'red' : undefined,
          onClick: () => toggle.mutate(item),
        },
      ],
    });
  };

  const save = useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: I }) =>
      id === null ? options.create(input) : options.update(id, input),
    onSuccess: async (item, { id }) => {
      toast.success(options.saved(item, id === null));
      setEditing(null);
      await refresh();
    },
    // The form shows a field's problem under the field; the rest is a toast.
    onError: (error) => {
      if (!options.fieldErrorOf(error)) toast.error(error.message);
    },
  });
  const edit = (target: T | 'new' | null) => {
    save.reset();
    setEditing(target);
  };

  return {
    editing,
    edit,
    confirmToggle,
    saving: save.isPending,
    fieldError: options.fieldErrorOf(save.error),
    submit: (input: I) => {
      if (editing !== null) save.mutate({ id: editing === 'new' ? null : editing.id, input });
    },
  };
}

/**
 * The last two cells of an item's row: its state, and "Editar" and
 * "Desativar"/"Reativar", each button named with the item for screen readers.
 */
export function CatalogueStateCells<T extends Item>({
  item,
  name,
  labels,
  editor,
}: {
  item: T;
  name: string;
  /** The state's words, active first (`['Ativa', 'Inativa']`). */
  labels: [string, string];
  editor: { edit: (item: T) => void; confirmToggle: (item: T) => void };
}) {
  const hidden = <Text span className="visually-hidden">{` ${name}`}</Text>;
  return (
    <>
      <Table.Td>
        <StateBadge active={item.isActive} labels={labels} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => editor.edit(item)}>
            Editar
            {hidden}
          </Button>
          <Button
            size="xs"
            variant="light"
            color={item.isActive ? 'red' : 'teal'}
            onClick={() => editor.confirmToggle(item)}
          >
            {item.isActive ? 'Desativar' : 'Reativar'}
            {hidden}
          </Button>
        </Group>
      </Table.Td>
    </>
  );
}

/** The form's "Cancelar" and "Salvar". */
export function FormButtons({ saving, onCancel }: { saving: boolean; onCancel: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancelar
      </Button>
      <Button type="submit" loading={saving}>
        Salvar
      </Button>
    </Group>
  );
}
