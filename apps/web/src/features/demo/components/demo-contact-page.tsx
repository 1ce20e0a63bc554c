/**
 * `/demo-register2/?cpf=` (admin-guarded), step 2 of the demonstration: the
 * candidate's e-mail and phone (with DDD) and the explicit consent to the
 * processing of biometric data (LGPD art. 11): the whole text is shown with
 * its version, and the box starts unchecked, to be checked by the candidate.
 * `PUT api/Demo/candidates/:cpf/contact` records them with the version shown.
 */
import {
  Alert,
  Badge,
  Card,
  Center,
  Checkbox,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import {
  BIOMETRIC_CONSENT_TEXT,
  BIOMETRIC_CONSENT_VERSION,
  demoContactInputSchema,
  formatCpf,
  maskCpf,
  type DemoContactInput,
} from '@exame/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BackHome } from '../../../components/back-home';
import { DemoNextButton, DemoSteps } from './demo-steps';
import { toast } from '../../../components/toast';
import { submitValid, textField, validateForm, type FieldErrors } from '../../../lib/forms';
import { demoCandidateQuery, demoKeys, saveDemoContact, type DemoCandidate } from '../api/demo';
import { BackToStepOne, DemoError } from './demo-error';
import { formatPhone } from './masks';
import { PersonHeading } from './person-heading';
import { LoadingSpinner } from '../../../components/loading-spinner';

type Errors = FieldErrors<DemoContactInput>;

export function DemoContactPage() {
  const [params] = useSearchParams();
  const cpf = (params.get('cpf') ?? '').replace(/\D/g, '');
  return (
    <Stack gap="md" p="md" maw={760} mx="auto">
      <BackHome to="/demo-register/" label="Voltar ao cadastro de demonstração" />
      <div>
        <Title order={2}>Contato e consentimento</Title>
        <Text c="dimmed" size="sm">
          Registre como falar com o candidato e peça a ele que leia e aceite o consentimento.
        </Text>
      </div>
      <DemoSteps active={2} />
      {cpf ? (
        <ContactStep cpf={cpf} />
      ) : (
        <Alert color="yellow" title="Nenhum candidato informado">
          <Stack gap="xs">
            <Text size="sm">
              Esta etapa vem depois do cadastro dos dados do candidato. Comece pela etapa 1.
            </Text>
            <BackToStepOne />
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function ContactStep({ cpf }: { cpf: string }) {
  const candidate = useQuery(demoCandidateQuery(cpf));
  if (candidate.isPending) {
    return (
      <Center p="xl">
        <LoadingSpinner label="Carregando o candidato" />
      </Center>
    );
  }
  if (candidate.isError) return <DemoError error={candidate.error} />;
  return <ContactForm cpf={cpf} candidate={candidate.data} />;
}

function ContactForm({ cpf, candidate }: { cpf: string; candidate: DemoCandidate }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(candidate.email ?? '');
  const [phone, setPhone] = useState(formatPhone(candidate.phone ?? ''));
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Errors>({});

  const save = useMutation({
    mutationFn: (input: DemoContactInput) => saveDemoContact(cpf, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: demoKeys.all });
      toast.success('Contato e consentimento registrados.', 'Consentimento');
      await navigate(`/demo-biometry/${cpf}`);
    },
  });

  const submit = submitValid(
    () =>
      validateForm(demoContactInputSchema, {
        email,
        phone,
        consent,
        consentVersion: BIOMETRIC_CONSENT_VERSION,
      }),
    setErrors,
    (data) => save.mutate(data),
  );

  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="md">
        <PersonHeading
          name={candidate.name}
          detail={`CPF ${maskCpf(candidate.cpf || formatCpf(cpf))}`}
          badge={
            candidate.consent && (
              <Badge color={candidate.consent.current ? 'teal' : 'orange'} variant="light">
                {candidate.consent.current
                  ? `Consentimento registrado em ${dayjs(candidate.consent.at).format('DD/MM/YYYY HH:mm')}`
                  : 'Consentimento de uma versão anterior'}
              </Badge>
            )
          }
        />
      </Card>
      {save.isError && <DemoError error={save.error} />}
      <form onSubmit={submit} noValidate aria-label="Contato e consentimento do candidato">
        <Stack gap="md">
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="off"
              {...textField(email, (value) => {
                setEmail(value);
                setErrors((previous) => ({ ...previous, email: undefined }));
              })}
              error={errors.email}
              required
              autoFocus
              miw={220}
            />
            <TextInput
              label="Telefone com DDD"
              placeholder="(61) 99999-1234"
              type="tel"
              inputMode="numeric"
              autoComplete="off"
              {...textField(phone, (value) => {
                setPhone(formatPhone(value));
                setErrors((previous) => ({ ...previous, phone: undefined }));
              })}
              error={errors.phone}
              maxLength={15}
              required
              miw={220}
            />
          </Group>
          <Paper
            withBorder
            radius="md"
            p="md"
            component="section"
            aria-labelledby="demo-consent-title"
          >
            <Stack gap="sm">
              <Group gap="xs">
                <IconShieldCheck size={20} aria-hidden />
                <Title order={3} size="h5" id="demo-consent-title">
                  Consentimento para o tratamento de dados biométricos (LGPD, art. 11)
                </Title>
              </Group>
              <Text size="sm" data-testid="consent-text">
                {BIOMETRIC_CONSENT_TEXT}
              </Text>
              <Text size="xs" c="dimmed">
                Versão do texto: {BIOMETRIC_CONSENT_VERSION}
              </Text>
              <Checkbox
                label="Li e concordo com o tratamento dos meus dados biométricos nos termos acima."
                checked={consent}
                onChange={(event) => {
                  setConsent(event.currentTarget.checked);
                  setErrors((previous) => ({ ...previous, consent: undefined }));
                }}
                error={errors.consent}
              />
            </Stack>
          </Paper>
          <Group justify="space-between">
            <BackToStepOne label="Cadastrar outro candidato" />
            <DemoNextButton loading={save.isPending}>Registrar e continuar</DemoNextButton>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
