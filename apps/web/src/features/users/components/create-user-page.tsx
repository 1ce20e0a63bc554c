/** `create-users`: an ADMIN creates a user of any role in the ADMIN's unit; the user gets the register link. */
import { Paper, Stack, Text, Title } from '@mantine/core';
import { findFederativeUnit, ROLES } from '@exame/shared';
import { useNavigate } from 'react-router';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { useCreateUser } from './use-create-user';
import { UserForm } from './user-form';

export function CreateUserPage() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const navigate = useNavigate();
  const { submit, submitting } = useCreateUser('admin', (user) => {
    toast.success(`Enviamos para ${user.email} o link para cadastrar a senha.`, 'Usuário criado');
    return navigate('/list-users');
  });

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
          submitting={submitting}
          onSubmit={submit}
          onCancel={() => navigate('/list-users')}
        />
      </Paper>
    </Stack>
  );
}
