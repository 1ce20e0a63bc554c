/** `list-users`: the users of the ADMIN's unit, paginated on the server, with search and enable/disable. */
import { Badge, Button, Group, Table } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { maskCpf, ROLE_LABELS, type User } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { ACTIONS_COLUMN, ListPage, usePagedSearch } from '../../../components/list-page';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { resetSecondFactor, setRegisterStatus, userKeys, userListQuery } from '../api/users';
import { StateBadge } from '../../../components/state-badge';

export function ListUsersPage() {
  const me = useAppState((state) => state.user);
  const paging = usePagedSearch(10);
  const { debouncedSearch, page, pageSize } = paging;
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const list = useQuery(userListQuery({ page, pageSize, search: debouncedSearch }));

  const toggle = useMutation({
    mutationFn: (user: User) =>
      setRegisterStatus(user.id, user.registerStatus === 'enabled' ? 'disabled' : 'enabled'),
    onSuccess: async (user) => {
      toast.success(
        user.registerStatus === 'enabled'
          ? `${user.name} foi habilitado.`
          : `${user.name} foi desabilitado.`,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });

  const reset = useMutation({
    mutationFn: (user: User) => resetSecondFactor(user.id).then(() => user),
    onSuccess: async (user) => {
      toast.success(
        `O segundo fator de ${user.name} foi redefinido. No próximo login ele entra com a senha e, se o perfil exigir, cadastra um novo.`,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });

  const confirmReset = (user: User) =>
    showAlert({
      icon: 'warning',
      title: 'Redefinir segundo fator',
      message: `Remover o aplicativo autenticador, as chaves de acesso e os códigos de recuperação de <b>${escapeHtml(user.name)}</b>? Faça isso só para quem perdeu o aparelho e os códigos, depois de confirmar quem está pedindo.`,
      actions: [
        { label: 'Cancelar' },
        { label: 'Redefinir', color: 'red', onClick: () => reset.mutate(user) },
      ],
    });

  const confirmToggle = (user: User) => {
    const disabling = user.registerStatus === 'enabled';
    showAlert({
      icon: 'warning',
      title: disabling ? 'Desabilitar usuário' : 'Habilitar usuário',
      message: disabling
        ? `Desabilitar <b>${escapeHtml(user.name)}</b>? As sessões abertas dele serão encerradas e ele não poderá entrar até ser habilitado novamente.`
        : `Habilitar <b>${escapeHtml(user.name)}</b>? Ele poderá entrar novamente com a própria senha.`,
      actions: [
        { label: 'Cancelar' },
        {
          label: disabling ? 'Desabilitar' : 'Habilitar',
          color: disabling ? 'red' : undefined,
          onClick: () => toggle.mutate(user),
        },
      ],
    });
  };

  return (
    <ListPage
      title="Usuários"
      description={`Usuários da unidade ${me?.federativeUnit ?? ''}`}
      action={
        <Button component={Link} to="/create-users" leftSection={<IconUserPlus size={16} />}>
          Novo usuário
        </Button>
      }
      search={{ label: 'Buscar usuários', placeholder: 'Buscar por nome, e-mail ou CPF' }}
      query={list}
      loadingLabel="Carregando usuários"
      empty={
        debouncedSearch
          ? 'Nenhum usuário encontrado para a busca.'
          : 'Nenhum usuário cadastrado na unidade.'
      }
      paging={paging}
      noun={['usuário', 'usuários']}
      columns={['Nome', 'E-mail', 'CPF', 'Perfil', 'Situação', ACTIONS_COLUMN]}
      minWidth={760}
      row={(user) => (
        <>
          <Table.Td>{user.name}</Table.Td>
          <Table.Td>{user.email}</Table.Td>
          <Table.Td>{maskCpf(user.cpf)}</Table.Td>
          <Table.Td>{ROLE_LABELS[user.roleDescription]}</Table.Td>
          <Table.Td>
            <Group gap={6}>
              <StateBadge
                active={user.registerStatus === 'enabled'}
                labels={['Habilitado', 'Desabilitado']}
              />
              {!user.hasPassword && (
                <Badge color="yellow" variant="light">
                  Senha pendente
                </Badge>
              )}
            </Group>
          </Table.Td>
          <Table.Td>
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                component={Link}
                to={`/demo-biometry/${user.cpf}`}
              >
                Biometria
              </Button>
              {user.email !== me?.email && user.hasSecondFactor && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => confirmReset(user)}
                  loading={reset.isPending && reset.variables?.id === user.id}
                >
                  Redefinir 2º fator
                </Button>
              )}
              {user.email !== me?.email && (
                <Button
                  size="xs"
                  variant="light"
                  color={user.registerStatus === 'enabled' ? 'red' : 'teal'}
                  onClick={() => confirmToggle(user)}
                  loading={toggle.isPending && toggle.variables?.id === user.id}
                >
                  {user.registerStatus === 'enabled' ? 'Desabilitar' : 'Habilitar'}
                </Button>
              )}
            </Group>
          </Table.Td>
        </>
      )}
    />
  );
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
