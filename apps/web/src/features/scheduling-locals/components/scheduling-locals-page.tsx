/** `scheduling-locals` (ADMIN): list, search, create, edit, deactivate and reactivate service posts. */
import { Badge, Button, Group, Paper, Stack, Table, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { localIdentifierProblem, type SchedulingLocal } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { QueryContent } from '../../../components/query-content';
import { AppModal } from '../../../components/app-modal';
import { ListPageHeader, ListSearch, usePagedSearch } from '../../../components/list-page';
import { PaginationFooter } from '../../../components/pagination-footer';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import {
  createLocal,
  localKeys,
  localListQuery,
  updateLocal,
  type LocalInput,
} from '../api/locals';

function LocalForm({
  unit,
  initial,
  onSubmit,
  onCancel,
}: {
  /** The ADMIN's unit: CE identifiers may contain a dash, others may not. */
  unit: string;
  initial: LocalInput;
  onSubmit: (input: LocalInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof LocalInput, string>>>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const identifierProblem = localIdentifierProblem(unit, values.identifier);
    if (identifierProblem) next.identifier = identifierProblem;
    if (values.description.trim().length < 3) next.description = 'Informe o nome do posto.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setSaving(true);
    try {
      await onSubmit({
        identifier: values.identifier.trim(),
        description: values.description.trim(),
        address: values.address?.trim() || null,
      });
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'LOCAL_IDENTIFIER_TAKEN' || error.code === 'LOCAL_IDENTIFIER_INVALID')
      )
        setErrors({ identifier: error.message });
      else toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Identificador"
          description="Como o sistema de provas identifica o posto, ex.: DF.TAGUATINGA"
          value={values.identifier}
          onChange={(event) => setValues({ ...values, identifier: event.currentTarget.value })}
          error={errors.identifier}
          required
          data-autofocus
        />
        <TextInput
          label="Nome"
          value={values.description}
          onChange={(event) => setValues({ ...values, description: event.currentTarget.value })}
          error={errors.description}
          required
        />
        <TextInput
          label="Endereço"
          value={values.address ?? ''}
          onChange={(event) => setValues({ ...values, address: event.currentTarget.value })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancelar
          </Button>
          <Button type="submit" loading={saving}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SchedulingLocalsPage() {
  const { search, debouncedSearch, page, pageSize, setSearch, setPage, setPageSize } =
    usePagedSearch(20);
  const [editing, setEditing] = useState<SchedulingLocal | 'new' | null>(null);
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const list = useQuery(localListQuery({ page, pageSize, search: debouncedSearch }));

  const refresh = () => queryClient.invalidateQueries({ queryKey: localKeys.all });
  const toggle = useMutation({
    mutationFn: (local: SchedulingLocal) => updateLocal(local.id, { isActive: !local.isActive }),
    onSuccess: async (local) => {
      toast.success(
        local.isActive
          ? `${local.description} foi reativado.`
          : `${local.description} foi desativado.`,
      );
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });

  const confirmToggle = (local: SchedulingLocal) =>
    showAlert({
      icon: 'warning',
      title: local.isActive ? 'Desativar posto' : 'Reativar posto',
      message: local.isActive
        ? 'O posto deixa de aparecer para a entrada nas salas de prova. Os exames já registrados continuam nos relatórios.'
        : 'O posto volta a aparecer para a entrada nas salas de prova.',
      actions: [
        { label: 'Cancelar' },
        {
          label: local.isActive ? 'Desativar' : 'Reativar',
          color: local.isActive ? 'red' : undefined,
          onClick: () => toggle.mutate(local),
        },
      ],
    });

  const saveLocal = useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: LocalInput }) =>
      id === null ? createLocal(input) : updateLocal(id, input),
    onSuccess: async (local, { id }) => {
      toast.success(`${local.description} foi ${id === null ? 'criado' : 'atualizado'}.`);
      setEditing(null);
      await refresh();
    },
  });
  // The form shows the errors of its fields; the mutation keeps the rest.
  const save = async (input: LocalInput) => {
    if (editing === null) return;
    await saveLocal.mutateAsync({ id: editing === 'new' ? null : editing.id, input });
  };

  const data = list.data;
  return (
    <Stack gap="md">
      <ListPageHeader
        title="Postos de atendimento"
        description="Locais onde os exames são aplicados."
        action={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Novo posto
          </Button>
        }
      />
      <ListSearch
        label="Buscar postos"
        placeholder="Buscar por nome ou identificador"
        value={search}
        onChange={setSearch}
      />
      <Paper withBorder radius="md">
        <QueryContent
          query={list}
          loadingLabel="Carregando postos"
          isEmpty={(page) => page.items.length === 0}
          empty={
            debouncedSearch ? 'Nenhum posto encontrado para a busca.' : 'Nenhum posto cadastrado.'
          }
        >
          {(page) => (
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Nome</Table.Th>
                    <Table.Th>Identificador</Table.Th>
                    <Table.Th>Endereço</Table.Th>
                    <Table.Th>Situação</Table.Th>
                    <Table.Th aria-label="Ações" />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((local) => (
                    <Table.Tr key={local.id}>
                      <Table.Td>{local.description}</Table.Td>
                      <Table.Td ff="monospace">{local.identifier}</Table.Td>
                      <Table.Td>{local.address ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge color={local.isActive ? 'teal' : 'gray'} variant="light">
                          {local.isActive ? 'Ativo' : 'Inativo'}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setEditing(local)}>
                            Editar
                          </Button>
                          <Button
                            size="xs"
                            variant="light"
                            color={local.isActive ? 'red' : 'teal'}
                            onClick={() => confirmToggle(local)}
                          >
                            {local.isActive ? 'Desativar' : 'Reativar'}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryContent>
      </Paper>
      {data && (
        <PaginationFooter
          total={data.total}
          page={page}
          pageSize={pageSize}
          noun={['posto', 'postos']}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      )}
      <AppModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
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
            onSubmit={save}
            onCancel={() => setEditing(null)}
          />
        )}
      </AppModal>
    </Stack>
  );
}
