/** `scheduling-locals` (ADMIN): list, search, create, edit, deactivate and reactivate service posts. */
import { Button, Stack, Table, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  createSchedulingLocalSchema,
  localIdentifierProblem,
  type SchedulingLocal,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AppModal } from '../../../components/app-modal';
import {
  CatalogueStateCells,
  FormButtons,
  useCatalogueEditing,
} from '../../../components/catalogue-editing';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from '../../../components/list-page';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import { textField, validateForm, type FieldErrors } from '../../../lib/forms';
import {
  createLocal,
  localKeys,
  localListQuery,
  updateLocal,
  type LocalInput,
} from '../api/locals';

const fields = createSchedulingLocalSchema.shape;

/** The server's answers about the identifier belong under the identifier field. */
function identifierErrorOf(error: Error | null): string | undefined {
  return error instanceof ApiError &&
    (error.code === 'LOCAL_IDENTIFIER_TAKEN' || error.code === 'LOCAL_IDENTIFIER_INVALID')
    ? error.message
    : undefined;
}

/**
 * Validated with the shared schema of the server; the identifier also with
 * the unit's rule (CE identifiers may contain a dash, others may not).
 */
export function validateLocal(
  unit: string,
  values: LocalInput,
): { input: LocalInput; errors: null } | { input: null; errors: FieldErrors<LocalInput> } {
  const result = validateForm(createSchedulingLocalSchema, {
    ...values,
    address: values.address?.trim() || null,
  });
  const identifier = localIdentifierProblem(unit, values.identifier) ?? result.errors?.identifier;
  if (result.data && !identifier) {
    return { input: { ...result.data, address: result.data.address ?? null }, errors: null };
  }
  return { input: null, errors: { ...result.errors, identifier } };
}

function LocalForm({
  unit,
  initial,
  saving,
  serverError,
  onSubmit,
  onCancel,
}: {
  /** The ADMIN's unit: CE identifiers may contain a dash, others may not. */
  unit: string;
  initial: LocalInput;
  saving: boolean;
  /** The last save's failure, when it was about the identifier. */
  serverError: string | undefined;
  onSubmit: (input: LocalInput) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<LocalInput>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: next } = validateLocal(unit, values);
    setErrors(next ?? {});
    if (input) onSubmit(input);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Identificador"
          description="Como o sistema de provas identifica o posto, ex.: DF.TAGUATINGA"
          {...textField(values.identifier, (identifier) => setValues({ ...values, identifier }))}
          error={errors.identifier ?? serverError}
          maxLength={fields.identifier.maxLength ?? undefined}
          required
          data-autofocus
        />
        <TextInput
          label="Nome"
          {...textField(values.description, (description) => setValues({ ...values, description }))}
          error={errors.description}
          maxLength={fields.description.maxLength ?? undefined}
          required
        />
        <TextInput
          label="Endereço"
          {...textField(values.address ?? '', (address) => setValues({ ...values, address }))}
          error={errors.address}
          maxLength={fields.address.unwrap().unwrap().maxLength ?? undefined}
        />
        <FormButtons saving={saving} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

export function SchedulingLocalsPage() {
  const paging = usePagedSearch(20);
  const { debouncedSearch, page, pageSize } = paging;
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const list = useQuery(localListQuery({ page, pageSize, search: debouncedSearch }));
  const editor = useCatalogueEditing<SchedulingLocal, LocalInput>({
    queryKey: localKeys.all,
    create: createLocal,
    update: updateLocal,
    toggleQuestion: (local) => ({
      title: local.isActive ? 'Desativar posto' : 'Reativar posto',
      message: local.isActive
        ? 'O posto deixa de aparecer para a entrada nas salas de prova. Os exames já registrados continuam nos relatórios.'
        : 'O posto volta a aparecer para a entrada nas salas de prova.',
      confirm: local.isActive ? 'Desativar' : 'Reativar',
    }),
    toggled: (local) =>
      local.isActive
        ? `${local.description} foi reativado.`
        : `${local.description} foi desativado.`,
    saved: (local, created) => `${local.description} foi ${created ? 'criado' : 'atualizado'}.`,
    fieldErrorOf: identifierErrorOf,
  });
  const { editing, edit } = editor;

  return (
    <ListPage
      title="Postos de atendimento"
      description="Locais onde os exames são aplicados."
      action={
        <Button leftSection={<IconPlus size={16} />} onClick={() => edit('new')}>
          Novo posto
        </Button>
      }
      search={{ label: 'Buscar postos', placeholder: 'Buscar por nome ou identificador' }}
      query={list}
      loadingLabel="Carregando postos"
      empty={debouncedSearch ? 'Nenhum posto encontrado para a busca.' : 'Nenhum posto cadastrado.'}
      paging={paging}
      noun={['posto', 'postos']}
      below={
        <AppModal
          opened={editing !== null}
          onClose={() => edit(null)}
          title={editing === 'new' ? 'Novo posto' : 'Editar posto'}
          width="480px"
        >
          {editing !== null && (
            <LocalForm
              unit={unit}
              initial={
                editing === 'new'
                  ? { identifier: '', description: '', address: null }
                  : {
                      identifier: editing.identifier,
                      description: editing.description,
                      address: editing.address,
                    }
              }
              saving={editor.saving}
              serverError={editor.fieldError}
              onSubmit={editor.submit}
              onCancel={() => edit(null)}
            />
          )}
        </AppModal>
      }
      columns={['Nome', 'Identificador', 'Endereço', 'Situação', ACTIONS_COLUMN]}
      minWidth={720}
      row={(local) => (
        <>
          <Table.Td>{local.description}</Table.Td>
          <Table.Td ff="monospace">{local.identifier}</Table.Td>
          <Table.Td>{local.address ?? '—'}</Table.Td>
          <CatalogueStateCells
            item={local}
            name={local.description}
            labels={['Ativo', 'Inativo']}
            editor={editor}
          />
        </>
      )}
    />
  );
}
