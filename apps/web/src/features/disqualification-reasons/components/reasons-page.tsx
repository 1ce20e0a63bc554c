/**
 * `justificativas` (ADMIN): the unit's disqualification reasons — list,
 * search, create, edit, deactivate and reactivate. A reason is never
 * deleted: decisions that used it keep naming it, so it is only taken out
 * of the auditors' choice.
 */
import { Checkbox, Table, Text, Textarea, TextInput } from '@mantine/core';
import {
  createDisqualificationReasonSchema,
  type CreateDisqualificationReasonInput,
  type DisqualificationReason,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CatalogueFormModal,
  CatalogueNewButton,
  CatalogueStateCells,
  useCatalogueEditing,
  type CatalogueValidation,
} from '../../../components/catalogue-editing';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from '../../../components/list-page';
import { ApiError } from '../../../lib/api-client';
import { textField, validateForm } from '../../../lib/forms';
import { createReason, reasonKeys, reasonListQuery, updateReason } from '../api/reasons';

type ReasonInput = CreateDisqualificationReasonInput;

/** Validated with the server's schema: the same pt-BR texts under each field. */
export function validateReason(values: ReasonInput): CatalogueValidation<ReasonInput> {
  const result = validateForm(createDisqualificationReasonSchema, values);
  return result.data
    ? { input: result.data, errors: null }
    : { input: null, errors: result.errors ?? {} };
}

/** The server's answer about the code belongs under the code field. */
const codeErrorOf = (error: Error | null) =>
  error instanceof ApiError && error.code === 'REASON_CODE_TAKEN' ? error.message : undefined;

export function DisqualificationReasonsPage() {
  const paging = usePagedSearch(20);
  const { debouncedSearch, page, pageSize } = paging;
  const [onlyActive, setOnlyActive] = useState(false);
  const list = useQuery(reasonListQuery({ page, pageSize, search: debouncedSearch, onlyActive }));
  const editor = useCatalogueEditing<DisqualificationReason, ReasonInput>({
    queryKey: reasonKeys.all,
    create: createReason,
    update: updateReason,
    noun: 'justificativa',
    toggleMessage: (reason) =>
      reason.isActive
        ? `A justificativa ${reason.code} deixa de ser oferecida aos auditores. As decisões que já a usaram continuam com ela.`
        : `A justificativa ${reason.code} volta a ser oferecida aos auditores.`,
    toggled: (reason) =>
      reason.isActive
        ? `A justificativa ${reason.code} foi reativada.`
        : `A justificativa ${reason.code} foi desativada.`,
    saved: (reason, created) =>
      `A justificativa ${reason.code} foi ${created ? 'criada' : 'atualizada'}.`,
    fieldErrorOf: codeErrorOf,
  });

  return (
    <ListPage
      title="Justificativas"
      description="Motivos de desclassificação que os auditores escolhem ao desclassificar um exame, sempre com uma observação."
      action={<CatalogueNewButton editor={editor}>Nova justificativa</CatalogueNewButton>}
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
        <CatalogueFormModal
          editor={editor}
          titles={['Nova justificativa', 'Editar justificativa']}
          width="520px"
          validate={validateReason}
          initialOf={(target) =>
            target === 'new' ? { code: '', text: '' } : { code: target.code, text: target.text }
          }
        >
          {({ values, setValues, errors, serverError }) => (
            <>
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
            </>
          )}
        </CatalogueFormModal>
      }
      columns={['Código', 'Justificativa', 'Situação', ACTIONS_COLUMN]}
      minWidth={720}
      row={(reason) => (
        <>
          <Table.Td ff="monospace">{reason.code}</Table.Td>
          <Table.Td>
            <Text size="sm">{reason.text}</Text>
          </Table.Td>
          <CatalogueStateCells
            item={reason}
            name={reason.code}
            labels={['Ativa', 'Inativa']}
            editor={editor}
          />
        </>
      )}
    />
  );
}
