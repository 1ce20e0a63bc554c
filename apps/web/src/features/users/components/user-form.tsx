/**
 * The form that creates a user: name, e-mail, CPF (typed with the
 * `ddd.ddd.ddd-dd` mask; separators are stripped before sending) and role.
 * Validated with the same schema the server uses.
 */
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import {
  createUserSchema,
  formatCpf,
  ROLE_LABELS,
  type CreateUserInput,
  type Role,
} from '@exame/shared';
import { useState, type FormEvent } from 'react';
import { textField, validateForm, type FieldErrors } from '../../../lib/forms';

type Field = keyof CreateUserInput;

export function UserForm({
  roles,
  unitLabel,
  submitLabel,
  submitting = false,
  onSubmit,
  onCancel,
}: {
  roles: readonly Role[];
  unitLabel: string;
  submitLabel: string;
  /** The creation is in progress (the caller's mutation). */
  submitting?: boolean;
  /** Creates the user; resolves with the fields the server refused, if any. */
  onSubmit: (input: CreateUserInput) => Promise<FieldErrors<CreateUserInput> | void>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState({ name: '', email: '', cpf: '', role: '' });
  const [errors, setErrors] = useState<FieldErrors<CreateUserInput>>({});

  const set = (field: Field, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { data, errors: invalid } = validateForm(createUserSchema, values);
    if (!data) {
      setErrors(invalid);
      return;
    }
    const serverErrors = await onSubmit(data);
    if (serverErrors) setErrors(serverErrors);
    else setValues({ name: '', email: '', cpf: '', role: '' });
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md" maw={520}>
        <TextInput
          label="Nome completo"
          {...textField(values.name, (name) => set('name', name))}
          error={errors.name}
          required
          autoFocus
        />
        <TextInput
          label="E-mail"
          type="email"
          {...textField(values.email, (email) => set('email', email))}
          error={errors.email}
          required
        />
        <TextInput
          label="CPF"
          placeholder="000.000.000-00"
          inputMode="numeric"
          {...textField(values.cpf, (cpf) => set('cpf', formatCpf(cpf)))}
          error={errors.cpf}
          maxLength={14}
          required
        />
        <Select
          label="Perfil"
          placeholder="Selecione o perfil"
          data={roles.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
          value={values.role || null}
          onChange={(role) => set('role', role ?? '')}
          error={errors.role}
          allowDeselect={false}
          required
        />
        <TextInput label="Unidade federativa" value={unitLabel} readOnly disabled />
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancelar
            </Button>
          )}
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
