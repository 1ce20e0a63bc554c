/**
 * The demonstration user of `/demo-register/` (admin-guarded; its tab
 * "Usuário de demonstração"): registers a demonstration user, flagged as
 * such, in the ADMIN's own unit (never in another unit), via `POST api/User`.
 */
import { Paper, Stack, Text } from '@mantine/core';
import { findFederativeUnit } from '@exame/shared';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { useCreateUser } from './use-create-user';
import { UserForm } from './user-form';

export function DemoUserPanel() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const { submit, submitting } = useCreateUser('demo', (user) =>
    toast.success(
      `${user.name} recebeu por e-mail o link para cadastrar a senha.`,
      'Usuário de demonstração criado',
    ),
  );
  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        Cria um usuário de demonstração na sua unidade, para apresentar o sistema. Ele fica marcado
        como de demonstração e não pode ser administrador.
      </Text>
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
