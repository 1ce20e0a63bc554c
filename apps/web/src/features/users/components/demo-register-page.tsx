/**
 * `/demo-register/` (admin-guarded): registers a demonstration user, flagged
 * as such, in the ADMIN's own unit (never in another unit).
 */
import { Paper, Stack, Text, Title } from '@mantine/core';
import { findFederativeUnit } from '@exame/shared';
import { BackHome } from '../../../components/back-home';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { useCreateUser } from './use-create-user';
import { UserForm } from './user-form';

export function DemoRegisterPage() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const { submit, submitting } = useCreateUser('demo', (user) =>
    toast.success(
      `${user.name} recebeu por e-mail o link para cadastrar a senha.`,
      'Usuário de demonstração criado',
    ),
  );
  return (
    <Stack gap="md" p="md" maw={720} mx="auto">
      <BackHome />
      <div>
        <Title order={2}>Cadastro de demonstração</Title>
        <Text c="dimmed" size="sm">
          Cria um usuário de demonstração na sua unidade, para apresentar o sistema. Ele fica
          marcado como de demonstração e não pode ser administrador.
        </Text>
      </div>
      <Paper withBorder p="lg" radius="md">
        <UserForm
          roles={['auditor', 'VIEWER', 'ROOM_INSPECTOR']}
          unitLabel={`${unit} — ${findFederativeUnit(unit)?.name ?? ''}`}
          submitLabel="Cadastrar"
          submitting={submitting}
          onSubmit={submit}
        />
      </Paper>
    </Stack>
  );
}
