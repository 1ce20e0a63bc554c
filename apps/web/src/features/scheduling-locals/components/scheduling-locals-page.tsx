/** `scheduling-locals` (ADMIN): list, search, create, edit, deactivate and reactivate service posts. */
import { Table, TextInput } from '@mantine/core';
import {
  createSchedulingLocalSchema,
  localIdentifierProblem,
  type SchedulingLocal,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import {
  CatalogueFormModal,
  CatalogueNewButton,
  CatalogueStateCells,
  useCatalogueEditing,
  type CatalogueValidation,
} from '../../../components/catalogue-editing';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from '../../../components/list-page';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import { textField, validateForm } from '../../../lib/forms';
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
export function validateLocal(unit: string, values: LocalInput): CatalogueValidation<LocalInput> {
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

export function SchedulingLocalsPage() {
  const paging = usePagedSearch(20);
  const { debouncedSearch, page, pageSize } = paging;
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const list = useQuery(localListQuery({ page, pageSize, search: debouncedSearch }));
  const editor = useCatalogueEditing<SchedulingLocal, LocalInput>({
    queryKey: localKeys.all,
    create: createLocal,
    update: updateLocal,
    noun: 'posto',
    toggleMessage: (local) =>
      local.isActive
        ? 'O posto deixa de aparecer para a entrada nas salas de prova. Os exames já registrados continuam nos relatórios.'
        : 'O posto volta a aparecer para a entrada nas salas de prova.',
    toggled: (local) =>
      local.isActive
        ? `${local.description} foi reativado.`
        : `${local.description} foi desativado.`,
    saved: (local, created) => `${local.description} foi ${created ? 'criado' : 'atualizado'}.`,
    fieldErrorOf: identifierErrorOf,
  });

  return (
    <ListPage
      title="Postos de atendimento"
      description="Locais onde os exames são aplicados."
      action={<CatalogueNewButton editor={editor}>Novo posto</CatalogueNewButton>}
      search={{ label: 'Buscar postos', placeholder: 'Buscar por nome ou identificador' }}
      query={list}
      loadingLabel="Carregando postos"
      empty={debouncedSearch ? 'Nenhum posto encontrado para a busca.' : 'Nenhum posto cadastrado.'}
      paging={paging}
      noun={['posto', 'postos']}
      below={
        <CatalogueFormModal
          editor={editor}
          titles={['Novo posto', 'Editar posto']}
          width="480px"
          // The ADMIN's unit: CE identifiers may contain a dash, others may not.
          validate={(values) => validateLocal(unit, values)}
          initialOf={(target) =>
            target === 'new'
              ? { identifier: '', description: '', address: null }
              : {
                  identifier: target.identifier,
                  description: target.description,
                  address: target.address,
                }
          }
        >
          {({ values, setValues, errors, serverError }) => (
            <>
              <TextInput
                label="Identificador"
                description="Como o sistema de provas identifica o posto, ex.: DF.TAGUATINGA"
                {...textField(values.identifier, (identifier) =>
                  setValues({ ...values, identifier }),
                )}
                error={errors.identifier ?? serverError}
                maxLength={fields.identifier.maxLength ?? undefined}
                required
                data-autofocus
              />
              <TextInput
                label="Nome"
                {...textField(values.description, (description) =>
                  setValues({ ...values, description }),
                )}
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
            </>
          )}
        </CatalogueFormModal>
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
