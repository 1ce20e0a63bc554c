/**
 * `/demo-finished/` (admin-guarded), step 4 of the demonstration: the demo
 * candidates (name, masked CPF, consent, enrolment, last verification);
 * `?cpf=` preselects one. "Verificar rosto" opens the facial-validation
 * capture (the guided take of a challenge) and sends it to
 * `POST api/Demo/candidates/:cpf/verify`; the result panel shows what the
 * verification found. "Limpar dados de demonstração" asks first, then
 * `DELETE api/Demo/data`. Another unit's ADMIN sees the server's 403.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Radio,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconScan, IconTrash } from '@tabler/icons-react';
import { maskCpf, stripCpf, type DemoCandidate } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAlert } from '../../../components/alert-modal/alert-modal';
import { BackHome } from '../../../components/back-home';
import { DemoSteps } from './demo-steps';
import { FacialValidationModal } from '../../../components/face/facial-validation-modal';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import type { Capture } from '../../../lib/face-capture';
import {
  demoCandidatesQuery,
  demoKeys,
  requestFaceChallenge,
  verifyDemoFace,
  wipeDemoData,
  type DemoVerification,
} from '../api/demo';
import { DemoError } from './demo-error';
import { DemoVerificationResult } from './demo-verification-result';

const formatDateTime = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

function consentLabel(candidate: DemoCandidate) {
  if (!candidate.consent) return { label: 'Pendente', color: 'gray' };
  return candidate.consent.current
    ? { label: 'Registrado', color: 'teal' }
    : { label: 'Desatualizado', color: 'orange' };
}

function CandidatesTable({
  candidates,
  selected,
  onSelect,
}: {
  candidates: DemoCandidate[];
  selected: string;
  onSelect: (cpf: string) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover data-testid="demo-candidates">
        <Table.Caption>Candidatos de demonstração da unidade</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>Selecionar</VisuallyHidden>
            </Table.Th>
            <Table.Th>Nome</Table.Th>
            <Table.Th>CPF</Table.Th>
            <Table.Th>Consentimento</Table.Th>
            <Table.Th>Rosto</Table.Th>
            <Table.Th>Última verificação</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {candidates.map((candidate) => {
            const cpf = stripCpf(candidate.cpf);
            const consent = consentLabel(candidate);
            const last = candidate.lastVerification;
            return (
              <Table.Tr
                key={candidate.id}
                bg={cpf === selected ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  <Radio
                    name="demo-candidate"
                    value={cpf}
                    checked={cpf === selected}
                    onChange={() => onSelect(cpf)}
                    aria-label={`Selecionar ${candidate.name}`}
                  />
                </Table.Td>
                <Table.Td>{candidate.name}</Table.Td>
                <Table.Td>{maskCpf(candidate.cpf)}</Table.Td>
                <Table.Td>
                  <Badge color={consent.color} variant="light">
                    {consent.label}
                  </Badge>
                </Table.Td>
                <Table.Td>{candidate.enrolled ? 'Cadastrado' : 'Não cadastrado'}</Table.Td>
                <Table.Td>
                  {last
                    ? `${last.verified ? 'Verificado' : 'Não verificado'} em ${formatDateTime(last.at)}`
                    : 'Nenhuma'}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SelectedCandidate({
  candidate,
  result,
  verifying,
  error,
  onVerify,
}: {
  candidate: DemoCandidate;
  result: DemoVerification | null;
  verifying: boolean;
  error: Error | null;
  onVerify: () => void;
}) {
  const cpf = stripCpf(candidate.cpf);
  const consented = candidate.consent?.current === true;
  const ready = consented && candidate.enrolled;
  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={3} size="h4">
                {candidate.name}
              </Title>
              <Text size="sm" c="dimmed">
                CPF {maskCpf(candidate.cpf)}
              </Text>
            </div>
            <Button
              leftSection={<IconScan size={18} aria-hidden />}
              onClick={onVerify}
              disabled={!ready}
              loading={verifying}
            >
              Verificar rosto
            </Button>
          </Group>
          {!consented && (
            <Text size="sm">
              Falta o consentimento atual do candidato.{' '}
              <Anchor underline="always" component={Link} to={`/demo-register2/?cpf=${cpf}`}>
                Registrar contato e consentimento
              </Anchor>
            </Text>
          )}
          {consented && !candidate.enrolled && (
            <Text size="sm">
              O rosto do candidato ainda não foi cadastrado.{' '}
              <Anchor underline="always" component={Link} to={`/demo-biometry/${cpf}`}>
                Fazer o cadastro facial
              </Anchor>
            </Text>
          )}
          {candidate.enrolled && (
            <Anchor underline="always" component={Link} to={`/demo-biometry/${cpf}`} size="sm">
              Ver ou refazer o cadastro facial
            </Anchor>
          )}
        </Stack>
      </Card>
      {error && <DemoError error={error} />}
      <div aria-live="polite">
        {result ? (
          <DemoVerificationResult result={result} />
        ) : (
          <Text size="sm" c="dimmed">
            Nenhuma verificação deste candidato ainda.
          </Text>
        )}
      </div>
    </Stack>
  );
}

export function DemoFinishedPage() {
  const [params, setParams] = useSearchParams();
  const selected = stripCpf(params.get('cpf') ?? '');
  const queryClient = useQueryClient();
  const { showAlert } = useAlert();
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const candidates = useQuery(demoCandidatesQuery());
  const [capturing, setCapturing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  /** The verification just made, shown until another candidate is chosen. */
  const [latest, setLatest] = useState<{ cpf: string; result: DemoVerification } | null>(null);

  const verify = useMutation({
    mutationFn: ({ cpf, capture }: { cpf: string; capture: Capture }) =>
      verifyDemoFace({ cpf, capture, uf: unit, local }),
    onSuccess: async (result, { cpf }) => {
      setCapturing(false);
      setLatest({ cpf, result });
      await queryClient.invalidateQueries({ queryKey: demoKeys.all });
    },
  });
  const select = (cpf: string) => {
    setParams(cpf ? { cpf } : {}, { replace: true });
    verify.reset();
  };

  // The modal's spinner lasts until the verification settles; a refused take stays in it.
  const confirmCapture = async (capture: Capture) => {
    if (!selected) return;
    await verify.mutateAsync({ cpf: selected, capture });
  };

  const wipe = useMutation({
    mutationFn: wipeDemoData,
    onSuccess: async (counts) => {
      setLatest(null);
      setParams({}, { replace: true });
      toast.success(
        `Foram apagados ${counts.candidates} candidato(s) e ${counts.enrolments} cadastro(s) facial(is).`,
        'Dados de demonstração apagados',
      );
      await queryClient.invalidateQueries({ queryKey: demoKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });

  const askWipe = () =>
    showAlert({
      icon: 'warning',
      title: 'Limpar dados de demonstração',
      message:
        'Apaga todos os candidatos de demonstração, os consentimentos, os cadastros faciais e as verificações da unidade DEMO. Não é possível desfazer.',
      actions: [
        { label: 'Cancelar' },
        { label: 'Limpar dados', color: 'red', onClick: () => wipe.mutate() },
      ],
    });

  return (
    <Stack gap="md" p="md" maw={1100} mx="auto">
      <BackHome />
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Demonstração concluída</Title>
          <Text c="dimmed" size="sm">
            Verifique uma segunda captura do rosto do candidato contra o cadastro e veja o que a
            verificação encontrou.
          </Text>
        </div>
        {candidates.isSuccess && (
          <Group gap="sm">
            <Button
              component={Link}
              to="/demo-register/"
              variant="default"
              leftSection={<IconPlus size={18} aria-hidden />}
            >
              Novo candidato
            </Button>
            <Button
              color="red"
              variant="outline"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={askWipe}
              loading={wipe.isPending}
              disabled={candidates.data.length === 0}
            >
              Limpar dados de demonstração
            </Button>
          </Group>
        )}
      </Group>
      <DemoSteps active={4} />
      {candidates.isError && !candidates.data ? (
        <DemoError error={candidates.error} />
      ) : (
        <QueryContent
          query={candidates}
          loadingLabel="Carregando os candidatos de demonstração"
          isEmpty={(list) => list.length === 0}
          empty={
            <>
              Nenhum candidato de demonstração.{' '}
              <Anchor underline="always" component={Link} to="/demo-register/">
                Cadastrar um candidato
              </Anchor>
            </>
          }
        >
          {(list) => {
            const current = list.find((candidate) => stripCpf(candidate.cpf) === selected);
            return (
              <Stack gap="md">
                <CandidatesTable candidates={list} selected={selected} onSelect={select} />
                {selected && !current && (
                  <Alert color="yellow" title="Candidato não encontrado">
                    Nenhum candidato de demonstração com este CPF. Escolha um na lista.
                  </Alert>
                )}
                {!selected && (
                  <Text size="sm" c="dimmed">
                    Escolha um candidato na lista para verificar o rosto.
                  </Text>
                )}
                {current && (
                  <SelectedCandidate
                    candidate={current}
                    result={latest?.cpf === selected ? latest.result : current.lastVerification}
                    verifying={verify.isPending}
                    error={verify.error}
                    onVerify={() => {
                      verify.reset();
                      setAttempt((value) => value + 1);
                      setCapturing(true);
                    }}
                  />
                )}
              </Stack>
            );
          }}
        </QueryContent>
      )}
      <FacialValidationModal
        key={attempt}
        opened={capturing}
        title="Verificação facial do candidato"
        onClose={() => setCapturing(false)}
        onConfirm={confirmCapture}
        requestChallenge={() => requestFaceChallenge({ purpose: 'verification', cpf: selected })}
      />
    </Stack>
  );
}
