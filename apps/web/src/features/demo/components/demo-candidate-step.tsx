/**
 * `/demo-register/`, step 1 of the demonstration: the candidate's name, CPF
 * (typed as `ddd.ddd.ddd-dd`, sent as digits) and birth date (`DD/MM/AAAA`,
 * sent as `YYYY-MM-DD`), validated with the server's schema; once created
 * (`POST api/Demo/candidates`) the flow goes on to the contact and consent.
 */
import { Anchor, Group, Stack, Text, TextInput } from '@mantine/core';
import { demoCandidateInputSchema, formatCpf, type DemoCandidateInput } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DemoNextButton, DemoSteps } from './demo-steps';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import {
  submitValid,
  textField,
  validateForm,
  type FieldErrors,
  type FormValidation,
} from '../../../lib/forms';
import { createDemoCandidate, demoKeys } from '../api/demo';
import { DemoError } from './demo-error';
import { birthDateToIso, formatBirthDate } from './masks';

type Values = { name: string; cpf: string; birthDate: string };
type Errors = FieldErrors<DemoCandidateInput>;

const EMPTY: Values = { name: '', cpf: '', birthDate: '' };

/** The values as the schema reads them: the parsed input, or each field's pt-BR message. */
export function validateCandidate(values: Values): FormValidation<DemoCandidateInput> {
  const birthDate = birthDateToIso(values.birthDate);
  const validation = validateForm<DemoCandidateInput>(demoCandidateInputSchema, {
    ...values,
    birthDate: birthDate ?? '',
  });
  if (birthDate !== null) return validation;
  return { data: null, errors: { ...validation.errors, birthDate: 'Data inválida.' } };
}

/** The fields the server named in `details`, under their fields. */
function fieldErrorsOf(error: unknown): Errors | null {
  if (!(error instanceof ApiError) || error.details.length === 0) return null;
  const errors: Errors = {};
  for (const detail of error.details) {
    const field = detail.path.split('.')[0] as keyof DemoCandidateInput;
    if (field in EMPTY && !errors[field]) errors[field] = detail.message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

export function DemoCandidateStep() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});

  const create = useMutation({
    mutationFn: createDemoCandidate,
    onSuccess: async (candidate, input) => {
      await queryClient.invalidateQueries({ queryKey: demoKeys.all });
      toast.success(
        `${candidate.name} foi cadastrado para a demonstração.`,
        'Candidato cadastrado',
      );
      await navigate(`/demo-register2/?cpf=${input.cpf}`);
    },
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      if (fields) setErrors(fields);
    },
  });

  const set = (field: keyof Values, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const submit = submitValid(
    () => validateCandidate(values),
    setErrors,
    (data) => create.mutate(data),
  );

  return (
    <Stack gap="md">
      <DemoSteps active={1} />
      <Text c="dimmed" size="sm">
        Cadastre o candidato que vai experimentar a verificação facial. Os dados ficam só na unidade
        DEMO e podem ser apagados ao fim da demonstração.
      </Text>
      {create.isError && !fieldErrorsOf(create.error) && (
        <Stack gap={4}>
          <DemoError error={create.error} />
          {create.error instanceof ApiError && create.error.status === 409 && (
            // A candidate already registered with this CPF: their flow goes on from step 2.
            <Anchor
              underline="always"
              component={Link}
              to={`/demo-register2/?cpf=${create.variables.cpf}`}
              size="sm"
            >
              Continuar com o candidato deste CPF
            </Anchor>
          )}
        </Stack>
      )}
      <form onSubmit={submit} noValidate aria-label="Dados do candidato">
        <Stack gap="md" maw={520}>
          <TextInput
            label="Nome completo"
            autoComplete="off"
            {...textField(values.name, (name) => set('name', name))}
            error={errors.name}
            required
            autoFocus
          />
          <TextInput
            label="CPF"
            placeholder="000.000.000-00"
            inputMode="numeric"
            autoComplete="off"
            {...textField(values.cpf, (cpf) => set('cpf', formatCpf(cpf)))}
            error={errors.cpf}
            maxLength={14}
            required
          />
          <TextInput
            label="Data de nascimento"
            placeholder="DD/MM/AAAA"
            description="Dia, mês e ano, ex.: 31/01/1990."
            inputMode="numeric"
            autoComplete="off"
            {...textField(values.birthDate, (date) => set('birthDate', formatBirthDate(date)))}
            error={errors.birthDate}
            maxLength={10}
            required
          />
          <Group justify="flex-end">
            <DemoNextButton loading={create.isPending}>Cadastrar e continuar</DemoNextButton>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
