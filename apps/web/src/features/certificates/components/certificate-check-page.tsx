/**
 * `/certificate` (public) and its federal-district variant
 * `/certificate/:schedulingId` (title 'Certificados'): anyone holding a
 * certificate's code — typed, or read from its QR code, which opens this page
 * with `?code=` — sees whether it is authentic and still valid, with only
 * what a third party may see (the CPF masked). A revoked certificate says so,
 * since when and why. The DF variant has a heading of its own, naming the
 * unit of the certificate found (a DEMO certificate is not the district's),
 * and checks that the code belongs to the scheduling in its address.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCertificate, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import {
  CERTIFICATE_DF_TITLE,
  CERTIFICATE_REVOKE_LABELS,
  certificateCodeSchema,
  EXAM_RESULT_LABELS,
  MISSING_ROOM_LOCAL_MESSAGE,
  type CertificateCheck,
} from '@exame/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { textField } from '../../../lib/forms';
import { certificateCheckQuery } from '../api/certificates';
import { Field } from '../../../components/field';

const format = (value: string) => dayjs(value).format('DD/MM/YYYY HH:mm');

function CheckResult({ check }: { check: CertificateCheck }) {
  const valid = check.status === 'valid';
  const { content } = check;
  return (
    <Stack gap="md" data-testid="certificate-check">
      {valid ? (
        <Alert
          color="teal"
          icon={<IconCircleCheck size={20} />}
          title="Certificado autêntico e válido"
        >
          Este certificado foi emitido em {format(check.issuedAt)} e continua válido.
        </Alert>
      ) : (
        <Alert color="red" icon={<IconCircleX size={20} />} title="Certificado revogado">
          Este certificado é autêntico, mas foi revogado em{' '}
          {check.revokedAt ? format(check.revokedAt) : '—'}
          {check.revokedReason ? `: ${CERTIFICATE_REVOKE_LABELS[check.revokedReason]}` : ''}. Ele
          não vale mais como comprovante.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label="Código">{check.code}</Field>
        <Field label="Agendamento">{content.schedulingId}</Field>
        <Field label="Candidato">{content.candidateName}</Field>
        <Field label="CPF">{content.candidateCpf}</Field>
        <Field label="Unidade">
          {content.unitName} ({content.federativeUnit})
        </Field>
        <Field label="Posto">{content.postName ?? '—'}</Field>
        <Field label="Data do exame">{format(content.examDate)}</Field>
        <Field label="Resultado">
          <Badge color={content.result === 'approved' ? 'teal' : 'gray'} variant="light">
            {EXAM_RESULT_LABELS[content.result]}
          </Badge>
        </Field>
      </SimpleGrid>
      {content.roomLocal ? (
        <Field label="Local da sala">{content.roomLocal}</Field>
      ) : (
        <Alert color="yellow" variant="light">
          {MISSING_ROOM_LOCAL_MESSAGE}
        </Alert>
      )}
    </Stack>
  );
}

function Check({ code, schedulingId }: { code: string; schedulingId: string | null }) {
  const check = useQuery(certificateCheckQuery(code, schedulingId));
  if (check.isPending) {
    return (
      <Text size="sm" aria-live="polite">
        Conferindo o certificado…
      </Text>
    );
  }
  if (check.isError) {
    const notFound = check.error instanceof ApiError && check.error.status === 404;
    return (
      <Alert
        color={notFound ? 'orange' : 'red'}
        title={notFound ? 'Certificado não encontrado' : 'Erro'}
        data-testid="certificate-check-error"
      >
        {check.error.message}
      </Alert>
    );
  }
  return <CheckResult check={check.data} />;
}

export function CertificateCheckPage() {
  const { schedulingId = null } = useParams();
  const federalDistrict = schedulingId !== null;
  const [params, setParams] = useSearchParams();
  const fromAddress = params.get('code') ?? '';
  const [typed, setTyped] = useState(fromAddress);
  const [error, setError] = useState<string | null>(null);
  const valid = certificateCodeSchema.safeParse(fromAddress);
  // The answer for the code in the address (the same cache entry as <Check>): its unit heads the DF variant.
  const found = useQuery({
    ...certificateCheckQuery(valid.data ?? '', schedulingId),
    enabled: federalDistrict && valid.success,
  });
  const unitName = federalDistrict && valid.success ? found.data?.content.unitName : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = certificateCodeSchema.safeParse(typed);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Código inválido.');
      // The answer about the previous code does not stay under the new error.
      if (params.has('code')) setParams({}, { replace: true });
      return;
    }
    setError(null);
    setParams({ code: typed.trim() });
  };

  return (
    <Center mih="100vh" p="md" bg={federalDistrict ? 'blue.0' : 'gray.0'}>
      <Paper withBorder shadow="sm" p="xl" radius="lg" w="100%" maw={640}>
        <Stack gap="md">
          <Group gap="sm">
            <IconCertificate size={36} aria-hidden />
            <div>
              {federalDistrict ? (
                <>
                  <Text size="xs" fw={700} c="blue.9" tt="uppercase" data-testid="certificate-unit">
                    {unitName ? `${unitName} · ` : ''}Exame teórico de trânsito
                  </Text>
                  <Title order={1} size="h2">
                    {CERTIFICATE_DF_TITLE}
                  </Title>
                  <Text size="sm" c="dimmed">
                    Conferência do certificado do agendamento {schedulingId}
                  </Text>
                </>
              ) : (
                <>
                  <Title order={1} size="h2">
                    Conferir certificado
                  </Title>
                  <Text size="sm" c="dimmed">
                    Digite o código impresso no certificado ou leia o QR code dele.
                  </Text>
                </>
              )}
            </div>
          </Group>
          <form onSubmit={submit} noValidate>
            <Group align="flex-end" gap="sm">
              <TextInput
                label="Código do certificado"
                placeholder="7KQ2-9XHM-D4TB-W1RZ"
                {...textField(typed, (value) => {
                  setTyped(value);
                  setError(null);
                })}
                error={error}
                style={{ flex: 1 }}
                autoComplete="off"
                autoFocus={!fromAddress}
                maxLength={40}
              />
              <Button type="submit">Conferir</Button>
            </Group>
          </form>
          {/* The router applies the cleared address in a transition, after the input
              error has rendered: the error alone decides that no answer shows. */}
          {fromAddress && valid.success && !error && (
            <Check
              key={`${valid.data}-${schedulingId}`}
              code={valid.data}
              schedulingId={schedulingId}
            />
          )}
          {fromAddress && !valid.success && !error && (
            <Alert color="orange" title="Código inválido">
              {valid.error.issues[0]?.message}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            A conferência mostra só o que um terceiro pode ver (LGPD): o CPF aparece mascarado.{' '}
            <Anchor component={Link} to="/login" size="xs" underline="always">
              Entrar no sistema
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
