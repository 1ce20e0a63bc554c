/**
 * The editing of a unit's catalogue (disqualification reasons, service
 * posts): a list whose items are created and edited in a modal form and
 * never deleted, only deactivated and reactivated after a confirmation.
 * One hook holds the open form, the save and the confirmed toggle; the
 * row's two buttons, the modal and the form's frame are drawn here once.
 */
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { FieldErrors } from '../lib/forms';
import { useAlert } from './alert-modal/alert-modal';
import { AppModal } from './app-modal';
import { StateBadge } from './state-badge';
import { toast } from './toast';

type Item = { id: string; isActive: boolean };

export type CatalogueEditingOptions<T extends Item, I> = {
  /** The lists to refetch after a change. */
  queryKey: QueryKey;
  create: (input: I) => Promise<T>;
  update: (id: string, input: I | { isActive: boolean }) => Promise<T>;
  /** The item's name in the toggle's question (`Desativar <noun>`). */
  noun: string;
  /** The toggle's question, under its title. */
  toggleMessage: (item: T) => string;
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
    const confirm = item.isActive ? 'Desativar' : 'Reativar';
    showAlert({
      icon: 'warning',
      title: `${confirm} ${options.noun}`,
      message: options.toggleMessage(item),
      actions: [
        { label: 'Cancelar' },
        {
          label: confirm,
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

export type CatalogueEditor<T extends Item, I> = ReturnType<typeof useCatalogueEditing<T, I>>;

/** The list's button that opens the form of a new item. */
export function CatalogueNewButton({
  editor,
  children,
}: {
  editor: { edit: (target: 'new') => void };
  children: ReactNode;
}) {
  return (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => editor.edit('new')}>
      {children}
    </Button>
  );
}

export type CatalogueValidation<I> =
  { input: I; errors: null } | { input: null; errors: FieldErrors<I> };

/** What the page's fields get: the form's values, and the errors to show under them. */
export type CatalogueFields<I> = {
  values: I;
  setValues: (values: I) => void;
  /** The errors of the last submit. */
  errors: FieldErrors<I>;
  /** The last save's failure, when it belongs under a field. */
  serverError: string | undefined;
};

/**
 * The modal of the form, open while an item (or a new one) is edited: the
 * page gives the fields, the form sends only what `validate` accepts.
 */
export function CatalogueFormModal<T extends Item, I>({
  editor,
  titles,
  width,
  initialOf,
  validate,
  children,
}: {
  editor: CatalogueEditor<T, I>;
  /** The title for a new item, then for an existing one. */
  titles: [string, string];
  width: string;
  /** The form's first values: the empty ones for a new item, else the item's. */
  initialOf: (target: T | 'new') => I;
  validate: (values: I) => CatalogueValidation<I>;
  children: (fields: CatalogueFields<I>) => ReactNode;
}) {
  const { editing, edit } = editor;
  return (
    <AppModal
      opened={editing !== null}
      onClose={() => edit(null)}
      title={editing === 'new' ? titles[0] : titles[1]}
      width={width}
    >
      {editing !== null && (
        <CatalogueForm
          editor={editor}
          initial={initialOf(editing)}
          validate={validate}
          fields={children}
        />
      )}
    </AppModal>
  );
}

/** The form: the page's fields, then "Cancelar" and "Salvar". */
function CatalogueForm<T extends Item, I>({
  editor,
  initial,
  validate,
  fields,
}: {
  editor: CatalogueEditor<T, I>;
  initial: I;
  validate: (values: I) => CatalogueValidation<I>;
  fields: (fields: CatalogueFields<I>) => ReactNode;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<I>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: next } = validate(values);
    setErrors(next ?? {});
    if (input) editor.submit(input);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {fields({ values, setValues, errors, serverError: editor.fieldError })}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => editor.edit(null)}>
            Cancelar
          </Button>
          <Button type="submit" loading={editor.saving}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
