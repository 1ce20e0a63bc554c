/**
 * `/demo-biometry/:cpf` (admin-guarded): shows a user's face enrolment, lets
 * the ADMIN enrol the face with a live take from the camera (the guided
 * capture of a challenge: no photo upload), and runs the facial
 * validation exactly as the check-in screens do. In the DEMO unit, the CPF of a
 * demonstration candidate (`GET api/Demo/candidates/:cpf` answers) is step 3
 * of the demonstration instead: see DemoCandidateBiometry.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconFaceId, IconScan } from '@tabler/icons-react';
import { DEMO_UNIT, formatCpf, maskCpf, ROLE_LABELS, type User } from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useParams } from 'react-router';
import { BackHome } from '../../../components/back-home';
import { toast } from '../../../components/toast';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import { FacialValidationModal } from '../../../components/face/facial-validation-modal';
import { useFacialValidation } from '../../../components/face/use-facial-validation';
import type { Capture } from '../../../lib/face-capture';
import { demoCandidateQuery } from '../api/demo-candidates';
import { enrolFace, enrolmentQuery, requestFaceChallenge, verifyFace } from '../api/biometrics';
import { DemoCandidateBiometry } from './demo-candidate-biometry';
import { PersonHeading } from './person-heading';
import { LoadingSpinner } from '../../../components/loading-spinner';

export function DemoBiometryPage() {
  const { cpf = '' } = useParams();
  const digits = cpf.replace(/\D/g, '');
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  // Only the DEMO unit has demonstration candidates: elsewhere the CPF is a user's.
  const demoUnit = unit === DEMO_UNIT;
  const candidate = useQuery({ ...demoCandidateQuery(digits), enabled: demoUnit });
  if (demoUnit && candidate.isPending) {
    return (
      <Center p="xl">
        <LoadingSpinner label="Carregando" />
      </Center>
    );
  }
  if (demoUnit && candidate.isSuccess) return <DemoCandidateBiometry cpf={digits} />;
  if (demoUnit && candidate.isError && !isNotCandidate(candidate.error)) {
    return (
      <Stack gap="md" p="md" maw={960} mx="auto">
        <BackHome />
        <Title order={2}>Biometria facial — demonstração</Title>
        <Alert color="red" title="Erro">
          {candidate.error.message}
        </Alert>
        <Group>
          <Button variant="default" onClick={() => void candidate.refetch()}>
            Tentar novamente
          </Button>
        </Group>
      </Stack>
    );
  }
  return <UserBiometry digits={digits} />;
}

/** A CPF that is no demonstration candidate's (or a unit without them): a user's. */
function isNotCandidate(error: Error): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 403);
}

/** The biometry of a user of the unit: enrolment and validation as in the rooms. */
function UserBiometry({ digits }: { digits: string }) {
  const unit = useAppState((state) => state.user?.federativeUnit ?? '');
  const local = useAppState((state) => state.schedulingLocal);
  const queryClient = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  const [enrolAttempt, setEnrolAttempt] = useState(0);
  const person = useQuery({
    queryKey: ['users', 'cpf', digits],
    queryFn: ({ signal }) => api.get<User>(`api/User/cpf/${digits}`, { signal }),
    retry: false,
  });
  const enrolment = useQuery(enrolmentQuery(digits));
  const validation = useFacialValidation({
    requestChallenge: (target) => requestFaceChallenge({ purpose: 'verification', cpf: target }),
    verify: (target, capture, context) =>
      verifyFace({ cpf: target, capture, uf: context.unit, local: context.local }),
  });

  const enrol = useMutation({
    mutationFn: (capture: Capture) => enrolFace({ cpf: digits, capture, uf: unit, local }),
    onSuccess: async () => {
      setEnrolling(false);
      toast.success('O rosto foi cadastrado.', 'Cadastro facial');
      await queryClient.invalidateQueries({ queryKey: enrolmentQuery(digits).queryKey });
    },
  });
  // The modal's spinner lasts until the enrolment settles; a refusal (what to change) stays in it.
  const enrolCapture = async (capture: Capture) => {
    await enrol.mutateAsync(capture);
  };

  const notEnrolled =
    enrolment.error instanceof ApiError && enrolment.error.code === 'BIOMETRIC_NOT_ENROLLED';

  return (
    <Stack gap="md" p="md" maw={960} mx="auto">
      <BackHome to="/list-users" label="Voltar aos usuários" />
      <div>
        <Title order={2}>Biometria facial — demonstração</Title>
        <Text c="dimmed" size="sm">
          Cadastre o rosto e faça a validação facial como nas salas de prova.
        </Text>
      </div>
      <Card withBorder radius="md" padding="lg">
        {person.isPending ? (
          <Center>
            <LoadingSpinner label="Carregando usuário" />
          </Center>
        ) : person.isError ? (
          <Alert color="red" title="Erro">
            {person.error.message}
          </Alert>
        ) : (
          <PersonHeading
            name={person.data.name}
            detail={`CPF ${maskCpf(person.data.cpf)} · ${ROLE_LABELS[person.data.roleDescription]} · ${person.data.federativeUnit}`}
            badge={
              enrolment.data ? (
                <Badge color="teal" variant="light">
                  Rosto cadastrado em {dayjs(enrolment.data.enrolledAt).format('DD/MM/YYYY HH:mm')}
                </Badge>
              ) : notEnrolled ? (
                <Badge color="gray" variant="light">
                  Sem cadastro facial
                </Badge>
              ) : null
            }
          />
        )}
      </Card>
      {enrolment.data && enrolment.data.captures.length > 0 && (
        <Card withBorder radius="md" padding="lg">
          <Text fw={600} mb="sm">
            Fotos do cadastro
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {enrolment.data.captures.map((capture, index) => (
              <Image
                key={capture.url}
                src={capture.url}
                radius="sm"
                alt={`Foto ${index + 1} do cadastro facial`}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="xs">
            Cada visualização destas fotos fica registrada.
          </Text>
        </Card>
      )}
      <Group>
        <Button
          leftSection={<IconFaceId size={18} />}
          variant="light"
          onClick={() => {
            setEnrolAttempt((value) => value + 1);
            setEnrolling(true);
          }}
          disabled={!person.data}
        >
          {enrolment.data ? 'Refazer cadastro facial' : 'Cadastrar rosto'}
        </Button>
        <Button
          leftSection={<IconScan size={18} />}
          onClick={() => validation.start(digits)}
          disabled={!person.data}
        >
          Validar rosto
        </Button>
      </Group>
      {!person.data && !person.isPending && (
        <Text size="sm" c="dimmed">
          CPF {formatCpf(digits)} não encontrado na sua unidade.
        </Text>
      )}
      <FacialValidationModal
        key={`enrol-${enrolAttempt}`}
        opened={enrolling}
        title="Cadastro facial"
        onClose={() => setEnrolling(false)}
        onConfirm={enrolCapture}
        requestChallenge={() => requestFaceChallenge({ purpose: 'enrolment', cpf: digits })}
        failureTitle="Falha no cadastro"
      />
      {validation.modal}
    </Stack>
  );
}
