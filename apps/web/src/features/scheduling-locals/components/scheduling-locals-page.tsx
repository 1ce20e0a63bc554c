/** `scheduling-locals` (ADMIN): list, search, create, edit, deactivate and reactivate service posts. */
import {
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { SchedulingLocal } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { QueryContent } from '../../../components/query-content';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import {
  createLocal,
  localKeys,
  localListQuery,
  updateLocal,
  type LocalInput,
} from '../api/locals';

const PAGE_SIZE = 20;

function LocalForm({
  initial,
  onSubmit,
  onCancel,
}: {
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
    if (!/^[A-Za-z0-9._]{2,80}$/.test(values.identifier.trim())) {
      next.identifier = 'Use de 2 a 80 letras, números, ponto ou sublinhado (sem hífen).';
    }
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
      if (error instanceof ApiError && error.code === 'LOCAL_IDENTIFIER_TAKEN')
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
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<SchedulingLocal | 'new' | null>(null);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const list = useQuery(localListQuery({ page, pageSize: PAGE_SIZE, search: debouncedSearch }));

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

  const save = async (input: LocalInput) => {
    if (editing === 'new') {
      await createLocal(input);
      toast.success(`${input.description} foi criado.`);
    } else if (editing) {
      await updateLocal(editing.id, input);
      toast.success(`${input.description} foi atualizado.`);
    }
    setEditing(null);
    await refresh();
  };

  const data = list.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Postos de atendimento</Title>
          <Text c="dimmed" size="sm">
            Locais onde os exames são aplicados.
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Novo posto
        </Button>
      </Group>
      <TextInput
        placeholder="Buscar por nome ou identificador"
        aria-label="Buscar postos"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={420}
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
      {data && data.total > PAGE_SIZE && (
        <Group justify="flex-end">
          <Pagination
            total={Math.ceil(data.total / PAGE_SIZE)}
            value={page}
            onChange={setPage}
            aria-label="Páginas"
          />
        </Group>
      )}
      <AppModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Novo posto' : 'Editar posto'}
        width="480px"
      >
        {editing !== null && (
          <LocalForm
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
