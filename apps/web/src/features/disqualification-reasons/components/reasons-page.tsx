/**
 * `justificativas` (ADMIN): the unit's disqualification reasons — list,
 * search, create, edit, deactivate and reactivate. A reason is never
 * deleted: decisions that used it keep naming it, so it is only taken out
 * of the auditors' choice.
 */
import { Button, Checkbox, Group, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  createDisqualificationReasonSchema,
  type CreateDisqualificationReasonInput,
  type DisqualificationReason,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { AppModal } from '../../../components/app-modal';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from '../../../components/list-page';
import { StateBadge } from '../../../components/state-badge';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { textField, validateForm, type FieldErrors } from '../../../lib/forms';
import { createReason, reasonKeys, reasonListQuery, updateReason } from '../api/reasons';

type ReasonInput = CreateDisqualificationReasonInput;

/** Validated with the server's schema: the same pt-BR texts under each field. */
export function validateReason(
  values: ReasonInput,
): { input: ReasonInput; errors: null } | { input: null; errors: FieldErrors<ReasonInput> } {
  const result = validateForm(createDisqualificationReasonSchema, values);
  return result.data
    ? { input: result.data, errors: null }
    : { input: null, errors: result.errors ?? {} };
}

/** The server's answer about the code belongs under the code field. */
const codeErrorOf = (error: Error | null) =>
  error instanceof ApiError && error.code === 'REASON_CODE_TAKEN' ? error.message : undefined;

function ReasonForm({
  initial,
  saving,
  serverError,
  onSubmit,
  onCancel,
}: {
  initial: ReasonInput;
  saving: boolean;
  serverError: string | undefined;
  onSubmit: (input: ReasonInput) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<ReasonInput>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: next } = validateReason(values);
    setErrors(next ?? {});
    if (input) onSubmit(input);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Código"
          description="Curto, como os auditores e os relatórios o citam, ex.: D06"
          {...textField(values.code, (code) => setValues({ ...values, code }))}
          error={errors.code ?? serverError}
          maxLength={20}
          required
          data-autofocus
        />
        <Textarea
          label="Justificativa"
          description="Como o resultado do candidato vai descrevê-la."
          value={values.text}
          onChange={(event) => setValues({ ...values, text: event.currentTarget.value })}
          error={errors.text}
          autosize
          minRows={3}
          maxLength={300}
          required
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

export function DisqualificationReasonsPage() {
  const paging = usePagedSearch(20);
  const { debouncedSearch, page, pageSize } = paging;
  const [onlyActive, setOnlyActive] = useState(false);
  const [editing, setEditing] = useState<DisqualificationReason | 'new' | null>(null);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const list = useQuery(reasonListQuery({ page, pageSize, search: debouncedSearch, onlyActive }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: reasonKeys.all });

  const toggle = useMutation({
    mutationFn: (reason: DisqualificationReason) =>
      updateReason(reason.id, { isActive: !reason.isActive }),
    onSuccess: async (reason) => {
      toast.success(
        reason.isActive
          ? `A justificativa ${reason.code} foi reativada.`
          : `A justificativa ${reason.code} foi desativada.`,
      );
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const confirmToggle = (reason: DisqualificationReason) =>
    showAlert({
      icon: 'warning',
      title: reason.isActive ? 'Desativar justificativa' : 'Reativar justificativa',
      message: reason.isActive
        ? `A justificativa ${reason.code} deixa de ser oferecida aos auditores. As decisões que já a usaram continuam com ela.`
        : `A justificativa ${reason.code} volta a ser oferecida aos auditores.`,
      actions: [
        { label: 'Cancelar' },
        {
          label: reason.isActive ? 'Desativar' : 'Reativar',
          color: reason.isActive ? 'red' : undefined,
          onClick: () => toggle.mutate(reason),
        },
      ],
    });

  const save = useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ReasonInput }) =>
      id === null ? createReason(input) : updateReason(id, input),
    onSuccess: async (reason, { id }) => {
      toast.success(`A justificativa ${reason.code} foi ${id === null ? 'criada' : 'atualizada'}.`);
      setEditing(null);
      await refresh();
    },
    onError: (error) => {
      if (!codeErrorOf(error)) toast.error(error.message);
    },
  });
  const edit = (target: DisqualificationReason | 'new' | null) => {
    save.reset();
    setEditing(target);
  };

  return (
    <ListPage
      title="Justificativas"
      description="Motivos de desclassificação que os auditores escolhem ao desclassificar um exame, sempre com uma observação."
      action={
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => edit('new')}>
          Nova justificativa
        </Button>
      }
      search={{ label: 'Buscar justificativas', placeholder: 'Buscar por código ou texto' }}
      filters={
        <Checkbox
          label="Somente as ativas"
          checked={onlyActive}
          onChange={(event) => {
            setOnlyActive(event.currentTarget.checked);
            paging.setPage(1);
          }}
        />
      }
      query={list}
      loadingLabel="Carregando justificativas"
      empty={
        debouncedSearch || onlyActive
          ? 'Nenhuma justificativa encontrada com estes filtros.'
          : 'Nenhuma justificativa cadastrada. Crie a primeira em "Nova justificativa".'
      }
      paging={paging}
      noun={['justificativa', 'justificativas']}
      table={{ 'data-testid': 'reasons-table' }}
      below={
        <AppModal
          opened={editing !== null}
          onClose={() => edit(null)}
          title={editing === 'new' ? 'Nova justificativa' : 'Editar justificativa'}
          width="520px"
        >
          {editing !== null && (
            <ReasonForm
              initial={
                editing === 'new'
                  ? { code: '', text: '' }
                  : { code: editing.code, text: editing.text }
              }
              saving={save.isPending}
              serverError={codeErrorOf(save.error)}
              onSubmit={(input) =>
                save.mutate({ id: editing === 'new' ? null : editing.id, input })
              }
              onCancel={() => edit(null)}
            />
          )}
        </AppModal>
      }
      columns={['Código', 'Justificativa', 'Situação', ACTIONS_COLUMN]}
      minWidth={720}
      row={(reason) => (
        <>
          <Table.Td ff="monospace">{reason.code}</Table.Td>
          <Table.Td>
            <Text size="sm">{reason.text}</Text>
          </Table.Td>
          <Table.Td>
            <StateBadge active={reason.isActive} labels={['Ativa', 'Inativa']} />
          </Table.Td>
          <Table.Td>
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => edit(reason)}>
                Editar
                <Text span className="visually-hidden">{` ${reason.code}`}</Text>
              </Button>
              <Button
                size="xs"
                variant="light"
                color={reason.isActive ? 'red' : 'teal'}
                onClick={() => confirmToggle(reason)}
              >
                {reason.isActive ? 'Desativar' : 'Reativar'}
                <Text span className="visually-hidden">{` ${reason.code}`}</Text>
              </Button>
            </Group>
          </Table.Td>
        </>
      )}
    />
  );
}
