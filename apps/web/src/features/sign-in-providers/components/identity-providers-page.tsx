/**
 * `provedores-de-identidade` (ADMIN): the unit's OpenID Connect providers,
 * offered on the sign-in screen beside the password. Each card shows the
 * return address to register at the provider; a provider is added or changed
 * in a form (its configuration is read before it is saved) and removed after
 * a confirmation (its people then sign in with their password).
 */
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { IdentityProvider, IdentityProviderInput } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { AppModal } from '../../../components/app-modal';
import { CardEntry, CardGrid, ListCard } from '../../../components/list-card';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { StateBadge } from '../../../components/state-badge';
import { toast } from '../../../components/toast';
import {
  createIdentityProvider,
  identityProvidersQuery,
  removeIdentityProvider,
  updateIdentityProvider,
} from '../api/providers';
import { IdentityProviderForm } from './identity-provider-form';

const plain = (text: string) => text.replace(/[<>&"']/g, '');

export function IdentityProvidersPage() {
  const providers = useQuery(identityProvidersQuery);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const [editing, setEditing] = useState<IdentityProvider | 'new' | null>(null);
  // The title stays as it was while the modal fades out.
  const [creating, setCreating] = useState(true);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: identityProvidersQuery.queryKey });

  const save = useMutation({
    mutationFn: (input: IdentityProviderInput) =>
      editing === 'new' || editing === null
        ? createIdentityProvider(input)
        : updateIdentityProvider(editing.id, input),
    onSuccess: async (provider) => {
      toast.success(`Provedor "${provider.name}" salvo.`);
      setEditing(null);
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: (provider: IdentityProvider) => removeIdentityProvider(provider.id),
    onSuccess: async (_nothing, provider) => {
      toast.success(`Provedor "${provider.name}" removido.`);
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const confirmRemove = (provider: IdentityProvider) =>
    showAlert({
      icon: 'warning',
      title: 'Remover provedor',
      message: `Remover <b>${plain(provider.name)}</b>? O botão sai da tela de entrada e os vínculos das contas são apagados: essas pessoas passam a entrar com e-mail e senha.`,
      actions: [
        { label: 'Cancelar' },
        { label: 'Remover', color: 'red', onClick: () => remove.mutate(provider) },
      ],
    });
  const open = (target: IdentityProvider | 'new') => {
    save.reset();
    setCreating(target === 'new');
    setEditing(target);
  };

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Provedores de identidade"
        description="Entrada com o gov.br ou com o diretório do estado (OpenID Connect)."
        action={
          <Button leftSection={<IconPlus size={16} />} onClick={() => open('new')}>
            Novo provedor
          </Button>
        }
      />
      <Text size="sm">
        A pessoa precisa já estar cadastrada na unidade: a conta é ligada pelo CPF ou pelo e-mail
        verificado, e o perfil continua sendo o daqui.
      </Text>
      <QueryContent
        query={providers}
        loadingLabel="Carregando provedores"
        isEmpty={(items) => items.length === 0}
        empty="Nenhum provedor cadastrado: todos entram com e-mail e senha."
      >
        {(items) => (
          <CardGrid label="Provedores de identidade" data-testid="identity-providers">
            {items.map((provider) => (
              <ListCard key={provider.id} p="md" radius="md">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600}>{provider.name}</Text>
                    <StateBadge active={provider.enabled} labels={['Oferecido', 'Desligado']} />
                  </Group>
                  <Stack component="dl" gap={6} m={0}>
                    <CardEntry label="Emissor">
                      <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {provider.issuer}
                      </Text>
                    </CardEntry>
                    <CardEntry label="Client id">{provider.clientId}</CardEntry>
                    <CardEntry label="Domínios autorizados">
                      {provider.allowedDomains.length > 0
                        ? provider.allowedDomains.join(', ')
                        : 'Qualquer e-mail'}
                    </CardEntry>
                    <CardEntry label="CPF vem do atributo">
                      {provider.cpfClaim ?? 'Nenhum (liga pelo e-mail verificado)'}
                    </CardEntry>
                    <CardEntry label="Endereço de retorno (cadastre no provedor)">
                      <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                        {provider.redirectUri}
                      </Code>
                    </CardEntry>
                  </Stack>
                  <Group gap="xs" justify="flex-end">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Editar ${provider.name}`}
                      onClick={() => open(provider)}
                    >
                      Editar
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={`Remover ${provider.name}`}
                      onClick={() => confirmRemove(provider)}
                    >
                      Remover
                    </Button>
                  </Group>
                </Stack>
              </ListCard>
            ))}
          </CardGrid>
        )}
      </QueryContent>
      <AppModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={creating ? 'Novo provedor de identidade' : 'Alterar provedor de identidade'}
        width="560px"
      >
        {editing !== null && (
          <Stack gap="sm">
            {editing === 'new' && (
              <Alert color="blue">
                Ao salvar, a configuração do provedor é lida no emissor: ele precisa estar no ar.
              </Alert>
            )}
            <IdentityProviderForm
              provider={editing === 'new' ? null : editing}
              saving={save.isPending}
              onSubmit={(input) => save.mutate(input)}
              onCancel={() => setEditing(null)}
            />
          </Stack>
        )}
      </AppModal>
    </Stack>
  );
}
