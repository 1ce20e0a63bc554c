/**
 * `seguranca` (every role): the account's verification in two steps. Its
 * factors (authenticator apps and passkeys), adding one, removing one after
 * a confirmation, and the recovery codes (how many are left, a new set shown
 * once). Removing a factor and a new set are sensitive: the server may ask
 * for the password again first (the re-authentication dialog).
 */
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceMobile, IconFingerprint } from '@tabler/icons-react';
import {
  SECOND_FACTOR_LABELS,
  type SecondFactor,
  type SecondFactorKind,
  type SecondFactorStatus,
} from '@exame/shared';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { CardEntry, CardGrid, ListCard } from '../../../components/list-card';
import { ListPageHeader } from '../../../components/list-page';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { removeSecondFactor, secondFactorsQuery } from '../api/second-factor';
import { identityErrorText } from '../identity-errors';
import { AddFactorModal } from './add-factor-modal';
import { RecoveryCodesSection } from './recovery-codes-section';

const plain = (text: string) => text.replace(/[<>&"']/g, '');
const when = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

export function SecurityPage() {
  const status = useQuery(secondFactorsQuery);
  const [adding, setAdding] = useState<{ kind: SecondFactorKind; attempt: number; open: boolean }>({
    kind: 'totp',
    attempt: 0,
    open: false,
  });
  const [passkeys] = useState(browserSupportsWebAuthn);
  const add = (kind: SecondFactorKind) =>
    setAdding((previous) => ({ kind, attempt: previous.attempt + 1, open: true }));

  return (
    <Stack gap="md">
      <ListPageHeader
        title="Segurança da conta"
        description="Verificação em duas etapas: além da senha, um código do aplicativo autenticador ou uma chave de acesso."
      />
      <QueryContent
        query={status}
        loadingLabel="Carregando a segurança da conta"
        isEmpty={() => false}
        empty={null}
      >
        {(data) => (
          <>
            <FactorsSection status={data} passkeys={passkeys} onAdd={add} />
            <RecoveryCodesSection
              left={data.recoveryCodesLeft}
              hasFactor={data.factors.length > 0}
            />
          </>
        )}
      </QueryContent>
      <AddFactorModal
        opened={adding.open}
        kind={adding.kind}
        attempt={adding.attempt}
        onClose={() => setAdding((previous) => ({ ...previous, open: false }))}
      />
    </Stack>
  );
}

function FactorsSection({
  status,
  passkeys,
  onAdd,
}: {
  status: SecondFactorStatus;
  passkeys: boolean;
  onAdd: (kind: SecondFactorKind) => void;
}) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="factors-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4" id="factors-title">
            Verificação em duas etapas
          </Title>
          {status.required ? (
            <Badge color="orange" variant="light">
              Obrigatória para o seu perfil
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              Opcional para o seu perfil
            </Badge>
          )}
        </Group>
        {status.factors.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nenhum segundo fator cadastrado: hoje a sua conta entra só com a senha.
          </Text>
        ) : (
          <FactorCards factors={status.factors} />
        )}
        <Group gap="xs">
          <Button leftSection={<IconDeviceMobile size={16} />} onClick={() => onAdd('totp')}>
            Adicionar aplicativo autenticador
          </Button>
          <Button
            variant="light"
            leftSection={<IconFingerprint size={16} />}
            onClick={() => onAdd('passkey')}
            disabled={!passkeys}
            aria-describedby={passkeys ? undefined : 'passkeys-unsupported'}
          >
            Adicionar chave de acesso
          </Button>
        </Group>
        {!passkeys && (
          <Text size="xs" c="dimmed" id="passkeys-unsupported">
            Este navegador não oferece chaves de acesso (passkeys). Use um navegador atualizado ou o
            aplicativo autenticador.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function FactorCards({ factors }: { factors: readonly SecondFactor[] }) {
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const remove = useMutation({
    mutationFn: (factor: SecondFactor) => removeSecondFactor(factor.id),
    onSuccess: async (_nothing, factor) => {
      toast.success(`"${factor.label}" removido.`);
      await queryClient.invalidateQueries({ queryKey: secondFactorsQuery.queryKey });
    },
    onError: (error) => toast.error(identityErrorText(error)),
  });
  const confirmRemove = (factor: SecondFactor) =>
    showAlert({
      icon: 'warning',
      title: 'Remover segundo fator',
      message: `Remover <b>${plain(factor.label)}</b> (${SECOND_FACTOR_LABELS[factor.kind]})? Ele deixa de servir para entrar na sua conta.`,
      actions: [
        { label: 'Cancelar' },
        { label: 'Remover', color: 'red', onClick: () => remove.mutate(factor) },
      ],
    });

  return (
    <CardGrid label="Segundos fatores" data-testid="second-factors">
      {factors.map((factor) => (
        <ListCard key={factor.id} p="sm" radius="md">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {factor.label}
              </Text>
              <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
                {SECOND_FACTOR_LABELS[factor.kind]}
              </Badge>
            </Group>
            <Group component="dl" gap="lg" m={0}>
              <CardEntry label="Cadastrado em">{when(factor.createdAt)}</CardEntry>
              <CardEntry label="Último uso">
                {factor.lastUsedAt ? when(factor.lastUsedAt) : 'Nunca'}
              </CardEntry>
            </Group>
            <Group justify="flex-end">
              <Button
                size="xs"
                variant="light"
                color="red"
                aria-label={`Remover ${factor.label}`}
                loading={remove.isPending && remove.variables?.id === factor.id}
                onClick={() => confirmRemove(factor)}
              >
                Remover
              </Button>
            </Group>
          </Stack>
        </ListCard>
      ))}
    </CardGrid>
  );
}
