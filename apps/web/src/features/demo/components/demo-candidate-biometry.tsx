/**
 * `/demo-biometry/:cpf` for a demonstration candidate (step 3 of the
 * demonstration): the consent state (with the way to step 2 when it is
 * missing or outdated), the face enrolment with a live take from the camera
 * (the guided capture of a challenge) through
 * `POST api/Demo/candidates/:cpf/enrol` and, once enrolled, "Continuar" to
 * the verification (`/demo-finished/?cpf=`).
 */
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconFaceId } from '@tabler/icons-react';
import { BIOMETRIC_CONSENT_VERSION, maskCpf, type DemoCandidate } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { BackHome } from '../../../components/back-home';
import { DemoSteps } from './demo-steps';
import { PersonHeading } from './person-heading';
import { FacialValidationModal } from '../../../components/face/facial-validation-modal';
import { QueryContent } from '../../../components/query-content';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { demoCandidateQuery, demoKeys, enrolDemoFace } from '../api/demo-candidates';
import type { Capture } from '../../../lib/face-capture';
import { requestFaceChallenge } from '../api/biometrics';

const formatDateTime = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

function ConsentState({ candidate, cpf }: { candidate: DemoCandidate; cpf: string }) {
  const consent = candidate.consent;
  if (consent?.current) {
    return (
      <Badge color="teal" variant="light">
        Consentimento registrado em {formatDateTime(consent.at)} (versão {consent.version})
      </Badge>
    );
  }
  return (
    <Alert
      color="orange"
      title={consent ? 'Consentimento desatualizado' : 'Sem consentimento'}
      data-testid="consent-missing"
    >
      <Stack gap="xs">
        <Text size="sm">
          {consent
            ? `O candidato aceitou a versão ${consent.version} do texto; a atual é ${BIOMETRIC_CONSENT_VERSION}. Mostre o texto atual e registre de novo antes do cadastro facial.`
            : 'O cadastro facial só pode ser feito depois do consentimento explícito do candidato para o tratamento dos dados biométricos (LGPD, art. 11).'}
        </Text>
        <Anchor underline="always" component={Link} to={`/demo-register2/?cpf=${cpf}`} size="sm">
          Registrar contato e consentimento
        </Anchor>
      </Stack>
    </Alert>
  );
}

export function DemoCandidateBiometry({ cpf }: { cpf: string }) {
  const queryClient = useQueryClient();
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const candidate = useQuery(demoCandidateQuery(cpf));
  const [enrolling, setEnrolling] = useState(false);
  const [attempt, setAttempt] = useState(0);

  const enrol = useMutation({
    mutationFn: (capture: Capture) => enrolDemoFace({ cpf, capture, uf: unit, local }),
    onSuccess: async () => {
      setEnrolling(false);
      toast.success('O rosto do candidato foi cadastrado.', 'Cadastro facial');
      await queryClient.invalidateQueries({ queryKey: demoKeys.all });
    },
  });
  // The modal's spinner lasts until the enrolment settles; a refusal (what to change) stays in it.
  const enrolCapture = async (capture: Capture) => {
    await enrol.mutateAsync(capture);
  };

  return (
    <Stack gap="md" p="md" maw={960} mx="auto">
      <BackHome to="/demo-finished/" label="Voltar aos candidatos de demonstração" />
      <div>
        <Title order={2}>Biometria facial — demonstração</Title>
        <Text c="dimmed" size="sm">
          Cadastre o rosto do candidato com a câmera; depois, verifique uma segunda captura.
        </Text>
      </div>
      <DemoSteps active={3} />
      <QueryContent
        query={candidate}
        loadingLabel="Carregando o candidato"
        isEmpty={() => false}
        empty={null}
      >
        {(data) => {
          const consented = data.consent?.current === true;
          return (
            <Stack gap="md">
              <Card withBorder radius="md" padding="lg">
                <PersonHeading
                  name={data.name}
                  detail={`CPF ${maskCpf(data.cpf)} · Candidato de demonstração`}
                  badge={
                    <Badge color={data.enrolled ? 'teal' : 'gray'} variant="light">
                      {data.enrolled ? 'Rosto cadastrado' : 'Sem cadastro facial'}
                    </Badge>
                  }
                />
              </Card>
              <ConsentState candidate={data} cpf={cpf} />
              <Group>
                <Button
                  leftSection={<IconFaceId size={18} aria-hidden />}
                  variant={data.enrolled ? 'light' : 'filled'}
                  onClick={() => {
                    setAttempt((value) => value + 1);
                    setEnrolling(true);
                  }}
                  disabled={!consented}
                >
                  {data.enrolled ? 'Refazer cadastro facial' : 'Cadastrar rosto'}
                </Button>
                {data.enrolled && (
                  <Button
                    component={Link}
                    to={`/demo-finished/?cpf=${cpf}`}
                    rightSection={<IconArrowRight size={18} aria-hidden />}
                  >
                    Continuar
                  </Button>
                )}
              </Group>
            </Stack>
          );
        }}
      </QueryContent>
      <FacialValidationModal
        key={attempt}
        opened={enrolling}
        title="Cadastro facial do candidato"
        onClose={() => setEnrolling(false)}
        onConfirm={enrolCapture}
        requestChallenge={() => requestFaceChallenge({ purpose: 'enrolment', cpf })}
        failureTitle="Falha no cadastro"
      />
    </Stack>
  );
}
