/** `create-users`: an ADMIN creates a user of any role in the ADMIN's unit; the user gets the register link. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import { findFederativeUnit, ROLES, type CreateUserInput } from '@exame/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import { createUser, userKeys } from '../api/users';
import { UserForm } from './user-form';

export function serverFieldErrors(
  error: unknown,
): Partial<Record<keyof CreateUserInput, string>> | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'USER_EMAIL_TAKEN') return { email: error.message };
  if (error.code === 'USER_CPF_TAKEN') return { cpf: error.message };
  return null;
}

export function CreateUserPage() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const submit = async (input: CreateUserInput) => {
    try {
      const user = await createUser(input);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      toast.success(`Enviamos para ${user.email} o link para cadastrar a senha.`, 'Usuário criado');
      navigate('/list-users');
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) return fields;
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Novo usuário</Title>
        <Text c="dimmed" size="sm">
          O usuário recebe por e-mail um link, válido por 30 minutos, para cadastrar a própria
          senha.
        </Text>
      </div>
      <Paper withBorder p="lg" radius="md">
        <UserForm
          roles={ROLES}
          unitLabel={`${unit} — ${findFederativeUnit(unit)?.name ?? ''}`}
          submitLabel="Criar usuário"
          onSubmit={submit}
          onCancel={() => navigate('/list-users')}
        />
      </Paper>
    </Stack>
  );
}
