/** `integracao` (ADMIN): API keys of the exam-delivery system; a new key is shown once. */
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { createApiKeySchema, type ApiKey } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type FormEvent } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { QueryContent } from '../../../components/query-content';
import { AppModal } from '../../../components/app-modal';
import { toast } from '../../../components/toast';
import { apiKeyQuery, createApiKey, revokeApiKey } from '../api/keys';
import { textField, validateForm } from '../../../lib/forms';
import { StateBadge } from '../../../components/state-badge';

export function IntegrationKeysPage() {
  const keys = useQuery(apiKeyQuery);
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeyQuery.queryKey });
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: async (result) => {
      setCreated(result.key);
      setName('');
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => revokeApiKey(key.id),
    onSuccess: async (key) => {
      toast.success(`A chave "${key.name}" foi revogada.`);
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The same schema as the server's, so the same text.
    const checked = validateForm(createApiKeySchema, { name });
    setNameError(checked.errors?.name ?? null);
    if (checked.data) create.mutate(checked.data.name);
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Integração com o sistema de provas</Title>
        <Text c="dimmed" size="sm">
          O sistema que aplica as provas envia exames, ocorrências e fotos com uma chave da unidade
          no cabeçalho <Code>x-api-key</Code>.
        </Text>
      </div>
      <Paper withBorder p="md" radius="md">
        <form onSubmit={submit} noValidate>
          <Group align="flex-end">
            <TextInput
              label="Nome da nova chave"
              placeholder="Ex.: sistema de provas — produção"
              {...textField(name, setName)}
              error={nameError}
              w={360}
            />
            <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
              Criar chave
            </Button>
          </Group>
        </form>
      </Paper>
      <Paper withBorder radius="md">
        <QueryContent
          query={keys}
          loadingLabel="Carregando chaves"
          isEmpty={(items) => items.length === 0}
          empty={'Nenhuma chave criada.'}
        >
          {(items) => (
            <Table verticalSpacing="sm" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nome</Table.Th>
                  <Table.Th>Início da chave</Table.Th>
                  <Table.Th>Criada em</Table.Th>
                  <Table.Th>Último uso</Table.Th>
                  <Table.Th>Situação</Table.Th>
                  <Table.Th aria-label="Ações" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((key) => (
                  <Table.Tr key={key.id}>
                    <Table.Td>{key.name}</Table.Td>
                    <Table.Td ff="monospace">{key.prefix}…</Table.Td>
                    <Table.Td>{dayjs(key.createdAt).format('DD/MM/YYYY HH:mm')}</Table.Td>
                    <Table.Td>
                      {key.lastUsedAt ? dayjs(key.lastUsedAt).format('DD/MM/YYYY HH:mm') : 'Nunca'}
                    </Table.Td>
                    <Table.Td>
                      <StateBadge active={!key.revokedAt} labels={['Ativa', 'Revogada']} />
                    </Table.Td>
                    <Table.Td>
                      {!key.revokedAt && (
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          onClick={() =>
                            showAlert({
                              icon: 'warning',
                              title: 'Revogar chave',
                              message: `Revogar a chave <b>${key.name.replace(/[<>&"']/g, '')}</b>? O sistema que a usa deixa de conseguir enviar dados imediatamente.`,
                              actions: [
                                { label: 'Cancelar' },
                                {
                                  label: 'Revogar',
                                  color: 'red',
                                  onClick: () => revoke.mutate(key),
                                },
                              ],
                            })
                          }
                        >
                          Revogar
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </QueryContent>
      </Paper>
      <AppModal
        opened={created !== null}
        onClose={() => setCreated(null)}
        title="Chave criada"
        width="560px"
      >
        <Stack>
          <Alert color="yellow" title="Copie a chave agora">
            Por segurança ela não será mostrada de novo. Guarde-a no cofre de segredos do sistema de
            provas.
          </Alert>
          <Code block data-testid="new-api-key">
            {created}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={created ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copiada' : 'Copiar'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setCreated(null)}>Concluir</Button>
          </Group>
        </Stack>
      </AppModal>
    </Stack>
  );
}
